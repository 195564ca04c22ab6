"""Golden values for ember::data (tests/data): Normalize on per-channel and
scalar statistics, and Fashion-MNIST as read straight from Debian's gzipped
IDX files (dataset-fashion-mnist), converted the way LibTorch's MNIST does:
images uint8 -> float32 / 255, labels uint8 -> int64."""
import gzip
import os

import torch

from golden import GoldenWriter

FASHION = "/usr/share/datasets/fashion-mnist"


def read_idx(path, header_ints):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    return torch.frombuffer(bytearray(raw[4 * header_ints:]), dtype=torch.uint8)


def main():
    g = GoldenWriter("data")
    torch.manual_seed(0)

    x = torch.rand(3, 4, 5)
    mean, std = [0.5, 0.25, 0.125], [0.2, 0.3, 0.4]
    g.add("normalize_channels_input", x)
    g.add("normalize_channels_mean", torch.tensor(mean, dtype=torch.float64))
    g.add("normalize_channels_std", torch.tensor(std, dtype=torch.float64))
    m = torch.tensor(mean, dtype=torch.float32)[:, None, None]
    s = torch.tensor(std, dtype=torch.float32)[:, None, None]
    g.add("normalize_channels_expected", (x - m) / s)

    y = torch.rand(1, 28, 28)
    g.add("normalize_scalar_input", y)
    ms = torch.tensor([0.1307], dtype=torch.float32)[:, None, None]
    ss = torch.tensor([0.3081], dtype=torch.float32)[:, None, None]
    g.add("normalize_scalar_expected", (y - ms) / ss)

    if os.path.isdir(FASHION):
        for split, n in (("train", 60000), ("t10k", 10000)):
            images = read_idx(os.path.join(FASHION, split + "-images-idx3-ubyte.gz"), 4)
            labels = read_idx(os.path.join(FASHION, split + "-labels-idx1-ubyte.gz"), 2)
            images = images.reshape(n, 1, 28, 28).to(torch.float32).div_(255)
            labels = labels.to(torch.int64)
            g.add("fashion_%s_first_image" % split, images[0])
            g.add("fashion_%s_last_image" % split, images[-1])
            g.add("fashion_%s_first_labels" % split, labels[:32])
            g.add("fashion_%s_label_counts" % split, torch.bincount(labels, minlength=10))
            g.add("fashion_%s_image_sum" % split, images.to(torch.float64).sum())
    g.save()


if __name__ == "__main__":
    main()
