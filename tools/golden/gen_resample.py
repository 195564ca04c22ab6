"""Golden values for padding and upsampling (pad, constant_pad_nd,
upsample_*, pixel_shuffle/unshuffle).

Each case stores its input <case>.x, the result <case>.out, an upstream
gradient <case>.gy and the input gradient <case>.gx; the op and its
arguments are spelled out again in tests/ops/resample_test.cpp.
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
w = GoldenWriter("resample")


def case(name, shape, fn):
    x = torch.randn(shape, dtype=torch.float64, requires_grad=True)
    y = fn(x)
    gy = torch.randn_like(y)
    (gx,) = torch.autograd.grad(y, x, gy)
    w.add(name + ".x", x.detach())
    w.add(name + ".out", y.detach())
    w.add(name + ".gy", gy)
    w.add(name + ".gx", gx)


case("cpad", (2, 3, 4), lambda x: torch.constant_pad_nd(x, [1, 2, 0, 1], 1.5))
case("cpad_neg", (2, 3, 5), lambda x: torch.constant_pad_nd(x, [-1, 2, 1, -2]))
case("cpad_all_dims", (2, 3), lambda x: torch.constant_pad_nd(x, [1, 0, 2, 1]))
case("reflect1d", (2, 3, 5), lambda x: F.pad(x, [2, 3], mode="reflect"))
case("reflect2d", (1, 2, 4, 5), lambda x: F.pad(x, [1, 2, 3, 0], mode="reflect"))
case("replicate2d", (1, 2, 3, 4), lambda x: F.pad(x, [2, 1, 1, 3], mode="replicate"))
case("replicate3d", (1, 1, 2, 3, 2), lambda x: F.pad(x, [1, 1, 0, 2, 1, 0], mode="replicate"))
case("circular2d", (1, 2, 3, 4), lambda x: F.pad(x, [1, 2, 3, 0], mode="circular"))
case("circular1d", (2, 2, 4), lambda x: F.pad(x, [4, 1], mode="circular"))

case("nearest1d", (2, 3, 5), lambda x: torch._C._nn.upsample_nearest1d(x, [12]))
case("nearest1d_down", (2, 3, 7), lambda x: torch._C._nn.upsample_nearest1d(x, [3]))
case("nearest2d", (1, 2, 3, 4), lambda x: torch._C._nn.upsample_nearest2d(x, [7, 8]))
case("nearest2d_scale", (1, 2, 3, 4), lambda x: torch._C._nn.upsample_nearest2d(x, [5, 10], 1.7, 2.5))
case("bilinear", (1, 2, 3, 4), lambda x: torch._C._nn.upsample_bilinear2d(x, [5, 7], False))
case("bilinear_ac", (1, 2, 3, 4), lambda x: torch._C._nn.upsample_bilinear2d(x, [5, 7], True))
case("bilinear_down", (1, 2, 7, 6), lambda x: torch._C._nn.upsample_bilinear2d(x, [3, 4], False))
case("bilinear_scale", (1, 1, 3, 4), lambda x: torch._C._nn.upsample_bilinear2d(x, [6, 10], False, 2.0, 2.5))
case("bicubic", (1, 2, 3, 4), lambda x: torch._C._nn.upsample_bicubic2d(x, [6, 9], False))
case("bicubic_ac", (1, 2, 4, 3), lambda x: torch._C._nn.upsample_bicubic2d(x, [7, 5], True))
case("pixel_shuffle", (2, 8, 2, 3), lambda x: F.pixel_shuffle(x, 2))
case("pixel_unshuffle", (2, 2, 4, 6), lambda x: F.pixel_unshuffle(x, 2))

w.save()
