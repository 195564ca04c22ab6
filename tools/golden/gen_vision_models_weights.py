"""Golden values for tests/vision/models_weights_test.cpp and
models_feature_pruning_test.cpp, from torchvision 0.14.1:
  - every weights enum Ember builds (gen_vision_models_cnn_weights.py's list):
    its members in order ("members.<Enum>" = the names, '\\n'-joined, as
    UTF-8 bytes), DEFAULT, and per member the url, num_params, min_size,
    metrics, category and keypoint lists (bytes) and the preset's parameters;
  - the presets' outputs: ObjectDetection, SemanticSegmentation(resize_size=...)
    and OpticalFlow on uint8 images given by a formula the test computes too;
  - the state_dict keys of create_feature_extractor(model, nodes) (torchvision
    prunes the modules after the last requested node);
  - maskrcnn_resnet50_fpn_v2's state_dict names and shapes.
Run: /usr/bin/python3 tools/golden/gen_vision_models_weights.py"""
import functools
import os

import torch
import torchvision.models as M
from torchvision.models import _meta
from torchvision.models.feature_extraction import create_feature_extractor
from torchvision.transforms import _presets

from golden import GoldenWriter

HERE = os.path.dirname(os.path.abspath(__file__))

g = GoldenWriter("vision_models_weights")


def text(name, s):
    g.add(name, torch.tensor(list(s.encode("utf-8")), dtype=torch.uint8))


PRESETS = {_presets.ImageClassification: 0, _presets.ObjectDetection: 1, _presets.SemanticSegmentation: 2,
           _presets.OpticalFlow: 3}


def preset(prefix, t):
    cls, kw = (t.func, t.keywords) if isinstance(t, functools.partial) else (t, {})
    g.add(prefix + ".kind", torch.tensor(PRESETS[cls]))
    built = cls(**kw)
    if hasattr(built, "crop_size"):
        g.add(prefix + ".crop_size", torch.tensor(built.crop_size))
    if hasattr(built, "resize_size"):
        g.add(prefix + ".resize_size", torch.tensor(built.resize_size if built.resize_size else [-1]))
    if hasattr(built, "mean"):
        g.add(prefix + ".mean", torch.tensor(built.mean, dtype=torch.float64))
        g.add(prefix + ".std", torch.tensor(built.std, dtype=torch.float64))
        text(prefix + ".interpolation", built.interpolation.name)


def enums():
    # The families of the weights-table generator, without running it.
    src = open(os.path.join(HERE, "gen_vision_models_cnn_weights.py")).read()
    start, end = src.index("CNN = "), src.index("# (group,")
    ns = {}
    exec(src[start:end], ns)
    import torchvision.models.detection as D
    import torchvision.models.optical_flow as O
    import torchvision.models.segmentation as S
    out = [getattr(M, f + "_Weights") for f in ns["CNN"] + ns["TRANSFORMERS"]]
    out += [getattr(D, f + "_Weights") for f in ns["DETECTION"]]
    out += [getattr(S, f + "_Weights") for f in ns["SEGMENTATION"]]
    out += [getattr(O, f + "_Weights") for f in ns["FLOW"]]
    return out


# The category lists, stored once; a member stores the index of its own (0: none).
LISTS = [("imagenet", _meta._IMAGENET_CATEGORIES), ("coco", _meta._COCO_CATEGORIES),
         ("coco_person", _meta._COCO_PERSON_CATEGORIES), ("coco_person_keypoints", _meta._COCO_PERSON_KEYPOINT_NAMES),
         ("voc", _meta._VOC_CATEGORIES)]
for i, (label, items) in enumerate(LISTS):
    text("list.%d.%s" % (i + 1, label), "\n".join(items))


def list_index(items):
    if not items:
        return 0
    for i, (_, known) in enumerate(LISTS):
        if list(items) == list(known):
            return i + 1
    raise AssertionError(items[:3])


all_enums = enums()
text("enums", "\n".join(e.__name__ for e in all_enums))
for e in all_enums:
    names = [k for k in e.__members__ if k != "DEFAULT"]
    text("members.%s" % e.__name__, "\n".join(names))
    text("default.%s" % e.__name__, e.DEFAULT.name)
    for k in names:
        w = e[k]
        p = "w.%s.%s" % (e.__name__, k)
        text(p + ".url", w.url)
        g.add(p + ".num_params", torch.tensor(w.meta["num_params"]))
        g.add(p + ".min_size", torch.tensor(list(w.meta.get("min_size", (1, 1)))))
        g.add(p + ".categories", torch.tensor(list_index(w.meta.get("categories"))))
        g.add(p + ".keypoint_names", torch.tensor(list_index(w.meta.get("keypoint_names"))))
        metrics = sorted((ds, m, float(v)) for ds, d in w.meta["_metrics"].items() for m, v in d.items())
        text(p + ".metric_names", "\n".join("%s/%s" % (ds, m) for ds, m, _ in metrics))
        g.add(p + ".metric_values", torch.tensor([v for _, _, v in metrics], dtype=torch.float64))
        preset(p + ".tf", w.transforms)


def image(c, h, w, salt):
    """uint8 image: (37 * c + 11 * y + 5 * x + salt * x * y) mod 256, mirrored in the test."""
    cc = torch.arange(c).view(c, 1, 1)
    yy = torch.arange(h).view(1, h, 1)
    xx = torch.arange(w).view(1, 1, w)
    return ((37 * cc + 11 * yy + 5 * xx + salt * xx * yy) % 256).to(torch.uint8)


img = image(3, 23, 31, 3)
g.add("preset.object_detection", _presets.ObjectDetection()(img))
big = _presets.SemanticSegmentation(resize_size=520)(img)  # 3 x 520 x 700: stored sampled
g.add("preset.segmentation_520.shape", torch.tensor(list(big.shape)))
g.add("preset.segmentation_520", big[:, ::37, ::41])
g.add("preset.segmentation_17", _presets.SemanticSegmentation(resize_size=17)(img))
g.add("preset.segmentation_none", _presets.SemanticSegmentation(resize_size=None)(img))
g.add("preset.segmentation_batch",
      _presets.SemanticSegmentation(resize_size=12)(torch.stack([img, image(3, 23, 31, 7)])))
a, b = _presets.OpticalFlow()(img, image(3, 23, 31, 7))
g.add("preset.optical_flow.img1", a)
g.add("preset.optical_flow.img2", b)
g.add("preset.optical_flow.float", _presets.OpticalFlow()(img.float() / 255, img.float() / 255)[0])

for label, model, nodes in [("resnet18_layer2", M.resnet18(), ["layer2"]),
                            ("resnet18_layer1_conv", M.resnet18(), ["layer1.0.conv1", "layer1.1.relu_1"]),
                            ("mobilenet_v3_small_features3", M.mobilenet_v3_small(), ["features.3"]),
                            ("resnet18_fc", M.resnet18(), ["flatten", "fc"])]:
    fx = create_feature_extractor(model, return_nodes=nodes)
    text("fx.%s" % label, "\n".join(fx.state_dict().keys()))

# maskrcnn_resnet50_fpn_v2's state_dict, "name:d0,d1,..." per line, in order.
import torchvision.models.detection as D  # noqa: E402

sd = D.maskrcnn_resnet50_fpn_v2(weights=None, weights_backbone=None).state_dict()
text("sd.maskrcnn_resnet50_fpn_v2", "\n".join("%s:%s" % (k, ",".join(str(d) for d in v.shape)) for k, v in sd.items()))

g.save()
