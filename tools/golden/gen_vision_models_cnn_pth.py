"""Fixtures for loading torchvision checkpoints (tests/vision/models_cnn_pth_test.cpp
and examples/vision_classify): a MobileNetV3-small with width_mult=0.25 whose
weights are the deterministic ones of gen_vision_models_cnn.py, saved by
torch.save as torchvision's .pth files are; a JPEG; the logits torchvision
gives for that JPEG after MobileNet_V3_Small_Weights.IMAGENET1K_V1's
preprocessing; and a .pth whose keys do not match (one missing, one
unexpected, one of the wrong shape).
Run: /usr/bin/python3 tools/golden/gen_vision_models_cnn_pth.py"""
import math
import os
import sys

import torch
import torchvision.models as M
from torchvision.io import decode_jpeg, encode_jpeg, read_file

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GOLDEN_DIR, GoldenWriter  # noqa: E402

OUT = os.path.join(GOLDEN_DIR, "vision", "models", "cnn")


def fill(model, gain=1.0):
    with torch.no_grad():
        for k, (name, t) in enumerate(model.state_dict().items()):
            if not t.is_floating_point():
                t.zero_()
                continue
            i = torch.arange(t.numel(), dtype=torch.int64)
            h = (i * 1103515245 + 12345 + 7919 * k) % 2147483648
            h = (h * 1103515245 + 12345) % 2147483648
            b = (h.double() / 1073741824.0 - 1.0).reshape(t.shape)
            if name.endswith("running_var"):
                v = 0.5 + 0.5 * b * b
            elif name.endswith("running_mean"):
                v = 0.1 * b
            elif t.dim() == 1:
                v = 1 + 0.2 * b if name.endswith("weight") else 0.1 * b
            else:
                v = gain * math.sqrt(3.0) * b / math.sqrt(t.numel() / t.shape[0])
            t.copy_(v.to(t.dtype))


def main():
    os.makedirs(OUT, exist_ok=True)
    g = GoldenWriter("vision_models_cnn_pth")
    torch.manual_seed(0)
    model = M.mobilenet_v3_small(width_mult=0.25).eval()
    fill(model, 1.2)
    sd = model.state_dict()
    torch.save(sd, os.path.join(OUT, "mobilenet_v3_small_w025.pth"))

    # A 120x96 picture: smooth colour ramps and a disc, so resizing and cropping matter.
    yy, xx = torch.meshgrid(torch.arange(96.0), torch.arange(120.0), indexing="ij")
    r = 127.5 + 127.5 * torch.sin(xx / 11.0)
    gch = 127.5 + 127.5 * torch.cos(yy / 7.0 + xx / 23.0)
    bch = torch.where((xx - 70) ** 2 + (yy - 40) ** 2 < 400, torch.full_like(xx, 230.0), yy * 2.0)
    img = torch.stack([r, gch, bch]).round().clamp(0, 255).to(torch.uint8)
    jpeg = encode_jpeg(img, quality=90)
    path = os.path.join(OUT, "picture.jpg")
    with open(path, "wb") as f:
        f.write(bytes(jpeg.tolist()))
    decoded = decode_jpeg(read_file(path))
    weights = M.MobileNet_V3_Small_Weights.IMAGENET1K_V1
    batch = weights.transforms()(decoded).unsqueeze(0)
    # Every 8th row and column of the preprocessed batch (the file stays small).
    g.add("picture.preprocessed_every8", batch[:, :, ::8, ::8])
    with torch.no_grad():
        logits = model(batch)
    g.add("picture.logits", logits)
    g.add("picture.top5", logits.softmax(1).topk(5).indices)

    bad = dict(sd)
    bad.pop("features.1.block.0.0.weight")
    bad["features.99.weight"] = torch.zeros(2)
    bad["classifier.3.bias"] = torch.zeros(7)
    torch.save(bad, os.path.join(OUT, "mobilenet_v3_small_w025_bad.pth"))
    g.save()


main()
