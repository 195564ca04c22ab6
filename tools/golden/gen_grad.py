"""Golden gradients for the error-prone autograd formulas (tests/autograd/grad_golden_test.cpp).

Run: /usr/bin/python3 tools/golden/gen_grad.py

Each case "<name>" stores its input "<name>:x" (float64), the gradient fed
to backward "<name>:g" and PyTorch's gradient of the input "<name>:dx". The
C++ test applies the op named by the case (a table there) and compares.
"""
import torch

from golden import GoldenWriter

w = GoldenWriter("grad")
d = torch.float64


def case(name, x, fn, g=None):
    x = torch.tensor(x, dtype=d) if not torch.is_tensor(x) else x.to(d)
    xr = x.clone().requires_grad_(True)
    y = fn(xr)
    if g is None:
        g = torch.arange(1, y.numel() + 1, dtype=d).reshape(y.shape)
    (dx,) = torch.autograd.grad(y, xr, g, allow_unused=True)
    if dx is None:  # PyTorch leaves it undefined (norm p=0): the C++ side expects zeros or undefined
        dx = torch.zeros_like(x)
    w.add(name + ":x", x)
    w.add(name + ":g", g)
    w.add(name + ":dx", dx)


# prod: no zero, one zero, several zeros; along a dim with zeros in some rows.
case("prod_nozero", [[1.5, -2.0, 3.0], [2.0, 0.5, -1.0]], lambda x: x.prod())
case("prod_one_zero", [[1.5, 0.0, 3.0], [2.0, 0.5, -1.0]], lambda x: x.prod())
case("prod_two_zeros", [[1.5, 0.0, 3.0], [2.0, 0.0, -1.0]], lambda x: x.prod())
case("prod_dim1", [[1.5, 0.0, 3.0], [0.0, 0.0, -1.0], [2.0, 0.5, -1.0]], lambda x: x.prod(1))
case("prod_dim0_keepdim", [[1.5, 0.0, 3.0], [0.0, 0.0, -1.0], [2.0, 0.5, -1.0]], lambda x: x.prod(0, True))
# cumprod with zeros.
case("cumprod_zeros", [2.0, 0.0, 3.0, 0.0, 4.0], lambda x: x.cumprod(0))
case("cumprod_one_zero", [[2.0, -1.5, 0.0, 3.0], [1.0, 2.0, 3.0, 4.0]], lambda x: x.cumprod(1))
# norm at zero and with ties.
for p, tag in [(2, "2"), (1, "1"), (float("inf"), "inf"), (float("-inf"), "ninf"), (3, "3"), (1.5, "1.5"),
               (0.5, "0.5"), (0, "0")]:
    case("norm_p%s_zero" % tag, [0.0, 0.0, 0.0], lambda x, p=p: x.norm(p))
    case("norm_p%s_mixed" % tag, [[0.0, 1.0, -2.0], [2.0, -2.0, 0.5]], lambda x, p=p: x.norm(p, dim=1))
# extremes with ties: max(dim) gives the gradient to the returned index, amax and max() share it.
ties = [[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 1.0]]
case("max_dim_ties", ties, lambda x: x.max(1)[0])
case("min_dim_ties", ties, lambda x: x.min(1)[0])
case("amax_ties", ties, lambda x: x.amax(1))
case("max_all_ties", ties, lambda x: x.max())
case("median_all_ties", [1.0, 2.0, 2.0, 3.0, 2.0], lambda x: x.median())
case("median_dim_ties", ties, lambda x: x.median(1)[0])
case("sort_ties", ties, lambda x: x.sort(1)[0])
# topk breaks ties in an unspecified order (PyTorch: its selection algorithm), so no ties here.
case("topk", [[1.0, 3.0, 2.5, 0.0], [2.0, 5.0, 4.0, 1.0]], lambda x: x.topk(2, 1)[0])
case("kthvalue_ties", ties, lambda x: x.kthvalue(2, 1)[0])
case("mode_ties", ties, lambda x: x.mode(1)[0])
case("cummax_ties", [1.0, 3.0, 3.0, 2.0, 5.0, 5.0], lambda x: x.cummax(0)[0])
case("cummin_ties", [4.0, 3.0, 3.0, 5.0, 1.0, 1.0], lambda x: x.cummin(0)[0])
# logcumsumexp with large magnitudes and mixed-sign gradients.
case("logcumsumexp_large", [800.0, -700.0, 1000.0, 3.0], lambda x: x.logcumsumexp(0),
     torch.tensor([1.0, -2.0, 0.5, -1.0], dtype=d))
# clamp with tensor bounds where min > max.
case("clamp_tensor_self", [0.0, 1.0, 2.0, 3.0],
     lambda x: torch.clamp(x, torch.tensor([2.5, 0.5, 0.5, 2.9], dtype=d), torch.tensor([1.0, 2.0, 1.5, 3.5], dtype=d)))
# indexing with duplicates and negative indices.
case("index_dup", [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], lambda x: x[torch.tensor([1, 0, 1, -1])])
case("take_neg", [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], lambda x: x.take(torch.tensor([[0, -1], [5, 0]])))
case("index_fill_neg", [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], lambda x: x.index_fill(1, torch.tensor([-1]), 7.0))
case("masked_select_bcast", [1.0, 2.0, 3.0],
     lambda x: x.masked_select(torch.tensor([[True, False, True], [True, True, False]])))
case("unfold_overlap", [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], lambda x: x.unfold(0, 3, 2))
case("as_strided_overlap", [1.0, 2.0, 3.0, 4.0, 5.0], lambda x: x.as_strided((3, 3), (1, 1)))
case("repeat_lead", [[1.0, 2.0]], lambda x: x.repeat(2, 3, 2))
w.save()
