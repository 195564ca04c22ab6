"""Fixtures for tests/vision/datasets_test.cpp under tests/golden/vision/datasets:
tiny MNIST / FashionMNIST / EMNIST IDX files (read back with torchvision 0.14's
datasets for the expected values), CIFAR-10/100 binary batches (whose expected
values are the arrays written here), an image-folder tree (torchvision's
ImageFolder gives the expected sample order), and hostile files.
Run: /usr/bin/python3 tools/golden/gen_vision_ops_datasets.py"""
import os
import shutil
import struct
import sys

import torch
import torchvision

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GOLDEN_DIR, GoldenWriter  # noqa: E402

torch.manual_seed(0)
ROOT = os.path.join(GOLDEN_DIR, "vision", "datasets")
shutil.rmtree(ROOT, ignore_errors=True)
os.makedirs(ROOT)
g = GoldenWriter("vision_ops_datasets")


def write_idx(path, array):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    magic = 0x0800 | array.dim()
    with open(path, "wb") as f:
        f.write(struct.pack(">I", magic))
        for d in array.shape:
            f.write(struct.pack(">I", d))
        f.write(array.to(torch.uint8).numpy().tobytes())


for cls, prefix_train, prefix_test in (("MNIST", "train", "t10k"), ("FashionMNIST", "train", "t10k"),
                                       ("EMNIST", "emnist-letters-train", "emnist-letters-test")):
    for prefix, n in ((prefix_train, 3), (prefix_test, 2)):
        raw = os.path.join(ROOT, cls, "raw")
        write_idx(os.path.join(raw, prefix + "-images-idx3-ubyte"), torch.randint(0, 256, (n, 28, 28)))
        write_idx(os.path.join(raw, prefix + "-labels-idx1-ubyte"), torch.randint(0, 10, (n,)))
for name, ds in (("mnist_train", torchvision.datasets.MNIST(ROOT, train=True)),
                 ("mnist_test", torchvision.datasets.MNIST(ROOT, train=False)),
                 ("fashion_train", torchvision.datasets.FashionMNIST(ROOT, train=True)),
                 ("emnist_test", torchvision.datasets.EMNIST(ROOT, "letters", train=False))):
    g.add(name + ".data", ds.data)
    g.add(name + ".targets", ds.targets)
    img, target = ds[1]
    g.add(name + ".item1", torchvision.transforms.functional.pil_to_tensor(img))
    g.add(name + ".target1", torch.tensor(target))
# torchvision leaves processed/ copies behind in some versions; keep raw only.
for cls in ("MNIST", "FashionMNIST", "EMNIST"):
    shutil.rmtree(os.path.join(ROOT, cls, "processed"), ignore_errors=True)

# CIFAR binary: label byte(s) then 3072 CHW pixel bytes per record.
c10 = os.path.join(ROOT, "cifar-10-batches-bin")
os.makedirs(c10)
train_imgs, train_lbls = [], []
for b in range(1, 6):
    imgs = torch.randint(0, 256, (2, 3, 32, 32), dtype=torch.uint8)
    lbls = torch.randint(0, 10, (2,), dtype=torch.uint8)
    with open(os.path.join(c10, "data_batch_%d.bin" % b), "wb") as f:
        for i in range(2):
            f.write(bytes([lbls[i]]) + imgs[i].numpy().tobytes())
    train_imgs.append(imgs)
    train_lbls.append(lbls)
test_img = torch.randint(0, 256, (1, 3, 32, 32), dtype=torch.uint8)
with open(os.path.join(c10, "test_batch.bin"), "wb") as f:
    f.write(bytes([7]) + test_img[0].numpy().tobytes())
with open(os.path.join(c10, "batches.meta.txt"), "w") as f:
    f.write("airplane\nautomobile\nbird\ncat\ndeer\ndog\nfrog\nhorse\nship\ntruck\n\n")
g.add("cifar10_train.images", torch.cat(train_imgs))
g.add("cifar10_train.targets", torch.cat(train_lbls).long())
g.add("cifar10_test.images", test_img)
c100 = os.path.join(ROOT, "cifar-100-binary")
os.makedirs(c100)
imgs = torch.randint(0, 256, (3, 3, 32, 32), dtype=torch.uint8)
coarse = torch.randint(0, 20, (3,), dtype=torch.uint8)
fine = torch.randint(0, 100, (3,), dtype=torch.uint8)
with open(os.path.join(c100, "train.bin"), "wb") as f:
    for i in range(3):
        f.write(bytes([coarse[i], fine[i]]) + imgs[i].numpy().tobytes())
with open(os.path.join(c100, "test.bin"), "wb") as f:
    f.write(bytes([1, 2]) + imgs[0].numpy().tobytes())
with open(os.path.join(c100, "fine_label_names.txt"), "w") as f:
    f.write("\n".join("class%d" % i for i in range(100)) + "\n")
g.add("cifar100_train.images", imgs)
g.add("cifar100_train.targets", fine.long())

# An image folder (the loader in the test reads the bytes, so any content works).
tree = os.path.join(ROOT, "folder")
for rel in ("cat/a.png", "cat/sub/b.jpg", "cat/sub-2/c.jpeg", "cat/z.JPG", "dog/c.PNG", "dog/readme.txt",
            "dog/x/y.webp", "empty_ok/notes.md"):
    p = os.path.join(tree, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(rel)
os.remove(os.path.join(tree, "empty_ok", "notes.md"))
os.rmdir(os.path.join(tree, "empty_ok"))
ds = torchvision.datasets.ImageFolder(tree, loader=lambda p: p)
with open(os.path.join(ROOT, "folder_expected.txt"), "w") as f:
    f.write("\n".join(ds.classes) + "\n--\n")
    for path, target in ds.samples:
        f.write("%s %d\n" % (os.path.relpath(path, tree), target))

# Hostile files: a header that lies about its size, a truncated file, a bad magic.
bad = os.path.join(ROOT, "bad", "MNIST", "raw")
os.makedirs(bad)
with open(os.path.join(bad, "train-images-idx3-ubyte"), "wb") as f:
    f.write(struct.pack(">IIII", 0x0803, 100000, 100000, 28) + b"\0" * 16)
with open(os.path.join(bad, "train-labels-idx1-ubyte"), "wb") as f:
    f.write(struct.pack(">II", 0x0801, 3) + b"\1")
with open(os.path.join(bad, "t10k-images-idx3-ubyte"), "wb") as f:
    f.write(struct.pack(">IIII", 0x0903, 1, 28, 28) + b"\0" * 784)
with open(os.path.join(bad, "t10k-labels-idx1-ubyte"), "wb") as f:
    f.write(struct.pack(">II", 0x0801, 1) + b"\1")
badc = os.path.join(ROOT, "bad", "cifar-10-batches-bin")
os.makedirs(badc)
for b in range(1, 6):
    with open(os.path.join(badc, "data_batch_%d.bin" % b), "wb") as f:
        f.write(b"\0" * (3073 if b < 5 else 3000))
# A COCO instances file: ids out of order, an image without annotations,
# annotations interleaved across images.
import json  # noqa: E402

coco = os.path.join(ROOT, "coco")
os.makedirs(coco)
ann = {"images": [{"id": 42, "file_name": "b.jpg", "height": 4, "width": 5},
                  {"id": 7, "file_name": "a.jpg", "height": 3, "width": 3},
                  {"id": 9, "file_name": "c.jpg", "height": 2, "width": 2}],
       "annotations": [{"id": 1, "image_id": 42, "category_id": 3, "bbox": [1, 2, 3, 4.5], "area": 13.5,
                        "iscrowd": 0, "segmentation": [[1, 2, 4, 2, 4, 6.5]]},
                       {"id": 2, "image_id": 7, "category_id": 1, "bbox": [0, 0, 1, 1], "area": 1, "iscrowd": 1,
                        "segmentation": {"counts": [0, 1, 8], "size": [3, 3]}},
                       {"id": 3, "image_id": 42, "category_id": 5, "bbox": [0.5, 0.5, 1, 1], "area": 1,
                        "iscrowd": 0, "segmentation": []}],
       "categories": [{"id": 1, "name": "one"}, {"id": 3, "name": "three"}, {"id": 5, "name": "five"}]}
with open(os.path.join(coco, "instances.json"), "w") as f:
    json.dump(ann, f)
for name in ("a.jpg", "b.jpg", "c.jpg"):
    with open(os.path.join(coco, name), "w") as f:
        f.write(name)
with open(os.path.join(coco, "bad_type.json"), "w") as f:
    json.dump({"images": [{"id": "x", "file_name": "a.jpg"}]}, f)
with open(os.path.join(coco, "bad_ref.json"), "w") as f:
    json.dump({"images": [{"id": 1, "file_name": "a.jpg"}], "annotations": [{"id": 1, "image_id": 2,
                                                                            "category_id": 1}]}, f)
with open(os.path.join(coco, "truncated.json"), "w") as f:
    f.write(json.dumps(ann)[:100])
# A VOC 2012 segmentation tree; torchvision's VOCSegmentation lists the files.
voc = os.path.join(ROOT, "voc", "VOCdevkit", "VOC2012")
for sub in ("ImageSets/Segmentation", "JPEGImages", "SegmentationClass"):
    os.makedirs(os.path.join(voc, sub))
with open(os.path.join(voc, "ImageSets/Segmentation/train.txt"), "w") as f:
    f.write("2007_000032\n 2007_000039 \n")
for i in ("2007_000032", "2007_000039"):
    for sub, ext in (("JPEGImages", ".jpg"), ("SegmentationClass", ".png")):
        with open(os.path.join(voc, sub, i + ext), "w") as f:
            f.write(i + ext)
vds = torchvision.datasets.VOCSegmentation(os.path.join(ROOT, "voc"), "2012", "train")
with open(os.path.join(ROOT, "voc_expected.txt"), "w") as f:
    for a, b in zip(vds.images, vds.masks):
        f.write("%s %s\n" % (os.path.relpath(a, ROOT), os.path.relpath(b, ROOT)))

# torchvision's reading (pycocotools), when installed, is the reference for the order.
try:
    ds = torchvision.datasets.CocoDetection(coco, os.path.join(coco, "instances.json"))
    ds._load_image = lambda i: i
    order = [[a["id"] for a in ds[i][1]] for i in range(len(ds))]
    assert ds.ids == [7, 9, 42] and order == [[2], [], [1, 3]], (ds.ids, order)
except ImportError:
    pass
g.save()
