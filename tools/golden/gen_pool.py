"""Golden values for pooling (max/avg/adaptive, 1-3 d).

Each case stores <case>.cfg (int64), its input <case>.x, the result
<case>.out (and <case>.idx for max pooling), an upstream gradient <case>.gy
and the input gradient <case>.gx. cfg layouts, nd = spatial dims:
  max_*:      nd, kernel[nd], stride[nd], padding[nd], dilation[nd], ceil_mode
  avg_*:      nd, kernel[nd], stride[nd], padding[nd], ceil_mode, count_include_pad, divisor (0 = none)
  amax_*/aavg_*: nd, output_size[nd]
tests/ops/pool_test.cpp replays every case.
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
w = GoldenWriter("pool")


def vec(v, nd):
    return list(v) if isinstance(v, (list, tuple)) else [v] * nd


def emit(name, cfg, x, fn):
    for dt in ("f32", "f64"):
        xi = x.to(torch.float32 if dt == "f32" else torch.float64).requires_grad_(True)
        res = fn(xi)
        y = res[0] if isinstance(res, tuple) else res
        gy = torch.randn_like(y)
        (gx,) = torch.autograd.grad(y, xi, gy)
        nm = "%s_%s" % (name, dt)
        w.add(nm + ".cfg", torch.tensor(cfg, dtype=torch.int64))
        w.add(nm + ".x", xi.detach())
        w.add(nm + ".out", y.detach())
        if isinstance(res, tuple):
            w.add(nm + ".idx", res[1])
        w.add(nm + ".gy", gy)
        w.add(nm + ".gx", gx)


def maxp(name, shape, nd, k, s=None, p=0, d=1, ceil=False, x=None):
    s = k if s is None else s
    x = torch.randn(shape) if x is None else x
    fn = [F.max_pool1d, F.max_pool2d, F.max_pool3d][nd - 1]
    cfg = [nd] + vec(k, nd) + vec(s, nd) + vec(p, nd) + vec(d, nd) + [int(ceil)]
    emit("max_" + name, cfg, x, lambda t: fn(t, k, s, p, d, ceil, True))


def avgp(name, shape, nd, k, s=None, p=0, ceil=False, cip=True, div=None):
    s = k if s is None else s
    x = torch.randn(shape)
    cfg = [nd] + vec(k, nd) + vec(s, nd) + vec(p, nd) + [int(ceil), int(cip), div or 0]
    if nd == 1:
        fn = lambda t: F.avg_pool1d(t, k, s, p, ceil, cip)  # noqa: E731
    else:
        f = F.avg_pool2d if nd == 2 else F.avg_pool3d
        fn = lambda t: f(t, k, s, p, ceil, cip, div)  # noqa: E731
    emit("avg_" + name, cfg, x, fn)


def adaptive(name, shape, nd, out, is_max):
    x = torch.randn(shape)
    if is_max:
        f = [F.adaptive_max_pool1d, F.adaptive_max_pool2d, F.adaptive_max_pool3d][nd - 1]
        emit("amax_" + name, [nd] + vec(out, nd), x, lambda t: f(t, out, True))
    else:
        f = [F.adaptive_avg_pool1d, F.adaptive_avg_pool2d, F.adaptive_avg_pool3d][nd - 1]
        emit("aavg_" + name, [nd] + vec(out, nd), x, lambda t: f(t, out))


maxp("2d_cnn", (2, 3, 8, 8), 2, 2)
maxp("2d_odd", (2, 2, 7, 5), 2, 3, 2, 1)
maxp("2d_ceil", (1, 2, 7, 7), 2, 2, 2, 0, 1, True)
maxp("2d_dil", (1, 2, 9, 8), 2, (3, 2), (2, 1), (1, 0), (2, 3))
maxp("2d_unbatched", (3, 6, 6), 2, 2)
xn = torch.randn(1, 1, 4, 4)
xn[0, 0, 0, 1] = float("nan")
xn[0, 0, 3, 3] = float("nan")
xn[0, 0, 2, 2] = float("nan")
maxp("2d_nan", None, 2, 2, x=xn)
xi = torch.full((1, 1, 4, 4), float("-inf"))
maxp("2d_neginf", None, 2, 2, x=xi)
maxp("2d_ties", None, 2, 2, 1, x=torch.tensor([[[[1.0, 1.0, 0.0], [1.0, 1.0, 2.0], [2.0, 0.0, 2.0]]]]))
maxp("1d", (2, 3, 11), 1, 3, 2, 1)
maxp("1d_ceil_dil", (2, 2, 10), 1, 2, 3, 1, 2, True)
maxp("3d", (1, 2, 5, 6, 4), 3, 2, (2, 1, 2), (1, 0, 0))

avgp("2d_basic", (2, 3, 8, 8), 2, 2)
avgp("2d_pad", (2, 2, 7, 6), 2, 3, 2, 1)
avgp("2d_pad_nocip", (2, 2, 7, 6), 2, 3, 2, 1, False, False)
avgp("2d_ceil", (1, 2, 7, 7), 2, 3, 2, 1, True, True)
avgp("2d_ceil_nocip", (1, 2, 7, 7), 2, 3, 2, 1, True, False)
avgp("2d_div", (1, 2, 6, 6), 2, 3, 2, 1, False, True, 5)
avgp("1d", (2, 3, 9), 1, 3, 2, 1, True, False)
avgp("3d", (1, 2, 4, 5, 6), 3, 2, (2, 1, 2), (1, 0, 1))
avgp("3d_div", (1, 1, 4, 4, 4), 3, 2, 2, 0, False, True, 3)

adaptive("2d", (2, 3, 7, 9), 2, (3, 4), False)
adaptive("2d_up", (1, 2, 3, 3), 2, (5, 4), False)
adaptive("2d_one", (2, 4, 5, 5), 2, (1, 1), False)
adaptive("1d", (2, 3, 10), 1, 4, False)
adaptive("3d", (1, 2, 5, 4, 6), 3, (2, 3, 4), False)
adaptive("2d", (2, 3, 7, 9), 2, (3, 4), True)
adaptive("1d", (2, 3, 10), 1, 4, True)
adaptive("3d", (1, 2, 5, 4, 6), 3, (2, 3, 4), True)

w.save()
