"""Golden values for diag (vector -> matrix and matrix -> diagonal, every offset in and past
the matrix), diag_embed (offsets, dims) and diagflat, with input gradients for a fixed upstream
gradient. Run: /usr/bin/python3 tools/golden/gen_diag.py"""
import torch

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("diag")

v = torch.randn(4, dtype=torch.float64)
m = torch.randn(3, 4, dtype=torch.float64)
b = torch.randn(2, 3, dtype=torch.float64)
g.add("v", v)
g.add("m", m)
g.add("b", b)


def add_with_grad(name, fn, x):
    x = x.clone().requires_grad_()
    y = fn(x)
    up = torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape) + 1
    (gx,) = torch.autograd.grad(y, x, up)
    g.add(name + ".out", y)
    g.add(name + ".grad", gx)


for k in range(-2, 3):
    add_with_grad("diag.v.%d" % k, lambda x: torch.diag(x, k), v)
# Offsets up to just past the matrix (empty results); torch 1.13 raises an integer-overflow
# error further out, Ember returns empty results there too.
for k in range(-3, 5):
    add_with_grad("diag.m.%d" % k, lambda x: torch.diag(x, k), m)
for k in range(-4, 4):
    add_with_grad("diag.mt.%d" % k, lambda x: torch.diag(x.t(), k), m)
for off, d1, d2 in [(0, -2, -1), (1, 0, 2), (-1, 2, 0), (2, 1, 0), (0, 0, 1)]:
    add_with_grad("diag_embed.%d.%d.%d" % (off, d1, d2), lambda x: torch.diag_embed(x, off, d1, d2), b)
add_with_grad("diag_embed.v", torch.diag_embed, v)
add_with_grad("diagflat.b.0", torch.diagflat, b)
add_with_grad("diagflat.b.-2", lambda x: torch.diagflat(x, -2), b)
add_with_grad("diagflat.scalar.1", lambda x: torch.diagflat(x, 1), torch.tensor(2.5, dtype=torch.float64))

# Other dtypes keep their dtype.
ints = torch.tensor([1, -2, 3])
g.add("ints", ints)
g.add("diag.ints.1", torch.diag(ints, 1))
bools = torch.tensor([True, False, True])
g.add("bools", bools)
g.add("diag.bools.-1", torch.diag(bools, -1))
cplx = torch.randn(3, dtype=torch.complex64)
g.add("cplx", cplx)
g.add("diag.cplx.0", torch.diag(cplx))
g.add("diag_embed.cplx", torch.diag_embed(cplx.reshape(1, 3), 1))
g.save()
