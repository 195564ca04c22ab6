"""Golden values for ember's indexing family (tests/ops/indexing_test.cpp).

Every input is generated here and stored next to the expected output, so the
C++ test replays exactly the same call. Run: /usr/bin/python3 tools/golden/gen_indexing.py
"""
import warnings

import torch

from golden import GoldenWriter

warnings.filterwarnings("ignore")
torch.manual_seed(0)
g = GoldenWriter("indexing")
L = torch.long

# ---- inputs -------------------------------------------------------------------
x = torch.randn(4, 5, 6)
x2 = torch.randn(3, 4)
xi = torch.randint(-50, 50, (3, 4))
xb = torch.rand(3, 4) > 0.5
xc = torch.randn(3, 4, dtype=torch.complex64)
idx = torch.tensor([[0, 2], [3, -1]])   # includes a negative index
ia = torch.tensor([[0], [2]])           # broadcasts with ib to [2, 3]
ib = torch.tensor([4, 0, 1])
i1 = torch.tensor([1, 0, 3])
mask45 = torch.rand(4, 5) > 0.4
mask4 = torch.tensor([True, False, True, True])
for n, t in dict(x=x, x2=x2, xi=xi, xb=xb, xc=xc, idx=idx, ia=ia, ib=ib, i1=i1, mask45=mask45, mask4=mask4).items():
    g.add(n, t)

# ---- Tensor::index: basic (views) ----------------------------------------------
g.add("basic_int", x[1])
g.add("basic_neg", x[-1, -2])
g.add("basic_slice", x[1:3])
g.add("basic_step", x[:, ::2])
g.add("basic_slice_neg", x[:, -3:-1, 1:])
g.add("basic_ellipsis", x[..., 1])
g.add("basic_none", x[None, 1, ..., None])
g.add("basic_true", x[True])
g.add("basic_false", x[False])

# ---- Tensor::index: advanced (copies) -------------------------------------------
g.add("adv_first", x[idx])
g.add("adv_middle", x[:, i1])                  # adjacent: stays in place
g.add("adv_slice_mix", x[i1, 1:4])
g.add("adv_two_broadcast", x[ia, ib])
g.add("adv_separated", x[i1, :, i1])           # separated: broadcast dims go first
g.add("adv_int_and_tensor", x[1, :, i1])       # int selects first (PyTorch, not NumPy)
g.add("adv_ellipsis", x[..., i1])
g.add("adv_ellipsis_none", x[None, ..., i1])
g.add("adv_mask2d", x[mask45])
g.add("adv_mask1d_slice", x[mask4, 1:3])
g.add("adv_mask_uint8", x[mask4.to(torch.uint8)])
g.add("adv_noncontig", x.transpose(0, 2)[i1, 1:])
g.add("adv_empty_index", x[torch.zeros(0, dtype=L)])
g.add("adv_empty_self", torch.zeros(0, 3)[:, torch.tensor([2, 0])])
g.add("adv_int64", xi[ia, torch.tensor([3, 0])])
g.add("adv_bool", xb[torch.tensor([2, 0])])
g.add("adv_complex", xc[:, torch.tensor([3, 1])])
g.add("adv_operator_brackets", x2[torch.tensor([2, 2, 0])])

# ---- index_put_ ----------------------------------------------------------------
v23 = torch.randn(2, 3, 6)
g.add("v23", v23)
y = x.clone(); y[ia, ib] = v23; g.add("put_broadcast_idx", y)
y = x.clone(); y[mask45] = 2.5; g.add("put_mask_scalar", y)
y = x.clone(); y[:, 0] = 5; g.add("put_slice_int_scalar", y)
y = x.clone(); y[1, 2:4] = v23[0, :2]; g.add("put_basic_tensor", y)
y = x.clone(); y[..., i1] = torch.ones(3); g.add("put_ellipsis_bcast", y)
dup = torch.tensor([0, 1, 0, 0])
vals = torch.randn(4, 5, 6); g.add("vals4", vals)
y = x.clone(); y.index_put_((dup,), vals, accumulate=True); g.add("put_accumulate", y)
y = xi.clone(); y.index_put_((torch.tensor([0, 0, 2]), torch.tensor([1, 1, 3])), torch.tensor([5, 6, 7]), accumulate=True)
g.add("put_accumulate_int", y)
y = x2.t().clone().t(); y[:, torch.tensor([1, 3])] = -1.0; g.add("put_noncontig", y)  # on a transposed copy

# ---- masks, where, nonzero --------------------------------------------------------
m34 = torch.rand(3, 4) > 0.5
m4 = torch.tensor([True, False, False, True])
g.add("m34", m34); g.add("m4", m4)
g.add("masked_select", x2.masked_select(m34))
g.add("masked_select_bcast", x2.masked_select(m4))
g.add("masked_select_int", xi.masked_select(m34))
g.add("masked_fill", x2.masked_fill(m34, -7.5))
g.add("masked_fill_bcast", x2.masked_fill(m4, 3.0))
g.add("masked_fill_grow", torch.arange(4.).masked_fill(m34, 1.0))   # mask broadcasts self
g.add("masked_fill_tensor", xi.masked_fill(m34, torch.tensor(9)))
g.add("masked_fill_complex", xc.masked_fill(m4, 2.0))
g.add("masked_fill_noncontig", x2.t().masked_fill(m34.t(), 0.0))
a_int = torch.randint(0, 10, (3, 1)); g.add("a_int", a_int)
g.add("neg_x2", -x2)
g.add("where", torch.where(m34, x2, -x2))
g.add("where_promote", torch.where(m34, a_int, x2))                    # int64 & float32 -> float32
g.add("where_scalar_other", torch.where(m34, a_int, 2.5))             # int64 & 2.5 -> float32
g.add("where_scalar_self", torch.where(m4, 1, xi))                    # int64
g.add("where_scalars", torch.where(m4, 1.0, 0.0))
g.add("where_int32_double", torch.where(m4, xi.to(torch.int32), torch.tensor(2.0, dtype=torch.float64)))
g.add("where_complex", torch.where(m34, xc, x2))
g.add("nz_in", x2 > 0)
g.add("nonzero", torch.nonzero(x2 > 0))
g.add("nz_float", torch.tensor([0.0, 1.5, 0.0, -2.0]))
g.add("nonzero_float", torch.nonzero(torch.tensor([0.0, 1.5, 0.0, -2.0])))
g.add("nonzero_empty", torch.nonzero(torch.zeros(2, 3)))
g.add("nz_3d", x > 1)
g.add("nonzero_3d", torch.nonzero(x > 1))
g.add("nonzero_3d_t", torch.nonzero((x > 1).transpose(0, 2)))
for k, t in enumerate(torch.where(m34)):
    g.add("where_cond_%d" % k, t)
g.add("argwhere_in", xi > 0)
g.add("argwhere", torch.argwhere(xi > 0))

# ---- gather / scatter ------------------------------------------------------------
gi = torch.randint(0, 3, (2, 4)); g.add("gi", gi)     # indexes dim 0 of a [3, 4]
gj = torch.randint(0, 4, (3, 2)); g.add("gj", gj)     # indexes dim 1 of a [3, 4]
g.add("gather0", x2.gather(0, gi))
g.add("gather1", x2.gather(1, gj))
g.add("gather_neg", x2.gather(-1, gj))
g.add("gather_noncontig", x2.t().gather(0, gj.t()))
g.add("gather_int", xi.gather(1, gj))
g.add("gather_complex", xc.gather(0, gi))
g.add("gather_bool", xb.gather(1, gj))
g.add("gather_big_index", x2.gather(0, torch.tensor([[0, 1], [2, 2], [1, 0], [0, 0]])))
src = torch.randn(3, 4); g.add("src", src)
si = torch.tensor([[0, 1, 2, 0], [2, 0, 0, 1]]); g.add("si", si)   # duplicates along dim 0
g.add("scatter", torch.zeros(3, 4).scatter(0, torch.tensor([[0, 1, 2, 0]]), src))
g.add("scatter_value", x2.scatter(1, gj, 9.0))
g.add("scatter_add", x2.scatter_add(0, si, src))
g.add("scatter_add_int", xi.scatter_add(0, si, xi))
g.add("scatter_reduce_add", x2.scatter(0, si, src, reduce="add"))
g.add("scatter_reduce_mul", x2.scatter(0, si, src, reduce="multiply"))
g.add("xi3", xi * 3)
for red in ["sum", "prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        g.add("scatter_reduce_%s_%d" % (red, inc), x2.scatter_reduce(0, si, src, red, include_self=inc))
        g.add("scatter_reduce_int_%s_%d" % (red, inc), xi.scatter_reduce(0, si, xi * 3, red, include_self=inc))

# ---- index_select / add / copy / fill / take ---------------------------------------------
g.add("index_select0", x2.index_select(0, torch.tensor([2, 0, 2])))
g.add("index_select1", x.index_select(1, torch.tensor([4, 1])))
g.add("index_select_neg_dim", x.index_select(-1, torch.tensor([5])))
g.add("index_select_int32", x2.index_select(1, torch.tensor([3, 0], dtype=torch.int32)))
g.add("index_select_noncontig", x2.t().index_select(0, torch.tensor([1, 3])))
g.add("index_select_empty", x2.index_select(0, torch.zeros(0, dtype=L)))
g.add("index_select_complex", xc.index_select(1, torch.tensor([0, 0])))
s24 = torch.randn(2, 4); g.add("s24", s24)
g.add("index_add", x2.index_add(0, torch.tensor([2, 2]), s24))
g.add("index_add_alpha", x2.index_add(0, torch.tensor([0, 2]), s24, alpha=2.0))
g.add("index_add_int", xi.index_add(1, torch.tensor([0, 0]), xi[:, :2], alpha=-1))
g.add("index_copy", x2.index_copy(0, torch.tensor([2, 0]), s24))
g.add("index_copy_dim1", x2.index_copy(1, torch.tensor([3, 1]), s24.t()[:3] if False else torch.ones(3, 2)))
g.add("index_fill", x2.index_fill(1, torch.tensor([0, 2]), -3.0))
g.add("index_fill_neg", x2.index_fill(0, torch.tensor([-1]), 8.0))
g.add("index_fill_bool", xb.index_fill(0, torch.tensor([1]), True))
g.add("take", x2.take(torch.tensor([[0, 11], [-1, 5]])))
g.add("take_noncontig", x2.t().take(torch.tensor([1, 2, 3])))
g.add("take_int", xi.take(torch.tensor([7])))

# ---- extra layouts and special values ----------------------------------------------------
nan = float("nan")
g.add("nan_self", torch.tensor([1.0, nan, 3.0]))
g.add("nan_src", torch.tensor([nan, 2.0, 1.0]))
g.add("scatter_amax_nan", torch.tensor([1.0, nan, 3.0]).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([nan, 2.0, 1.0]), "amax"))
g.add("scatter_amin_nan_excl", torch.tensor([1.0, nan, 3.0]).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([nan, 2.0, 1.0]), "amin", include_self=False))
g.add("adv_index_noncontig_idx", x[idx.t()])
si_nc = torch.tensor([[0, 1, 2], [3, 0, 1]]).t().contiguous().t()   # non-contiguous index
g.add("si_nc", si_nc)
g.add("scatter_noncontig", torch.zeros(4, 3).scatter_(0, si_nc, src.t()[:2, :3]))
g.add("gather_noncontig_index", x2.gather(1, si_nc))
g.add("masked_fill_nan", x2.masked_fill(m34, nan))
g.save()
