"""Golden values for forward-mode AD (tests/autograd/forward_ad_test.cpp).

Run: /usr/bin/python3 tools/golden/gen_forward_ad.py

Each case is written identically in the C++ test; the inputs, their tangents
and the tangent torch.autograd.forward_ad gives for each output are stored.
"""
import torch
import torch.autograd.forward_ad as fwAD

from golden import GoldenWriter

w = GoldenWriter("forward_ad")
d = torch.float64
g = torch.Generator().manual_seed(7)


def r(*shape, dtype=d):
    return torch.randn(*shape, generator=g, dtype=dtype)


# mlp: tanh(x @ W + b).logsumexp(1) * sigmoid(x).mean()
x, W, b = r(4, 3), r(3, 5), r(5)
tx, tW, tb = r(4, 3), r(3, 5), r(5)
for name, t in [("mlp:x", x), ("mlp:W", W), ("mlp:b", b), ("mlp:tx", tx), ("mlp:tW", tW), ("mlp:tb", tb)]:
    w.add(name, t)
with fwAD.dual_level():
    out = torch.tanh(fwAD.make_dual(x, tx) @ fwAD.make_dual(W, tW) + fwAD.make_dual(b, tb)).logsumexp(1)
    out = out * torch.sigmoid(fwAD.make_dual(x, tx)).mean()
    w.add("mlp:out", fwAD.unpack_dual(out).primal)
    w.add("mlp:jvp", fwAD.unpack_dual(out).tangent)

# inplace: y = x.clone(); y[:, 0].mul_(3); y.exp_(); out = y.sum(0)
x, tx = r(3, 4), r(3, 4)
w.add("inplace:x", x)
w.add("inplace:tx", tx)
with fwAD.dual_level():
    y = fwAD.make_dual(x, tx).clone()
    y[:, 0].mul_(3)
    y.exp_()
    w.add("inplace:y_jvp", fwAD.unpack_dual(y).tangent)
    w.add("inplace:jvp", fwAD.unpack_dual(y.sum(0)).tangent)

# complex: exp(z) * sin(z) + abs(z)
z, tz = r(5, dtype=torch.complex128), r(5, dtype=torch.complex128)
w.add("complex:z", z)
w.add("complex:tz", tz)
with fwAD.dual_level():
    zd = fwAD.make_dual(z, tz)
    w.add("complex:jvp", fwAD.unpack_dual(torch.exp(zd) * torch.sin(zd)).tangent)
    w.add("complex:abs_jvp", fwAD.unpack_dual(zd.abs()).tangent)

# reverse over forward: x.grad of the JVP of sum(x^3 * sin(x)) is H v
x, v = r(4), r(4)
w.add("hvp:x", x)
w.add("hvp:v", v)
xr = x.clone().requires_grad_()
with fwAD.dual_level():
    y = (fwAD.make_dual(xr, v) ** 3 * torch.sin(fwAD.make_dual(xr, v))).sum()
    fwAD.unpack_dual(y).tangent.backward()
w.add("hvp:grad", xr.grad)

# softmax / layer norm / conv through forward mode
x, tx = r(2, 3, 6), r(2, 3, 6)
k, tk = r(4, 3, 3), r(4, 3, 3)
w.add("nn:x", x)
w.add("nn:tx", tx)
w.add("nn:k", k)
w.add("nn:tk", tk)
with fwAD.dual_level():
    xd, kd = fwAD.make_dual(x, tx), fwAD.make_dual(k, tk)
    y = torch.nn.functional.conv1d(xd, kd, padding=1)
    y = torch.nn.functional.layer_norm(y, [6])
    y = torch.softmax(y, -1)
    w.add("nn:jvp", fwAD.unpack_dual(y).tangent)
w.save()
