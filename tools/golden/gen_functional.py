"""Golden values for autograd::functional (tests/autograd/functional_test.cpp).

Run: /usr/bin/python3 tools/golden/gen_functional.py

Two functions written identically in the C++ test:
  f(x, y) = (x * sin(y), sum(x * x) * y)             (two outputs)
  g(x, y) = sum(exp(x) * y * y) + sum(x * y) * sum(x)  (scalar)
with x, y of shape [3]; v* and u* are the vectors given to vjp / jvp / vhp / hvp.
"""
import torch
from torch.autograd import functional as F

from golden import GoldenWriter

w = GoldenWriter("functional")
d = torch.float64

x = torch.tensor([0.5, -1.25, 2.0], dtype=d)
y = torch.tensor([1.5, 0.75, -0.5], dtype=d)
v1 = torch.tensor([1.0, -2.0, 0.5], dtype=d)
v2 = torch.tensor([0.25, 3.0, -1.0], dtype=d)
u1 = torch.tensor([-0.5, 1.0, 2.0], dtype=d)
u2 = torch.tensor([2.0, 0.5, -1.5], dtype=d)


def f(x, y):
    return (x * torch.sin(y), (x * x).sum() * y)


def g(x, y):
    return (torch.exp(x) * y * y).sum() + (x * y).sum() * x.sum()


for name, t in [("x", x), ("y", y), ("v1", v1), ("v2", v2), ("u1", u1), ("u2", u2)]:
    w.add(name, t)

_, vjp = F.vjp(f, (x, y), (v1, v2))
w.add("vjp:0", vjp[0])
w.add("vjp:1", vjp[1])
_, jvp = F.jvp(f, (x, y), (u1, u2))
w.add("jvp:0", jvp[0])
w.add("jvp:1", jvp[1])
jac = F.jacobian(f, (x, y))
for i in range(2):
    for j in range(2):
        w.add("jacobian:%d:%d" % (i, j), jac[i][j])
hess = F.hessian(g, (x, y))
for i in range(2):
    for j in range(2):
        w.add("hessian:%d:%d" % (i, j), hess[i][j])
out, vhp = F.vhp(g, (x, y), (u1, u2))
w.add("g", out)
w.add("vhp:0", vhp[0])
w.add("vhp:1", vhp[1])
_, hvp = F.hvp(g, (x, y), (u1, u2))
w.add("hvp:0", hvp[0])
w.add("hvp:1", hvp[1])
w.save()
