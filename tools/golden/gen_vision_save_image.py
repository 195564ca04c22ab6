"""Golden values for tests/vision/utils_save_image_test.cpp: torchvision 0.14's
save_image (make_grid, the uint8 rounding, PIL's PNG writer) on seeded
batches, read back with torchvision.io.read_image.
Run: /usr/bin/python3 tools/golden/gen_vision_save_image.py"""
import os
import sys
import tempfile

import torch
from torchvision import io, utils

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
g = GoldenWriter("vision_save_image")
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "grid.png")
    # Values outside [0, 1] and near the rounding boundaries exercise the clamp and +0.5.
    batch = torch.rand(5, 3, 4, 6) * 1.2 - 0.1
    g.add("batch.x", batch)
    utils.save_image(batch, path)
    g.add("batch.default", io.read_image(path))
    utils.save_image(batch, path, nrow=2, padding=1, pad_value=0.25)
    g.add("batch.nrow2", io.read_image(path))
    utils.save_image(batch, path, normalize=True, value_range=(-0.5, 0.5))
    g.add("batch.normalize", io.read_image(path))
    single = torch.rand(1, 5, 7)
    g.add("single.x", single)
    utils.save_image(single, path)
    g.add("single.default", io.read_image(path))
g.save()
