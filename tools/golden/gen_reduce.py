"""Golden values for the reduce and sort families (tests/ops/reduce_test.cpp, sort_test.cpp).

Run: /usr/bin/python3 tools/golden/gen_reduce.py

Inputs are stored as "in:<name>"; views are rebuilt by the C++ test from the
suffix of the name (T: transpose(0, 2), S: [:, ::2, 1:], E: expand(3, 4, 5)). Every case is named
"<op>:<input>:<dims>:<keepdim>:<extra>" with dims "all" (no dim argument),
"e" (empty list) or a comma list; tuple results get "#0", "#1", "#2" suffixes.
The C++ driver parses these names, so adding a case here adds a test.
"""
import math

import torch

from golden import GoldenWriter

torch.manual_seed(0)
w = GoldenWriter("reduce")

nan = float("nan")
base = {
    "f32": torch.randn(3, 4, 5),
    "f64": torch.randn(3, 4, 5, dtype=torch.float64),
    "f16": torch.randn(3, 4, 5).half(),
    "i64": torch.randint(-5, 6, (3, 4, 5)),
    "b": torch.randint(0, 2, (3, 4, 5)).bool(),
    "tie": torch.randint(0, 3, (3, 4, 5)).float(),
    "s": torch.tensor(2.5),
    "e": torch.empty(0, 3),
    "e2": torch.empty(3, 0),
}
x = torch.randn(3, 4, 5)
x[0, 1, 2] = nan
x[1, :, 3] = nan
x[2, 3, 0] = nan
base["nan"] = x
y = torch.randn(3, 4, 5)
y[0, 0, :] = -float("inf")
y[1, 2, 1] = float("inf")
y[2, 1, 3] = -float("inf")
y[2, 1, 4] = float("inf")
base["inf"] = y
base["bf16"] = torch.randn(3, 4, 5).bfloat16()
base["row"] = torch.randn(1, 4, 5)
base["c64"] = torch.randn(3, 4, 5, dtype=torch.complex64)
for k, v in base.items():
    w.add("in:" + k, v)


def view(name):
    if name.endswith("T"):
        return base[name[:-1]].transpose(0, 2)
    if name.endswith("E"):
        return base[name[:-1]].expand(3, 4, 5)
    if name.endswith("S"):
        return base[name[:-1]][:, ::2, 1:]
    return base[name]


def dims_str(d):
    if d is None:
        return "all"
    if isinstance(d, int):
        return str(d)
    return ",".join(str(i) for i in d) if len(d) else "e"


def add(op, inp, dims, keepdim, extra, fn):
    name = "%s:%s:%s:%d:%s" % (op, inp, dims_str(dims), int(keepdim), extra)
    if name in w.names or name + "#0" in w.names:
        return
    t = view(inp)
    nd = max(t.dim(), 1)
    for i in ([] if dims is None else [dims] if isinstance(dims, int) else dims):
        if not -nd <= i < nd:
            return  # PyTorch skips this check for some empty / 0-dim inputs
    if t.is_complex() and op not in COMPLEX_OPS:
        return
    try:
        r = fn(t)
    except (RuntimeError, IndexError):
        return  # PyTorch rejects it; error cases are tested separately
    if isinstance(r, tuple):
        for i, t in enumerate(r):
            w.add(name + "#%d" % i, t)
    else:
        w.add(name, r)


def kd(d):
    return {} if d is None else {"dim": d}


ALL = ["c64", "f32", "f64", "f16", "bf16", "i64", "b", "f32T", "f32S", "f64T", "i64T", "rowE", "s", "e", "e2", "nan", "inf",
       "tie"]
FLOAT = ["c64", "f32", "f64", "f16", "bf16", "f32T", "f32S", "rowE", "s", "e", "e2", "nan", "inf"]
# complex64 only where Ember supports it (sums, products, moments, norms, cumulative sums).
COMPLEX_OPS = {"sum", "mean", "prod", "var", "std", "var_mean", "std_mean", "norm", "cumsum", "cumprod",
               "count_nonzero", "any", "all"}
DIMS = [None, [], [1], [-1], [0, 2], [2, 0], [-3, 1], [0, 1, 2]]
SINGLE = [0, 1, -1, 2]

for inp in ALL:
    for d in DIMS:
        for keep in (False, True):
            if d is None and keep:
                continue
            add("sum", inp, d, keep, "", lambda t: t.sum() if d is None else t.sum(d, keepdim=keep))
            add("nansum", inp, d, keep, "", lambda t: t.nansum() if d is None else t.nansum(d, keepdim=keep))
            add("amax", inp, d, keep, "", lambda t: t.amax() if d is None else t.amax(d, keepdim=keep))
            add("amin", inp, d, keep, "", lambda t: t.amin() if d is None else t.amin(d, keepdim=keep))
            add("count_nonzero", inp, d, False, "",
                lambda t: t.count_nonzero() if d is None else t.count_nonzero(d))
            add("logsumexp", inp, d, keep, "", lambda t: t.logsumexp(d if d is not None else [], keepdim=keep))
    add("sum", inp, [1], False, "f64", lambda t: t.sum(1, dtype=torch.float64))
    if inp not in ("inf", "nan"):  # float -> int32 of inf/nan is undefined
        add("sum", inp, None, False, "i32", lambda t: t.sum(dtype=torch.int32))
    add("mean", inp, [1], False, "f64", lambda t: t.mean(1, dtype=torch.float64))
    add("max", inp, None, False, "", lambda t: t.max())
    add("min", inp, None, False, "", lambda t: t.min())
    add("any", inp, None, False, "", lambda t: t.any())
    add("all", inp, None, False, "", lambda t: t.all())
    add("prod", inp, None, False, "", lambda t: t.prod())
    add("argmax", inp, None, False, "", lambda t: t.argmax())
    add("argmin", inp, None, True, "", lambda t: t.argmin(keepdim=True))
    add("median", inp, None, False, "", lambda t: t.median())
    add("nanmedian", inp, None, False, "", lambda t: t.nanmedian())
    add("msort", inp, None, False, "", lambda t: torch.msort(t))
    if inp != "nan":  # PyTorch's unique sorts NaNs with <, so its order there is arbitrary
        add("unique", inp, None, False, "", lambda t: torch.unique(t, return_inverse=True, return_counts=True))
    add("unique_consecutive", inp, None, False, "",
        lambda t: torch.unique_consecutive(t, return_inverse=True, return_counts=True))
    for d in SINGLE:
        for keep in (False, True):
            add("prod", inp, d, keep, "", lambda t: t.prod(d, keepdim=keep))
            add("max", inp, d, keep, "", lambda t: tuple(t.max(d, keepdim=keep)))
            add("min", inp, d, keep, "", lambda t: tuple(t.min(d, keepdim=keep)))
            add("argmax", inp, d, keep, "", lambda t: t.argmax(d, keepdim=keep))
            add("argmin", inp, d, keep, "", lambda t: t.argmin(d, keepdim=keep))
            add("any", inp, d, keep, "", lambda t: t.any(d, keepdim=keep))
            add("all", inp, d, keep, "", lambda t: t.all(d, keepdim=keep))
            if inp != "rowE":  # torch 1.13's median(dim) misreads expanded (stride-0) inputs
                add("median", inp, d, keep, "", lambda t: tuple(t.median(d, keepdim=keep)))
                add("nanmedian", inp, d, keep, "", lambda t: tuple(t.nanmedian(d, keepdim=keep)))
            if inp != "nan":  # PyTorch's mode sorts NaNs with <, so its answer there is arbitrary
                add("mode", inp, d, keep, "", lambda t: tuple(t.mode(d, keepdim=keep)))
            for k in (1, 2):
                add("kthvalue", inp, d, keep, str(k), lambda t: tuple(t.kthvalue(k, d, keepdim=keep)))
        add("cumsum", inp, d, False, "", lambda t: t.cumsum(d))
        add("cumprod", inp, d, False, "", lambda t: t.cumprod(d))
        add("cummax", inp, d, False, "", lambda t: tuple(t.cummax(d)))
        add("cummin", inp, d, False, "", lambda t: tuple(t.cummin(d)))
        add("logcumsumexp", inp, d, False, "", lambda t: t.logcumsumexp(d))
        add("sort", inp, d, False, "", lambda t: tuple(t.sort(dim=d, stable=True)))
        add("sort", inp, d, False, "desc", lambda t: tuple(t.sort(dim=d, descending=True, stable=True)))
        add("argsort", inp, d, False, "desc", lambda t: t.sort(dim=d, descending=True, stable=True)[1])
        for k in (1, 2):
            add("topk", inp, d, False, str(k), lambda t: tuple(t.topk(k, d)))
            add("topk", inp, d, False, "s%d" % k, lambda t: tuple(t.topk(k, d, largest=False)))
        if d in (0, 1):  # torch 1.13's unique(dim=2) does not sort the slices lexicographically
            add("unique_dim", inp, d, False, "",
            lambda t: torch.unique(t, dim=d, return_inverse=True, return_counts=True))
        add("unique_consecutive", inp, d, False, "",
            lambda t: torch.unique_consecutive(t, dim=d, return_inverse=True, return_counts=True))

for inp in FLOAT:
    for d in DIMS:
        for keep in (False, True):
            if d is None and keep:
                continue
            add("mean", inp, d, keep, "", lambda t: t.mean() if d is None else t.mean(d, keepdim=keep))
            add("nanmean", inp, d, keep, "", lambda t: t.nanmean() if d is None else t.nanmean(d, keepdim=keep))
            for c in (0, 1, 2):
                add("var", inp, d, keep, str(c), lambda t: t.var(d, correction=c, keepdim=keep))
                add("std", inp, d, keep, str(c), lambda t: t.std(d, correction=c, keepdim=keep))
            add("var_mean", inp, d, keep, "1", lambda t: tuple(torch.var_mean(t, d, correction=1, keepdim=keep)))
            add("std_mean", inp, d, keep, "0", lambda t: tuple(torch.std_mean(t, d, correction=0, keepdim=keep)))
            # torch accumulates bfloat16 p-norms for other p with a 2% error; the exact value is not comparable.
            for p in ("0", "1", "2", "inf", "-inf") if inp == "bf16" else ("0", "1", "2", "3", "0.5", "inf", "-inf"):
                add("norm", inp, d, keep, p,
                    lambda t: t.norm(float(p)) if d is None else t.norm(float(p), d if len(d) else None, keepdim=keep))
            if d or not keep:  # norm("fro") without dims ignores keepdim
                add("norm", inp, d, keep, "fro", lambda t: t.norm("fro") if not d else t.norm("fro", d, keepdim=keep))

# max(other): elementwise, NaN-propagating, with promotion and broadcasting.
a = torch.tensor([[1.0, nan, 3.0], [-1.0, 5.0, 2.0]])
b = torch.tensor([2, 1, 3], dtype=torch.int64)
w.add("in:pa", a)
w.add("in:pb", b)
w.add("pmax", torch.max(a, b))
w.add("pmin", torch.min(a, b))

w.save()
