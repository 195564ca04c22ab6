"""Golden values for tests/nn/fold_conv_fn_test.cpp: F.unfold / F.fold (and the
Fold/Unfold modules) with kernel, dilation, padding and stride; F.conv1d/2d/3d and
F.conv_transpose1d/2d/3d through their function options; index_put_ with a list of
index tensors and accumulate; var/std/var_mean/std_mean reducing one int dim.
Run: /usr/bin/python3 tools/golden/gen_fold_conv_fn.py"""
import torch
import torch.nn.functional as F

from golden import GoldenWriter

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
g = GoldenWriter("fold_conv_fn")


with_grads = g.with_grads


# unfold: (kernel, dilation, padding, stride)
x = torch.randn(2, 3, 5, 6)
with_grads("unfold_plain", lambda x: F.unfold(x, 2), x)
with_grads("unfold_all", lambda x: F.unfold(x, (2, 3), dilation=(1, 2), padding=(1, 0), stride=(2, 1)), x)
with_grads("unfold_3d", lambda x: F.unfold(x, 3, padding=1, stride=2), torch.randn(2, 4, 5))
# fold: the adjoint, overlapping blocks summed
with_grads("fold_plain", lambda c: F.fold(c, (4, 5), 2), torch.randn(2, 3 * 4, 12))
with_grads("fold_all", lambda c: F.fold(c, (5, 6), (2, 3), dilation=(1, 2), padding=(1, 0), stride=(2, 1)),
           torch.randn(2, 3 * 6, 3 * 2))
with_grads("fold_2d", lambda c: F.fold(c, (3, 3), 2, padding=1, stride=2), torch.randn(2 * 4, 4))

# Functional convolutions with options
w2 = torch.randn(4, 2, 3, 3)
b4 = torch.randn(4)
with_grads("conv2d_opts", lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=(1, 0), dilation=1, groups=2),
           torch.randn(2, 4, 7, 6), torch.randn(4, 2, 3, 3), b4)
with_grads("conv2d_same", lambda x, w: F.conv2d(x, w, padding="same", dilation=2), torch.randn(1, 2, 6, 5), w2)
with_grads("conv1d_valid", lambda x, w: F.conv1d(x, w, padding="valid", stride=2), torch.randn(2, 3, 9),
           torch.randn(5, 3, 3))
with_grads("conv3d_opts", lambda x, w: F.conv3d(x, w, padding=1), torch.randn(1, 2, 3, 4, 4), torch.randn(3, 2, 2, 2, 2))
with_grads("conv_transpose2d_opts",
           lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1, groups=1, dilation=1),
           torch.randn(2, 3, 4, 5), torch.randn(3, 2, 3, 3), torch.randn(2))
with_grads("conv_transpose1d_opts", lambda x, w: F.conv_transpose1d(x, w, stride=3, dilation=2),
           torch.randn(2, 2, 5), torch.randn(2, 3, 2))

# index_put_ with a list of index tensors and accumulate (duplicates add up)
base = torch.randn(4, 5)
rows = torch.tensor([0, 2, 0, 3])
cols = torch.tensor([1, 4, 1, 0])
vals = torch.randn(4)
g.add("index_put.base", base)
g.add("index_put.rows", rows)
g.add("index_put.cols", cols)
g.add("index_put.vals", vals)
g.add("index_put.acc", base.clone().index_put_((rows, cols), vals, accumulate=True))
g.add("index_put.row_only", base.clone().index_put_((rows,), torch.ones(5), accumulate=True))
# A duplicate-free index list written without accumulate
g.add("index_put.set", base.index_put((torch.tensor([1, 3]), torch.tensor([0, 2])), torch.tensor([7.0, 8.0])))

# var/std with an int dim (LibTorch's C++-only overloads)
v = torch.randn(3, 4)
g.add("var.x", v)
g.add("var.dim1", v.var(1))
g.add("std.dim0", v.std(0))
vm = torch.var_mean(v, 1)
g.add("var_mean.var", vm[0])
g.add("var_mean.mean", vm[1])
sm = torch.std_mean(v, 0)
g.add("std_mean.std", sm[0])
g.add("std_mean.mean", sm[1])

g.save()
