"""Golden values for polygamma(n, x) (n = 0..4, 7, 10, 50) on ordinary points, poles and
infinities, in float64, float32, bfloat16 (float16: torch 1.13 has no CPU kernel, so the
float32 result rounded), integer/bool inputs, and the gradients of digamma and polygamma.
Run: /usr/bin/python3 tools/golden/gen_special.py"""
import math

import mpmath
import torch

from golden import GoldenWriter

g = GoldenWriter("special")

INF, NAN = float("inf"), float("nan")
XS = [NAN, INF, -INF, 0.0, -0.0, -1.0, -2.0, -3.0, -1e20, -2.5, -1.3, -0.7, -0.2, 1e-300, 1e-8, 0.01, 0.1, 0.5,
      1.0, 1.4616321449683622, 1.5, 2.0, 3.7, 10.0, 25.5, 100.0, 1e5, 1e17, 1e30]
ORDERS = [0, 1, 2, 3, 4, 7, 10, 50]

x64 = torch.tensor(XS, dtype=torch.float64)
g.add("x", x64)


def reference(n, x):
    """polygamma(n, x) to 60 digits (mpmath), rounded to double; NaN at poles and non-finite x."""
    if not math.isfinite(x) or (x <= 0 and x == math.floor(x)):
        return NAN
    return float(mpmath.polygamma(n, mpmath.mpf(x)))


# torch 1.13 sums the Hurwitz zeta series directly, which cancels catastrophically for x < 0
# and large n (polygamma(50, -2.5) comes out as polygamma(50, 1.5)) and underflows early; the
# points where it is off by more than 1e-9 relative are marked so the test compares Ember with
# the 60-digit reference there instead.
mpmath.mp.dps = 60
for n in ORDERS:
    t = torch.polygamma(n, x64)
    ref = torch.tensor([reference(n, x) for x in XS], dtype=torch.float64)
    finite = torch.isfinite(ref)
    off = finite & ((t - ref).abs() > 1e-9 * ref.abs())
    g.add("polygamma.%d.float64" % n, t)
    g.add("polygamma.%d.ref" % n, ref)
    g.add("polygamma.%d.torch_off" % n, off)
    for i in off.nonzero().flatten().tolist():
        print("torch off: polygamma(%d, %r) = %r, reference %r" % (n, XS[i], t[i].item(), ref[i].item()))
    g.add("polygamma.%d.float32" % n, torch.polygamma(n, x64.float()))
    g.add("polygamma.%d.bfloat16" % n, torch.polygamma(n, x64.bfloat16()))
    g.add("polygamma.%d.float16" % n, torch.polygamma(n, x64.half().float()).half())

ints = torch.tensor([1, 2, 3, 7], dtype=torch.int64)
g.add("ints", ints)
for n in (0, 1, 2):
    g.add("polygamma.%d.int64" % n, torch.polygamma(n, ints))
g.add("polygamma.1.bool", torch.polygamma(1, torch.tensor([True, False])))

# Gradients: d/dx digamma = polygamma(1, x), d/dx polygamma(n, x) = polygamma(n + 1, x), and
# the second derivative through create_graph.
gx = torch.tensor([0.3, 1.7, 4.2, -0.6, -2.4], dtype=torch.float64)
g.add("grad.x", gx)
for name, fn in [("digamma", torch.digamma), ("polygamma1", lambda t: torch.polygamma(1, t)),
                 ("polygamma2", lambda t: torch.polygamma(2, t)), ("lgamma", torch.lgamma)]:
    x = gx.clone().requires_grad_()
    (d1,) = torch.autograd.grad(fn(x).sum(), x, create_graph=True)
    (d2,) = torch.autograd.grad(d1.sum(), x)
    g.add("grad.%s.d1" % name, d1)
    g.add("grad.%s.d2" % name, d2)

# How far torch's float32 kernels are from float64 (for choosing the test tolerance).
worst = 0.0
for n in ORDERS:
    a, b = torch.polygamma(n, x64.float()).double(), torch.polygamma(n, x64)
    ok = torch.isfinite(a) & torch.isfinite(b) & (b.abs() > 1e-30) & (b.abs() < 1e30)
    if n == 1:
        ok &= ~((x64 <= 0) & (x64 == x64.floor()))
    if ok.any():
        worst = max(worst, ((a - b).abs() / b.abs())[ok].max().item())
print("float32 max relative deviation from float64: %.3g" % worst)
g.save()
