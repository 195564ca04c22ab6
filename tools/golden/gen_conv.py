"""Golden values for convolutions (conv1d/2d/3d, conv_transpose1d/2d/3d).

Each case stores <case>.cfg (int64: transposed, nd, stride[nd], padding[nd],
dilation[nd], output_padding[nd], groups, has_bias), its inputs <case>.x,
<case>.w, <case>.b (when has_bias), the result <case>.out, an upstream
gradient <case>.gy and the gradients <case>.gx, <case>.gw, <case>.gb.
tests/ops/conv_test.cpp replays every case through ember::convolution.
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
w = GoldenWriter("conv")


def case(name, nd, n, cin, cout, size, k, stride=1, padding=0, dilation=1, groups=1, bias=True,
         transposed=False, output_padding=0, dtypes=("f32", "f64")):
    def vec(v):
        return list(v) if isinstance(v, (list, tuple)) else [v] * nd
    for dt in dtypes:
        dtype = torch.float32 if dt == "f32" else torch.float64
        x = torch.randn([n, cin] + vec(size), dtype=dtype, requires_grad=True)
        if transposed:
            wt = torch.randn([cin, cout // groups] + vec(k), dtype=dtype, requires_grad=True)
        else:
            wt = torch.randn([cout, cin // groups] + vec(k), dtype=dtype, requires_grad=True)
        b = torch.randn(cout, dtype=dtype, requires_grad=True) if bias else None
        if transposed:
            fn = [F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d][nd - 1]
            y = fn(x, wt, b, stride, padding, output_padding, groups, dilation)
        else:
            fn = [F.conv1d, F.conv2d, F.conv3d][nd - 1]
            y = fn(x, wt, b, stride, padding, dilation, groups)
        gy = torch.randn_like(y)
        grads = torch.autograd.grad(y, [x, wt] + ([b] if bias else []), gy)
        nm = "%s_%s" % (name, dt)
        cfg = [int(transposed), nd] + vec(stride) + vec(padding) + vec(dilation) + vec(output_padding) + [groups, int(bias)]
        w.add(nm + ".cfg", torch.tensor(cfg, dtype=torch.int64))
        w.add(nm + ".x", x.detach())
        w.add(nm + ".w", wt.detach())
        if bias:
            w.add(nm + ".b", b.detach())
        w.add(nm + ".out", y.detach())
        w.add(nm + ".gy", gy)
        w.add(nm + ".gx", grads[0])
        w.add(nm + ".gw", grads[1])
        if bias:
            w.add(nm + ".gb", grads[2])


case("c2d_basic", 2, 2, 3, 4, 6, 3)
case("c2d_pad", 2, 2, 1, 8, 7, 3, padding=1)
case("c2d_cnn2", 2, 3, 8, 16, 6, 3, padding=1, bias=False)
case("c2d_stride", 2, 2, 3, 4, (7, 8), (3, 2), stride=(2, 3), padding=(1, 0))
case("c2d_dil", 2, 1, 2, 3, 9, 3, dilation=(2, 1), padding=2)
case("c2d_groups", 2, 2, 4, 6, 5, 3, groups=2, padding=1)
case("c2d_depthwise", 2, 2, 3, 6, 5, 3, groups=3, stride=2)
case("c2d_1x1", 2, 2, 5, 3, 4, 1)
case("c1d_basic", 1, 2, 3, 4, 10, 3, stride=2, padding=1)
case("c1d_dil_groups", 1, 2, 4, 4, 11, 2, dilation=3, groups=2)
case("c3d_basic", 3, 2, 2, 3, 5, 3, padding=1)
case("c3d_stride", 3, 1, 2, 2, (4, 5, 6), (2, 3, 1), stride=(1, 2, 3), padding=(0, 1, 0), bias=False)
case("t2d_basic", 2, 2, 3, 4, 5, 3, transposed=True)
case("t2d_stride", 2, 2, 4, 2, (4, 5), 3, stride=2, padding=1, output_padding=1, transposed=True)
case("t2d_groups_dil", 2, 1, 4, 6, 4, 2, stride=(2, 1), dilation=2, groups=2, transposed=True)
case("t2d_oppad_gt_pad", 2, 1, 2, 3, 3, 3, stride=3, padding=0, output_padding=2, transposed=True)
case("t1d", 1, 2, 3, 2, 6, 4, stride=3, padding=2, output_padding=1, transposed=True)
case("t3d", 3, 1, 2, 2, 3, 2, stride=2, transposed=True, bias=False)

# Unbatched input and the string paddings.
x = torch.randn(3, 6, 7)
wt = torch.randn(4, 3, 3, 2)
w.add("unbatched.x", x)
w.add("unbatched.w", wt)
w.add("unbatched.out", F.conv2d(x, wt, None, 1, 1))
w.add("same.out", F.conv2d(x, wt, None, 1, "same"))
w.add("same_dil.out", F.conv2d(x, wt, None, 1, "same", 2))
w.add("valid.out", F.conv2d(x, wt, None, 1, "valid"))

w.save()
