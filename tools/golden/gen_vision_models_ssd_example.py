"""The fixture of examples/vision_detect (tests/golden/vision/models/ssd/):
    shapes.jpg        a synthetic 96x128 scene with two objects
    tiny_ssd.pth      torchvision's SSD over a small two-level backbone
                      (the example's TinyBackbone), trained here on that scene
                      so that its detections mean something; ~100 KB, where
                      any torchvision detection builder's model is >= 9 MB
    tiny_ssd.expected what the example prints for them, from torchvision's
                      model on torchvision.io's decode of the JPEG
Run: /usr/bin/python3 tools/golden/gen_vision_models_ssd_example.py"""
import os
from collections import OrderedDict

import torch
from torch import nn
from torchvision.io import encode_jpeg, read_image
from torchvision.models.detection.anchor_utils import DefaultBoxGenerator
from torchvision.models.detection.ssd import SSD

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "golden", "vision", "models", "ssd")
THRESH = 0.5


class TinyBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage1 = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(inplace=True),
                                    nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(inplace=True))
        self.stage2 = nn.Sequential(nn.Conv2d(32, 32, 3, stride=2, padding=1), nn.ReLU(inplace=True))

    def forward(self, x):
        a = self.stage1(x)
        return OrderedDict([("0", a), ("1", self.stage2(a))])


def tiny_ssd():
    return SSD(TinyBackbone(), DefaultBoxGenerator([[2], [2, 3]]), (128, 128), 3, image_mean=[0.5, 0.5, 0.5],
               image_std=[0.5, 0.5, 0.5])


def scene():
    g = torch.Generator().manual_seed(1)
    img = (torch.rand(3, 96, 128, generator=g) * 40 + 100).to(torch.uint8)
    img[:, 20:70, 10:50] = torch.tensor([200, 40, 40], dtype=torch.uint8).view(3, 1, 1)  # a red box: label 1
    yy, xx = torch.meshgrid(torch.arange(96), torch.arange(128), indexing="ij")
    disc = (yy - 50) ** 2 + (xx - 90) ** 2 < 22 ** 2  # a blue disc: label 2
    img[:, disc] = torch.tensor([30, 60, 210], dtype=torch.uint8).view(3, 1)
    target = {"boxes": torch.tensor([[10.0, 20.0, 50.0, 70.0], [68.0, 28.0, 112.0, 72.0]]),
              "labels": torch.tensor([1, 2])}
    return img, target


def main():
    os.makedirs(OUT, exist_ok=True)
    img, target = scene()
    jpeg = encode_jpeg(img, quality=95)
    path = os.path.join(OUT, "shapes.jpg")
    with open(path, "wb") as f:
        f.write(jpeg.numpy().tobytes())
    x = read_image(path).float() / 255.0
    torch.manual_seed(0)
    model = tiny_ssd()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    model.train()
    for _ in range(1200):
        losses = model([x], [target])
        loss = sum(losses.values())
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    torch.save(model.state_dict(), os.path.join(OUT, "tiny_ssd.pth"))
    with torch.no_grad():
        out = model([x])[0]
    keep = out["scores"] > THRESH
    scores = out["scores"][keep]
    # The printed order and the threshold must not hang on float noise.
    assert all(abs(float(s) - THRESH) > 1e-3 for s in out["scores"]), out["scores"]
    assert all(float(a - b) > 1e-3 for a, b in zip(scores[:-1], scores[1:])), scores
    lines = ["%d detections above %.2f" % (int(keep.sum()), THRESH)]
    for b, l, s in zip(out["boxes"][keep], out["labels"][keep], scores):
        lines.append("  label %d  score %.4f  box [%.2f, %.2f, %.2f, %.2f]" % (int(l), float(s), *[float(v) for v in b]))
    with open(os.path.join(OUT, "tiny_ssd.expected"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
