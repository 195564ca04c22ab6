"""Golden values for ember's shape ops (tests/ops/shape_ops_test.cpp).

Inputs are generated here and stored with the outputs.
Run: /usr/bin/python3 tools/golden/gen_shape_ops.py
"""
import warnings

import torch

from golden import GoldenWriter

warnings.filterwarnings("ignore")
torch.manual_seed(1)
g = GoldenWriter("shape_ops")

a = torch.randn(2, 3)
b = torch.randn(2, 4)
c = torch.randn(3, 3)
ai = torch.randint(-9, 9, (2, 3))
ac = torch.randn(2, 3, dtype=torch.complex64)
ab = torch.rand(2, 3) > 0.5
x = torch.randn(2, 3, 4)
v3 = torch.randn(3)
for n, t in dict(a=a, b=b, c=c, ai=ai, ac=ac, ab=ab, x=x, v3=v3).items():
    g.add(n, t)

# ---- cat / stack family ------------------------------------------------------------
g.add("cat1", torch.cat([a, b], 1))
g.add("cat_neg", torch.cat([a, b], -1))
g.add("cat0", torch.cat([a, c], 0))
g.add("cat_promote", torch.cat([ai, a], 0))                  # int64 + float32 -> float32
g.add("cat_promote_bool_int", torch.cat([ab, ai], 1))        # bool + int64 -> int64
g.add("cat_complex", torch.cat([ac, a], 0))                  # -> complex64
g.add("cat_skip_empty", torch.cat([torch.empty(0, dtype=torch.float64), a, torch.empty(0)], 0))  # promotes to float64
g.add("cat_noncontig", torch.cat([a.t(), c], 1))
g.add("cat_empty_part", torch.cat([torch.zeros(0, 3), a], 0))
g.add("cat_single", torch.cat([x], 2))
g.add("stack0", torch.stack([a, ai.float(), a]))
g.add("stack_last", torch.stack([a, a.t().t()], -1))
g.add("stack1", torch.stack([a, a], 1))
g.add("hstack", torch.hstack([a, b]))
g.add("hstack_1d", torch.hstack([v3, v3]))
r13 = torch.randn(1, 3)
g.add("r13", r13)
g.add("vstack", torch.vstack([a, r13, v3]))
g.add("vstack_1d", torch.vstack([v3, v3]))
g.add("dstack", torch.dstack([a, a]))
g.add("dstack_1d", torch.dstack([v3, v3]))
g.add("column_stack", torch.column_stack([v3, c]))
g.add("block_diag", torch.block_diag(a, torch.tensor(5.0), v3))
g.add("cartesian_prod", torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5])))

# ---- flip / roll ----------------------------------------------------------------------
g.add("flip0", x.flip(0))
g.add("flip_multi", x.flip(0, 2))
g.add("flip_neg", x.flip(-1))
g.add("flip_noncontig", x.transpose(0, 2).flip(1))
g.add("flip_int", ai.flip(1))
g.add("flip_bool", ab.flip(0, 1))
g.add("flip_complex", ac.flip(1))
g.add("fliplr", a.fliplr())
g.add("flipud", a.flipud())
g.add("roll_flat", x.roll(5))
g.add("roll_dim", x.roll(1, 1))
g.add("roll_neg", x.roll(-3, -1))
g.add("roll_multi", x.roll((1, 7), (0, 2)))
g.add("roll_noncontig", x.transpose(0, 1).roll(2, 0))

# ---- repeat / tile / repeat_interleave ----------------------------------------------------
g.add("repeat", a.repeat(2, 3))
g.add("repeat_more_dims", a.repeat(2, 1, 2))
g.add("repeat_noncontig", a.t().repeat(1, 2))
g.add("repeat_zero", a.repeat(0, 2))
g.add("repeat_int", ai.repeat(2, 1))
g.add("tile", a.tile((2,)))
g.add("tile_more", v3.tile((2, 2)))
g.add("ri_int", a.repeat_interleave(2))
g.add("ri_int_dim", a.repeat_interleave(3, 1))
g.add("ri_tensor_dim", a.repeat_interleave(torch.tensor([1, 0, 2]), dim=1))
g.add("ri_tensor_flat", ai.repeat_interleave(torch.tensor([2])))
g.add("ri_repeats_only", torch.repeat_interleave(torch.tensor([2, 0, 3])))
g.add("ri_neg_dim", x.repeat_interleave(2, -2))

# ---- tril / triu --------------------------------------------------------------------------
m = torch.randn(4, 5)
g.add("m", m)
g.add("tril", m.tril())
g.add("tril_k1", m.tril(1))
g.add("tril_km2", m.tril(-2))
g.add("triu", m.triu())
g.add("triu_k2", m.triu(2))
g.add("triu_km1", m.triu(-1))
g.add("tril_batched", x.tril())
g.add("triu_noncontig", m.t().triu())
g.add("tril_int", ai.tril())
g.add("triu_bool", ab.triu(1))

# ---- meshgrid -----------------------------------------------------------------------------
p, q = torch.tensor([1, 2, 3]), torch.tensor([4, 5])
for k, t in enumerate(torch.meshgrid(p, q, indexing="ij")):
    g.add("mesh_ij_%d" % k, t)
for k, t in enumerate(torch.meshgrid(p, q, torch.tensor([6, 7, 8, 9]), indexing="xy")):
    g.add("mesh_xy_%d" % k, t)

# ---- one_hot / bincount / histc -------------------------------------------------------------
labels = torch.tensor([[0, 3], [2, 2]])
g.add("labels", labels)
g.add("one_hot", torch.nn.functional.one_hot(labels))
g.add("one_hot_n", torch.nn.functional.one_hot(labels, 6))
g.add("one_hot_scalar", torch.nn.functional.one_hot(torch.tensor(2), 3))
bins_in = torch.randint(0, 6, (20,))
w = torch.rand(20)
g.add("bins_in", bins_in); g.add("w", w)
g.add("bincount", torch.bincount(bins_in))
g.add("bincount_min", torch.bincount(bins_in, minlength=10))
g.add("bincount_w", torch.bincount(bins_in, weights=w))
g.add("bincount_w_double", torch.bincount(bins_in, weights=w.double()))
g.add("bincount_w_int", torch.bincount(bins_in, weights=bins_in.int()))
g.add("bincount_empty", torch.bincount(torch.zeros(0, dtype=torch.long), minlength=3))
h = torch.randn(50)
g.add("h", h)
g.add("histc", torch.histc(h, bins=7, min=-2, max=2))
g.add("histc_auto", torch.histc(h, bins=5))
g.add("histc_double", torch.histc(h.double(), bins=4, min=-1, max=3))

# ---- extra promotion / edge cases ----------------------------------------------------------
i8 = torch.tensor([[1, -2]], dtype=torch.int8)
u8 = torch.tensor([[200, 3]], dtype=torch.uint8)
g.add("i8", i8); g.add("u8", u8)
g.add("cat_int8_uint8", torch.cat([i8, u8]))                 # -> int16
g.add("cat_expanded", torch.cat([v3.expand(2, 3), a], 0))
g.add("stack_empty", torch.stack([torch.zeros(0, 2), torch.zeros(0, 2)], 1))
g.add("histc_edges", torch.histc(torch.tensor([0.0, 1.0, 2.0, 2.5, -0.5]), bins=2, min=0, max=2))
g.add("histc_const", torch.histc(torch.tensor([3.0, 3.0]), bins=4))   # min == max == data -> [2, 4]
g.add("roll_empty_dim", torch.zeros(2, 0).roll(1, 1))
g.add("repeat_interleave_empty", torch.zeros(0, 2).repeat_interleave(3, 0))

# ---- views (tests/core/view_test.cpp) ---------------------------------------------------------
vx = torch.randn(2, 3, 4)
g.add("vx", vx)
g.add("view_view", vx.view(4, -1))
g.add("view_reshape_t", vx.transpose(0, 2).reshape(-1, 2))   # needs a copy
g.add("view_flatten", vx.flatten(1))
g.add("view_unflatten", vx.unflatten(2, (2, -1)))
g.add("view_permute", vx.permute(2, 0, 1))
g.add("view_movedim", vx.movedim((0, 1), (2, 0)))
g.add("view_transpose", vx.transpose(0, -1))
g.add("view_t", vx[0].t())
g.add("view_expand", vx[:, :1].expand(-1, 3, -1))
g.add("view_expand_new", vx[0, 0].expand(2, 3, 4))
g.add("view_squeeze", vx[:, :1].squeeze())
g.add("view_unsqueeze", vx.unsqueeze(-1))
g.add("view_narrow", vx.narrow(2, -3, 2))
g.add("view_select", vx.select(1, -1))
g.add("view_slice", vx[:, 1::2, ::3])
g.add("view_unfold", vx.unfold(2, 2, 1))
g.add("view_unfold_step", vx.transpose(1, 2).unfold(1, 2, 2))
g.add("view_as_strided", vx.as_strided((3, 3), (2, 5), 1))
g.add("view_diagonal", vx.diagonal())
g.add("view_diagonal_off", vx.diagonal(1, 1, 2))
g.add("view_diagonal_neg", vx.diagonal(-1, -1, 0))
for k, t in enumerate(vx.split(3, 2)):
    g.add("view_split_%d" % k, t)
for k, t in enumerate(vx.split([1, 2], 1)):
    g.add("view_split_sizes_%d" % k, t)
for k, t in enumerate(vx.chunk(3, -1)):
    g.add("view_chunk_%d" % k, t)
for k, t in enumerate(vx.unbind(1)):
    g.add("view_unbind_%d" % k, t)
g.add("view_contiguous", vx.permute(1, 2, 0).contiguous())
g.save()
