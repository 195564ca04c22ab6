"""Golden values for tests/nn/vision_ops_test.cpp: grid_sample (bilinear and
nearest, zeros/border/reflection padding, align_corners, 4-D and 5-D),
affine_grid, pdist, channel_shuffle, max_unpool1d/2d/3d and lp_pool1d/2d:
outputs and, for the differentiable ones, the gradients of sum(y * gy).
Run: /usr/bin/python3 tools/golden/gen_vision_ops.py"""
import torch
import torch.nn.functional as F

from golden import GoldenWriter

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
g = GoldenWriter("vision_ops")
with_grads = g.with_grads

# ---- grid_sample: grid points spill past [-1, 1] so every padding mode matters
inp = torch.randn(2, 3, 4, 5)
grid = torch.rand(2, 3, 6, 2) * 2.6 - 1.3
for mode in ("bilinear", "nearest"):
    for padding in ("zeros", "border", "reflection"):
        for align in (False, True):
            name = "grid_sample_%s_%s_%d" % (mode, padding, int(align))
            if mode == "nearest":
                g.add(name + ".x0", inp)
                g.add(name + ".x1", grid)
                g.add(name + ".y", F.grid_sample(inp, grid, mode=mode, padding_mode=padding, align_corners=align))
            else:
                with_grads(name, lambda a, b, m=mode, p=padding, al=align:
                           F.grid_sample(a, b, mode=m, padding_mode=p, align_corners=al), inp, grid)
inp3 = torch.randn(1, 2, 3, 4, 5)
grid3 = torch.rand(1, 2, 3, 2, 3) * 2.4 - 1.2
with_grads("grid_sample3d_bilinear_zeros_0", lambda a, b: F.grid_sample(a, b, align_corners=False), inp3, grid3)
with_grads("grid_sample3d_bilinear_reflection_1",
           lambda a, b: F.grid_sample(a, b, padding_mode="reflection", align_corners=True), inp3, grid3)

# ---- affine_grid
theta = torch.randn(2, 2, 3)
with_grads("affine_grid_0", lambda t: F.affine_grid(t, [2, 3, 4, 5], align_corners=False), theta)
with_grads("affine_grid_1", lambda t: F.affine_grid(t, [2, 3, 1, 5], align_corners=True), theta)
theta3 = torch.randn(1, 3, 4)
with_grads("affine_grid3d_0", lambda t: F.affine_grid(t, [1, 2, 3, 4, 2], align_corners=False), theta3)
# the spatial transformer pattern: sample the input at an affine grid
with_grads("affine_then_sample", lambda a, t: F.grid_sample(a, F.affine_grid(t, [2, 3, 3, 4], align_corners=False),
                                                            align_corners=False), inp, theta)

# ---- pdist, channel_shuffle
pts = torch.randn(5, 3)
with_grads("pdist_2", lambda x: F.pdist(x), pts)
with_grads("pdist_1", lambda x: F.pdist(x, 1.0), pts)
with_grads("pdist_inf", lambda x: F.pdist(x, float("inf")), pts)
with_grads("pdist_3", lambda x: F.pdist(x, 3.0), pts)
# torch 1.13 has no derivative for channel_shuffle (Ember's, a reshape and a
# transpose, has one): values only.
cs = torch.randn(2, 6, 2, 3)
g.add("channel_shuffle.x0", cs)
g.add("channel_shuffle.y", torch.channel_shuffle(cs, 3))

# ---- max_unpool: the indices of a real max pool
x2 = torch.randn(2, 3, 6, 8)
y2, i2 = F.max_pool2d(x2, 2, return_indices=True)
g.add("max_unpool2d.indices", i2)
with_grads("max_unpool2d", lambda v: F.max_unpool2d(v, i2, 2), y2)
with_grads("max_unpool2d_size", lambda v: F.max_unpool2d(v, i2, 2, output_size=[2, 3, 7, 9]), y2)
x1 = torch.randn(2, 3, 9)
y1, i1 = F.max_pool1d(x1, 3, stride=2, return_indices=True)
g.add("max_unpool1d.indices", i1)
with_grads("max_unpool1d", lambda v: F.max_unpool1d(v, i1, 3, stride=2), y1)
x3 = torch.randn(1, 2, 4, 4, 6)
y3, i3 = F.max_pool3d(x3, 2, return_indices=True)
g.add("max_unpool3d.indices", i3)
with_grads("max_unpool3d", lambda v: F.max_unpool3d(v, i3, 2), y3)

# ---- lp_pool
xl = torch.randn(2, 3, 7, 6)
with_grads("lp_pool2d_2", lambda x: F.lp_pool2d(x, 2, 3, stride=2), xl)
with_grads("lp_pool2d_3_ceil", lambda x: F.lp_pool2d(x.abs() + 0.1, 3, (2, 3), ceil_mode=True), xl)
with_grads("lp_pool1d_2", lambda x: F.lp_pool1d(x, 2, 3), torch.randn(2, 3, 8))

g.save()
