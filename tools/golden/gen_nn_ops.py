"""Golden values for the nn ops: linear, bilinear, normalization, embedding, activations.

Cases store inputs as <case>.in0, <case>.in1, ..., outputs as <case>.out and,
for ops with state or gradients, <case>.<extra> (e.g. running_mean, grad0).
tests/ops/{linear,normalization,embedding,activation}_test.cpp apply the same
ops with the same arguments. Dropout is random (Ember's stream differs from
PyTorch's), so its tests check statistics instead.
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
w = GoldenWriter("nn_ops")


def add_all(name, **tensors):
    for k, v in tensors.items():
        w.add("%s.%s" % (name, k), v)


def with_grads(name, fn, inputs, grad_out=None):
    """Stores inputs, output and the gradient of (out * grad_out).sum() w.r.t. each float input."""
    ins = [x.clone().requires_grad_(x.is_floating_point()) if x is not None else None for x in inputs]
    out = fn(*ins)
    for i, x in enumerate(inputs):
        if x is not None:
            w.add("%s.in%d" % (name, i), x)
    w.add(name + ".out", out)
    if grad_out is None:
        grad_out = torch.randn_like(out)
    w.add(name + ".gout", grad_out)
    out.backward(grad_out)
    for i, x in enumerate(ins):
        if x is not None and x.is_floating_point():
            w.add("%s.grad%d" % (name, i), x.grad if x.grad is not None else torch.zeros_like(x))


for dt, tag in [(torch.float32, "f32"), (torch.float64, "f64")]:
    x2 = torch.randn(5, 4, dtype=dt)
    wt = torch.randn(3, 4, dtype=dt)
    b = torch.randn(3, dtype=dt)
    with_grads("linear.2d_bias." + tag, F.linear, [x2, wt, b])
    with_grads("linear.3d_bias." + tag, F.linear, [torch.randn(2, 5, 4, dtype=dt), wt, b])
    with_grads("linear.3d_nobias." + tag, lambda a, c: F.linear(a, c), [torch.randn(2, 5, 4, dtype=dt), wt])
    with_grads("linear.1d_bias." + tag, F.linear, [torch.randn(4, dtype=dt), wt, b])
    # non-contiguous input: stored contiguous, the test transposes it
    xt = torch.randn(4, 2, 5, dtype=dt)
    with_grads("linear.noncontig." + tag, lambda a, c, d: F.linear(a.transpose(0, 2), c, d), [xt, wt, b])
    with_grads("bilinear." + tag, F.bilinear,
               [torch.randn(6, 3, dtype=dt), torch.randn(6, 4, dtype=dt), torch.randn(2, 3, 4, dtype=dt),
                torch.randn(2, dtype=dt)])

# batch_norm: training (running stats updated) and eval, for 2-D to 5-D inputs.
for shape in [(6, 3), (4, 3, 5), (2, 3, 4, 5), (2, 3, 2, 3, 4)]:
    for dt, tag in [(torch.float32, "f32"), (torch.float64, "f64")]:
        name = "batch_norm.%s.%s" % ("x".join(map(str, shape)), tag)
        x = torch.randn(*shape, dtype=dt) * 2 + 0.5
        g = torch.rand(3, dtype=dt) + 0.5
        bb = torch.randn(3, dtype=dt)
        rm = torch.randn(3, dtype=dt)
        rv = torch.rand(3, dtype=dt) + 0.5
        add_all(name, rm_in=rm, rv_in=rv)
        rm2, rv2 = rm.clone(), rv.clone()
        with_grads(name + ".train", lambda a, c, d: F.batch_norm(a, rm2, rv2, c, d, True, 0.1, 1e-5), [x, g, bb])
        add_all(name, rm_out=rm2, rv_out=rv2)
        with_grads(name + ".eval", lambda a, c, d: F.batch_norm(a, rm, rv, c, d, False, 0.1, 1e-5), [x, g, bb])

x = torch.randn(4, 3, 5)
with_grads("batch_norm.noaffine", lambda a: F.batch_norm(a, None, None, None, None, True, 0.1, 1e-5), [x])

for dt, tag in [(torch.float32, "f32"), (torch.float64, "f64")]:
    x = torch.randn(3, 4, 5, dtype=dt) * 3 + 1
    with_grads("layer_norm.last." + tag, lambda a, c, d: F.layer_norm(a, (5,), c, d),
               [x, torch.randn(5, dtype=dt), torch.randn(5, dtype=dt)])
    with_grads("layer_norm.last2." + tag, lambda a, c, d: F.layer_norm(a, (4, 5), c, d, eps=1e-3),
               [x, torch.randn(4, 5, dtype=dt), torch.randn(4, 5, dtype=dt)])
    with_grads("layer_norm.noaffine." + tag, lambda a: F.layer_norm(a, (4, 5)), [x])
    xg = torch.randn(2, 6, 3, 2, dtype=dt)
    with_grads("group_norm." + tag, lambda a, c, d: F.group_norm(a, 3, c, d),
               [xg, torch.randn(6, dtype=dt), torch.randn(6, dtype=dt)])
    rm = torch.randn(6, dtype=dt)
    rv = torch.rand(6, dtype=dt) + 0.5
    add_all("instance_norm." + tag, rm_in=rm, rv_in=rv)
    rm2, rv2 = rm.clone(), rv.clone()
    with_grads("instance_norm." + tag, lambda a, c, d: F.instance_norm(a, rm2, rv2, c, d, True, 0.1, 1e-5),
               [xg, torch.randn(6, dtype=dt), torch.randn(6, dtype=dt)])
    add_all("instance_norm." + tag, rm_out=rm2, rv_out=rv2)
    with_grads("instance_norm.eval." + tag, lambda a: F.instance_norm(a, rm, rv, None, None, False, 0.1, 1e-5),
               [xg])
    with_grads("lrn.3d." + tag, lambda a: F.local_response_norm(a, 3), [torch.randn(2, 5, 4, dtype=dt)])
    with_grads("lrn.4d." + tag, lambda a: F.local_response_norm(a, 4, 0.01, 0.6, 2.0),
               [torch.randn(2, 6, 3, 2, dtype=dt)])

# embedding
wt = torch.randn(10, 3)
idx = torch.tensor([[1, 2, 4], [4, 3, 9], [0, 1, 4]])
with_grads("embedding.plain", lambda a, i: F.embedding(i, a), [wt, idx])
with_grads("embedding.padding", lambda a, i: F.embedding(i, a, padding_idx=4), [wt, idx])
with_grads("embedding.freq", lambda a, i: F.embedding(i, a, padding_idx=1, scale_grad_by_freq=True), [wt, idx])
wr = torch.randn(6, 4) * 3
add_all("embedding_renorm", in0=wr, idx=torch.tensor([0, 2, 2, 5]))
out = wr.clone()
torch.embedding_renorm_(out, torch.tensor([0, 2, 2, 5]), 1.5, 2.0)
add_all("embedding_renorm", out=out)
bi = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 0])
offs = torch.tensor([0, 3, 3, 6])
for mode, mname in enumerate(["sum", "mean", "max"]):
    with_grads("embedding_bag.%s" % mname,
               lambda a, i, o: F.embedding_bag(i, a, o, mode=mname), [wt, bi, offs])
    with_grads("embedding_bag.%s.pad" % mname,
               lambda a, i, o: F.embedding_bag(i, a, o, mode=mname, padding_idx=4), [wt, bi, offs])
    with_grads("embedding_bag.%s.last" % mname,
               lambda a, i, o: F.embedding_bag(i, a, o, mode=mname, include_last_offset=True),
               [wt, bi, torch.tensor([0, 2, 5, 9])])
with_grads("embedding_bag.psw", lambda a, i, o, p: F.embedding_bag(i, a, o, mode="sum", per_sample_weights=p),
           [wt, bi, offs, torch.randn(9)])
with_grads("embedding_bag.2d", lambda a, i: F.embedding_bag(i, a, mode="mean"), [wt, idx])

# activations (inputs include the boundaries and non-finite values)
special = torch.tensor([float("nan"), float("inf"), -float("inf"), -1.0, 1.0, 0.0, 6.0, 0.5, -0.5, 2.0])
for dt, tag in [(torch.float32, "f32"), (torch.float64, "f64")]:
    x = torch.cat([torch.randn(20, dtype=dt) * 4, special.to(dt)])
    acts = {
        "hardtanh": lambda a: F.hardtanh(a),
        "hardtanh_args": lambda a: F.hardtanh(a, -0.5, 2.0),
        "relu6": lambda a: F.relu6(a),
        "threshold": lambda a: F.threshold(a, 0.5, -3.0),
        "celu": lambda a: F.celu(a, 1.5),
        "rrelu_eval": lambda a: F.rrelu(a, 0.1, 0.3, training=False),
        "hardshrink": lambda a: F.hardshrink(a, 0.5),
        "softshrink": lambda a: F.softshrink(a, 0.5),
        "tanhshrink": lambda a: F.tanhshrink(a),
        "log_sigmoid": lambda a: F.logsigmoid(a),
    }
    for k, f in acts.items():
        add_all("act.%s.%s" % (k, tag), in0=x, out=f(x))
    xf = torch.randn(30, dtype=dt) * 4
    for k, f in acts.items():
        with_grads("actgrad.%s.%s" % (k, tag), f, [xf])
    with_grads("prelu.scalar." + tag, F.prelu, [torch.randn(2, 3, 4, dtype=dt), torch.tensor([0.25], dtype=dt)])
    with_grads("prelu.channel." + tag, F.prelu, [torch.randn(2, 3, 4, dtype=dt), torch.rand(3, dtype=dt)])
    with_grads("glu." + tag, lambda a: F.glu(a, 1), [torch.randn(3, 4, 5, dtype=dt)])
    with_grads("glu.last." + tag, lambda a: F.glu(a), [torch.randn(3, 4, 6, dtype=dt)])

w.save()
