"""Golden values for tests/ops/composite_ops_test.cpp: the composite ops PyTorch
users expect (xlogy, sinc, logaddexp, deg2rad, heaviside, entr, mvlgamma, trace,
kron, inner, dist, cdist, renorm, cov, corrcoef, quantile/nanquantile, diff,
trapezoid, take_along_dim, rot90, tril/triu_indices, searchsorted, bucketize):
outputs and, for the differentiable ones, the gradients of sum(y * gy).
Run: /usr/bin/python3 tools/golden/gen_composite_ops.py"""
import torch

from golden import GoldenWriter

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
g = GoldenWriter("composite_ops")
nan, inf = float("nan"), float("inf")


with_grads = g.with_grads


def value(name, y):
    g.add(name, y)


# ---- pointwise --------------------------------------------------------------
x = torch.randn(3, 4)
pos = torch.rand(3, 4) + 0.2
with_grads("xlogy", torch.xlogy, x, pos)
with_grads("xlog1py", torch.special.xlog1py, x, pos)
with_grads("sinc", torch.sinc, x)
with_grads("logaddexp", torch.logaddexp, x, torch.randn(4))
with_grads("logaddexp2", torch.logaddexp2, x, torch.randn(3, 1))
with_grads("entr", torch.special.entr, pos)
with_grads("mvlgamma", lambda t: torch.mvlgamma(t, 3), pos + 1.5)
value("xlogy_edges.x", torch.tensor([0.0, 0.0, 1.0, 2.0, 0.0]))
value("xlogy_edges.y", torch.tensor([0.0, nan, 2.0, 0.0, inf]))
value("xlogy_edges.out", torch.xlogy(torch.tensor([0.0, 0.0, 1.0, 2.0, 0.0]), torch.tensor([0.0, nan, 2.0, 0.0, inf])))
value("xlogy_int.out", torch.xlogy(torch.tensor([0, 1, 3]), torch.tensor([3, 2, 5])))
value("sinc_int.out", torch.sinc(torch.tensor([0, 1, 2])))
la = torch.tensor([-inf, inf, 1.0, -inf, 1000.0])
lb = torch.tensor([-inf, inf, nan, 2.0, 1000.0])
value("logaddexp_edges.a", la)
value("logaddexp_edges.b", lb)
value("logaddexp_edges.out", torch.logaddexp(la, lb))
value("logaddexp2_edges.out", torch.logaddexp2(la, lb))
value("deg2rad.out", torch.deg2rad(torch.tensor([180, -90, 45])))
value("rad2deg.out", torch.rad2deg(torch.tensor([1.0, -0.5], dtype=torch.float32)))
hx = torch.tensor([0.0, -1.5, 2.0, nan, 0.0])
value("heaviside.x", hx)
value("heaviside.out", torch.heaviside(hx, torch.tensor([0.5])))
value("entr_edges.out", torch.special.entr(torch.tensor([0.0, -1.0, 0.5, nan])))
value("ndtr.out", torch.special.ndtr(torch.tensor([-3.0, 0.0, 1.5])))

# ---- products and distances --------------------------------------------------
with_grads("trace", torch.trace, torch.randn(3, 4))
value("trace_int.out", torch.trace(torch.arange(9, dtype=torch.int32).view(3, 3)))
with_grads("kron", torch.kron, torch.randn(2, 3), torch.randn(2, 1, 2))
value("kron_int.out", torch.kron(torch.tensor([[1, 2], [3, 4]]), torch.tensor([1, -1])))
with_grads("inner", torch.inner, torch.randn(2, 3), torch.randn(4, 3))
with_grads("inner_scalar", torch.inner, torch.randn(()), torch.randn(2, 3))
with_grads("dist", lambda a, b: torch.dist(a, b, 3), torch.randn(2, 3), torch.randn(3))
with_grads("dist_inf", lambda a, b: torch.dist(a, b, inf), torch.randn(2, 3), torch.randn(2, 3))
with_grads("cdist", torch.cdist, torch.randn(2, 4, 3), torch.randn(5, 3))
with_grads("cdist_p1", lambda a, b: torch.cdist(a, b, p=1), torch.randn(4, 3), torch.randn(5, 3))
with_grads("cdist_mm", lambda a, b: torch.cdist(a, b, compute_mode="use_mm_for_euclid_dist"),
           torch.randn(30, 3), torch.randn(6, 3))
with_grads("renorm", lambda t: torch.renorm(t, 2, 0, 1.5), torch.randn(3, 4))
with_grads("renorm_p1_dim1", lambda t: torch.renorm(t, 1, 1, 1.0), torch.randn(3, 4))

# ---- statistics ---------------------------------------------------------------
with_grads("cov", torch.cov, torch.randn(3, 5))
fw = torch.tensor([1, 2, 0, 3, 1])
aw = torch.rand(5) + 0.1
value("cov_weights.fw", fw)
value("cov_weights.aw", aw)
with_grads("cov_weights", lambda t: torch.cov(t, correction=2, fweights=fw, aweights=aw), torch.randn(3, 5))
value("cov_1d.out", torch.cov(torch.tensor([1, 2, 4])))
with_grads("corrcoef", torch.corrcoef, torch.randn(3, 6))
qv = torch.randn(4, 5)
for interp in ["linear", "lower", "higher", "midpoint", "nearest"]:
    with_grads("quantile_" + interp, lambda t: torch.quantile(t, torch.tensor([0.2, 0.5, 0.9]), dim=1,
                                                                keepdim=True, interpolation=interp), qv)
with_grads("quantile_all", lambda t: torch.quantile(t, 0.3), qv)
with_grads("quantile_all_keepdim", lambda t: torch.quantile(t, torch.tensor([0.25, 0.75]), keepdim=True), qv)
with_grads("quantile_dim0", lambda t: torch.quantile(t, 0.6, dim=0), qv)
qn = torch.tensor([[1.0, nan, 3.0, 0.5], [2.0, 4.0, -1.0, 0.0], [nan, nan, nan, nan]])
value("quantile_nan.x", qn)
value("quantile_nan.out", torch.quantile(qn, torch.tensor([0.1, 0.5]), dim=1))
value("nanquantile_nan.out", torch.nanquantile(qn, torch.tensor([0.1, 0.5]), dim=1))
value("nearest_half.out", torch.quantile(torch.tensor([1.0, 2, 3, 4, 5]), torch.tensor([0.375, 0.625]),
                                         interpolation="nearest"))
with_grads("diff", lambda t: torch.diff(t, n=2, dim=0), torch.randn(5, 3))
with_grads("diff_prepend", lambda t, p, a: torch.diff(t, prepend=p, append=a), torch.randn(2, 3),
           torch.randn(2, 1), torch.randn(2, 2))
value("diff_bool.out", torch.diff(torch.tensor([True, False, False, True])))
value("diff_int.out", torch.diff(torch.tensor([1, 3, 6, 10]), n=5))
with_grads("trapezoid_x", lambda y, x: torch.trapezoid(y, x), torch.randn(3, 5), torch.randn(5).cumsum(0))
with_grads("trapezoid_dx", lambda y: torch.trapezoid(y, dx=0.5, dim=0), torch.randn(4, 3))
with_grads("cumulative_trapezoid", lambda y: torch.cumulative_trapezoid(y, dx=2.0), torch.randn(2, 5))
value("trapezoid_int.out", torch.trapezoid(torch.tensor([1, 2, 3])))

# ---- rearrangements and indices ------------------------------------------------
src = torch.randn(3, 4)
idx = torch.tensor([[0, 3], [2, 2], [1, 0]])
value("take_along_dim.idx", idx)
with_grads("take_along_dim", lambda t: torch.take_along_dim(t, idx, 1), src)
idx_b = torch.tensor([[2], [0], [1]])
value("take_along_dim_bcast.idx", idx_b)
with_grads("take_along_dim_bcast", lambda t: torch.take_along_dim(t, idx_b, 0), torch.randn(3, 1))
idx_flat = torch.tensor([5, 0, 11])
value("take_along_dim_flat.idx", idx_flat)
with_grads("take_along_dim_flat", lambda t: torch.take_along_dim(t, idx_flat), src)
for k in [1, 2, 3, -1, 0]:
    value("rot90_k%d.out" % (k + 1), torch.rot90(torch.arange(24).view(2, 3, 4), k, [2, 0]))
value("tril_indices.out", torch.tril_indices(3, 4, -1))
value("tril_indices_big.out", torch.tril_indices(4, 3, 1))
value("triu_indices.out", torch.triu_indices(3, 4, 1))
value("triu_indices_neg.out", torch.triu_indices(4, 3, -2))
seq = torch.tensor([1.0, 3.0, 5.0, 7.0, nan])
vals = torch.tensor([[3.0, 6.0, 9.0], [nan, 0.0, 7.0]])
value("searchsorted.seq", seq)
value("searchsorted.vals", vals)
value("searchsorted_left.out", torch.searchsorted(seq, vals))
value("searchsorted_right.out", torch.searchsorted(seq, vals, right=True))
seq2 = torch.tensor([[1, 3, 5, 7], [2, 4, 6, 8]])
vals2 = torch.tensor([[3, 6, 9], [3, 6, 9]])
value("searchsorted_rows.out", torch.searchsorted(seq2, vals2, side="right"))
unsorted = torch.tensor([5.0, 1.0, 7.0, 3.0])
sorter = torch.argsort(unsorted)
value("searchsorted_sorter.out", torch.searchsorted(unsorted, torch.tensor([4.0, 7.0]), sorter=sorter))
value("bucketize.out", torch.bucketize(torch.tensor([[3, 6], [9, 1]]), torch.tensor([1, 3, 5, 7]), right=True))
value("bucketize_int32.out", torch.bucketize(torch.tensor([3]), torch.tensor([1, 3, 5, 7]), out_int32=True))

g.save()
