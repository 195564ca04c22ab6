"""Golden values for tests/nn: module forwards with given weights, gradient
clipping, init gains. Run: /usr/bin/python3 tools/golden/gen_nn_module.py"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("nn_module")

# Linear with and without bias, 2-D and 3-D inputs.
lin = nn.Linear(3, 4)
x2 = torch.randn(5, 3)
x3 = torch.randn(2, 5, 3)
g.add("linear.weight", lin.weight)
g.add("linear.bias", lin.bias)
g.add("linear.x2", x2)
g.add("linear.x3", x3)
g.add("linear.y2", lin(x2))
g.add("linear.y3", lin(x3))
g.add("linear.nobias.y2", F.linear(x2, lin.weight))
x2r = x2.clone().requires_grad_(True)
out = lin(x2r)
(out * out).sum().backward()
g.add("linear.grad_weight", lin.weight.grad)
g.add("linear.grad_bias", lin.bias.grad)
g.add("linear.grad_x", x2r.grad)

# Sequential(Linear(3, 4), ReLU(), Linear(4, 2), Tanh())
seq = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2), nn.Tanh())
g.add("seq.0.weight", seq[0].weight)
g.add("seq.0.bias", seq[0].bias)
g.add("seq.2.weight", seq[2].weight)
g.add("seq.2.bias", seq[2].bias)
g.add("seq.y", seq(x2))

# Activation modules on one input (float32), with non-default options too.
xa = torch.randn(4, 6) * 3
g.add("act.x", xa)
acts = {
    "relu": nn.ReLU(), "sigmoid": nn.Sigmoid(), "tanh": nn.Tanh(), "silu": nn.SiLU(), "mish": nn.Mish(),
    "gelu": nn.GELU(), "gelu_tanh": nn.GELU(approximate="tanh"), "elu": nn.ELU(), "elu_0.5": nn.ELU(alpha=0.5),
    "selu": nn.SELU(), "hardswish": nn.Hardswish(), "hardsigmoid": nn.Hardsigmoid(),
    "leaky_relu": nn.LeakyReLU(), "leaky_relu_0.2": nn.LeakyReLU(0.2), "softplus": nn.Softplus(),
    "softplus_0.5_3": nn.Softplus(beta=0.5, threshold=3),
}
for name, m in acts.items():
    g.add("act." + name, m(xa))

# clip_grad_norm_ / clip_grad_value_ over two parameters with given gradients.
ga = torch.randn(3, 4)
gb = torch.randn(5)
g.add("clip.ga", ga)
g.add("clip.gb", gb)
for norm_type, tag in [(2.0, "2"), (1.0, "1"), (float("inf"), "inf"), (3.0, "3")]:
    pa = torch.zeros(3, 4, requires_grad=True)
    pb = torch.zeros(5, requires_grad=True)
    pa.grad = ga.clone()
    pb.grad = gb.clone()
    total = nn.utils.clip_grad_norm_([pa, pb], max_norm=1.0, norm_type=norm_type)
    g.add("clip.norm" + tag + ".total", total)
    g.add("clip.norm" + tag + ".ga", pa.grad)
    g.add("clip.norm" + tag + ".gb", pb.grad)
pa = torch.zeros(3, 4, requires_grad=True)
pa.grad = ga.clone()
nn.utils.clip_grad_value_([pa], clip_value=0.5)
g.add("clip.value.ga", pa.grad)

# init.calculate_gain
gains = [nn.init.calculate_gain("linear"), nn.init.calculate_gain("conv2d"), nn.init.calculate_gain("sigmoid"),
         nn.init.calculate_gain("tanh"), nn.init.calculate_gain("relu"), nn.init.calculate_gain("leaky_relu"),
         nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("leaky_relu", math.sqrt(5))]
g.add("init.gains", torch.tensor(gains, dtype=torch.float64))

g.save()
