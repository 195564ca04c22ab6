"""Golden values for the binary elementwise family (tests/ops/binary_test.cpp,
tests/ops/type_promotion_test.cpp).

Run with Debian's interpreter:  /usr/bin/python3 tools/golden/gen_binary.py

Entry names are  <op>:<case>:<dtype>:<role>  where role is a, b (inputs),
s (a Python scalar stored as a 0-dim tensor: int64, float64, bool or
complex128), out (expected result) or error (PyTorch raised; the value is a
dummy). Cases:
  tt     a [3,1] op b [1,4] (broadcast)
  vec    a [2,3] op b [3]
  zd     a [2,3] op b 0-dim
  ts     a [2,3] op Python scalar s
  st     Python scalar s op b [2,3] (reflected operators)
  nc     a [4,3] transposed (non-contiguous) op b [3,4]
  empty  a [0,3] op b [3]
  special  float specials (nan, inf, -0, ...) all against all
  zero   integer division by zero
Ternary ops use <op>:<case>:<dtype>:{self,t1,t2,min,max,w,out,error}.
Type promotion: rt:<kind>:<x>:<y> holds an empty tensor of torch.result_type.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
W = GoldenWriter("binary")

DT = {
    "float32": torch.float32, "float64": torch.float64, "int64": torch.int64, "int32": torch.int32,
    "uint8": torch.uint8, "bool": torch.bool, "float16": torch.float16, "complex64": torch.complex64,
    "bfloat16": torch.bfloat16,
}
MAIN = list(DT)

# float16 ops PyTorch 1.13 lacks on the CPU but later PyTorch has (computing in
# float and rounding once, as Ember does): expected values come from float32.
VIA_FLOAT = {"tanh_backward", "sigmoid_backward", "threshold_backward", "hypot", "atan2", "clamp", "clamp_min", "clamp_max", "lerp", "addcmul", "addcdiv"}

BINARY = {
    "add": lambda a, b: torch.add(a, b),
    "add_alpha": lambda a, b: torch.add(a, b, alpha=2),
    "sub": lambda a, b: torch.sub(a, b),
    "sub_alpha": lambda a, b: torch.sub(a, b, alpha=2),
    "mul": torch.mul,
    "div": torch.div,
    "div_trunc": lambda a, b: torch.div(a, b, rounding_mode="trunc"),
    "div_floor": lambda a, b: torch.div(a, b, rounding_mode="floor"),
    "remainder": torch.remainder,
    "fmod": torch.fmod,
    "pow": torch.pow,
    "atan2": torch.atan2,
    "hypot": torch.hypot,
    "copysign": torch.copysign,
    "maximum": torch.maximum,
    "minimum": torch.minimum,
    "fmax": torch.fmax,
    "fmin": torch.fmin,
    "bitwise_and": torch.bitwise_and,
    "bitwise_or": torch.bitwise_or,
    "bitwise_xor": torch.bitwise_xor,
    "bitwise_left_shift": torch.bitwise_left_shift,
    "bitwise_right_shift": torch.bitwise_right_shift,
    "logical_and": torch.logical_and,
    "logical_or": torch.logical_or,
    "logical_xor": torch.logical_xor,
    "eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le, "gt": torch.gt, "ge": torch.ge,
    "isclose": torch.isclose,
    # broadcast first: PyTorch 1.13's equal_nan path fails to broadcast a smaller self
    "isclose_tol": lambda a, b: torch.isclose(*torch.broadcast_tensors(a, b), rtol=0.1, atol=0.5, equal_nan=True),
    "clamp_min": lambda a, b: torch.clamp(a, min=b),
    "clamp_max": lambda a, b: torch.clamp(a, max=b),
    "tanh_backward": torch.ops.aten.tanh_backward,
    "sigmoid_backward": torch.ops.aten.sigmoid_backward,
    "threshold_backward": lambda g, x: torch.ops.aten.threshold_backward(g, x, 0.5),
    "gcd": torch.gcd,
    "lcm": torch.lcm,
    "nextafter": torch.nextafter,
}
# Ops Ember implements for real dtypes only (PyTorch also takes complex ones).
REAL_ONLY = {"tanh_backward", "sigmoid_backward", "threshold_backward"}
INT_DIV = {"div_trunc", "div_floor", "remainder", "fmod"}
SHIFTS = {"bitwise_left_shift", "bitwise_right_shift"}

# Tensor-op-Scalar forms (torch functions accept a Python scalar as `other`).
SCALAR_OTHER = {
    "add": lambda a, s: torch.add(a, s), "sub": lambda a, s: torch.sub(a, s), "mul": torch.mul,
    "div": torch.div, "div_trunc": lambda a, s: torch.div(a, s, rounding_mode="trunc"),
    "div_floor": lambda a, s: torch.div(a, s, rounding_mode="floor"),
    "remainder": torch.remainder, "fmod": torch.fmod, "pow": torch.pow,
    "bitwise_and": torch.bitwise_and, "bitwise_or": torch.bitwise_or, "bitwise_xor": torch.bitwise_xor,
    "bitwise_left_shift": lambda a, s: a << s, "bitwise_right_shift": lambda a, s: a >> s,
    "eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le, "gt": torch.gt, "ge": torch.ge,
    "clamp_min": lambda a, s: torch.clamp(a, min=s), "clamp_max": lambda a, s: torch.clamp(a, max=s),
}
# Scalar-op-Tensor forms via Python's reflected operators.
SCALAR_SELF = {
    "add": lambda s, b: s + b, "sub": lambda s, b: s - b, "mul": lambda s, b: s * b, "div": lambda s, b: s / b,
    "remainder": lambda s, b: s % b, "pow": lambda s, b: s ** b, "bitwise_and": lambda s, b: s & b,
    "bitwise_or": lambda s, b: s | b, "bitwise_xor": lambda s, b: s ^ b,
    "bitwise_left_shift": lambda s, b: s << b, "bitwise_right_shift": lambda s, b: s >> b,
    "eq": lambda s, b: s == b, "ne": lambda s, b: s != b, "lt": lambda s, b: s < b, "le": lambda s, b: s <= b,
    "gt": lambda s, b: s > b, "ge": lambda s, b: s >= b,
}


def sample(shape, dt, op, role):
    """Inputs kept in each op's comfortable domain (no int division by 0, small shifts and powers)."""
    t = DT[dt]
    if t == torch.bool:
        return torch.randint(0, 2, shape).bool()
    if t.is_complex:
        return torch.complex(torch.randn(shape), torch.randn(shape)).to(t)
    if t.is_floating_point:
        x = torch.randn(shape, dtype=torch.float64) * 3
        if op == "pow" and role == "a":
            x = x.abs() + 0.1
        return x.to(t)
    lo, hi = (0, 20) if t == torch.uint8 else (-10, 10)
    if op in SHIFTS and role == "b":
        lo, hi = 0, 8
    if op == "pow":
        lo, hi = (0, 5) if role == "b" else (-4 if t != torch.uint8 else 0, 5)
    x = torch.randint(lo, hi, shape, dtype=t)
    if op in INT_DIV and role == "b":
        x[x == 0] = 3
    return x


def nextafter_half(a, b):
    """PyTorch 1.13 has no float16 nextafter on the CPU; NumPy's steps float16 itself."""
    import numpy as np
    a, b = torch.broadcast_tensors(a, b)
    return torch.from_numpy(np.nextafter(a.numpy(), b.numpy()))


def record(name, fn, *args):
    dt = name.split(":")[2]
    if dt == "float16" and name.split(":")[0] == "nextafter":
        fn = nextafter_half
    if dt == "float16" and name.split(":")[0] in VIA_FLOAT:
        fn32 = fn
        fn = lambda *xs: fn32(*[x.float() if isinstance(x, torch.Tensor) else x for x in xs]).half()  # noqa: E731
    try:
        out = fn(*args)
    except (RuntimeError, TypeError):
        W.add(name + ":error", torch.zeros(1))
        return
    W.add(name + ":out", out)


def scalars_for(dt, op):
    if op in SHIFTS:
        return [2]
    if op == "pow":
        return [2, 0.5]
    if dt == "complex64" and op in ("lt", "le", "gt", "ge", "clamp_min", "clamp_max"):
        return [2]
    return [2, 2.5, True] if dt in ("bool", "uint8") else [3, -1.5]


for op, fn in BINARY.items():
    for dt in MAIN:
        if op in REAL_ONLY and DT[dt].is_complex:
            continue
        base = "%s:%%s:%s" % (op, dt)
        cases = {
            "tt": ([3, 1], [1, 4]),
            "vec": ([2, 3], [3]),
            "zd": ([2, 3], []),
            "nc": ([4, 3], [3, 4]),
            "empty": ([0, 3], [3]),
        }
        for case, (sa, sb) in cases.items():
            a, b = sample(sa, dt, op, "a"), sample(sb, dt, op, "b")
            W.add(base % case + ":a", a)
            W.add(base % case + ":b", b)
            record(base % case, fn, a.t() if case == "nc" else a, b)
        if op in SCALAR_OTHER:
            for k, s in enumerate(scalars_for(dt, op)):
                a = sample([2, 3], dt, op, "a")
                case = "ts%d" % k
                W.add(base % case + ":a", a)
                W.add(base % case + ":s", torch.tensor(s))
                record(base % case, SCALAR_OTHER[op], a, s)
        if op in SCALAR_SELF:
            s = 3 if op not in SHIFTS else 1
            b = sample([2, 3], dt, op, "b")
            W.add(base % "st" + ":b", b)
            W.add(base % "st" + ":s", torch.tensor(s))
            record(base % "st", SCALAR_SELF[op], s, b)
        if DT[dt].is_floating_point:
            sp = torch.tensor([float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 1.0, -1.0, 2.5, -3.0], dtype=DT[dt])
            a, b = sp.reshape(9, 1), sp.reshape(1, 9)
            W.add(base % "special" + ":a", a)
            W.add(base % "special" + ":b", b)
            record(base % "special", fn, a, b)
        if op in INT_DIV and not DT[dt].is_floating_point:
            a = torch.tensor([5, 7, 9], dtype=DT[dt])
            b = torch.tensor([1, 0, 2], dtype=DT[dt])
            W.add(base % "zero" + ":a", a)
            W.add(base % "zero" + ":b", b)
            record(base % "zero", fn, a, b)

# ---- ternary ops -----------------------------------------------------------------------
TERNARY_DT = ["float32", "float64", "int64", "int32", "uint8", "float16", "complex64", "bool", "bfloat16"]
for dt in TERNARY_DT:
    t = DT[dt]
    x = sample([3, 4], dt, "x", "a")
    lo, hi = sample([3, 1], dt, "x", "a"), sample([4], dt, "x", "a")
    # clamp with Scalar bounds, both and one-sided; min > max; and tensor bounds.
    for case, (mn, mx) in {"s_both": (-1, 2), "s_min": (0, None), "s_max": (None, 1), "s_inv": (3, 1),
                           "s_float": (-0.5, 0.75)}.items():
        name = "clamp:%s:%s" % (case, dt)
        W.add(name + ":self", x)
        if mn is not None:
            W.add(name + ":min", torch.tensor(mn))
        if mx is not None:
            W.add(name + ":max", torch.tensor(mx))
        record(name, lambda a: torch.clamp(a, mn, mx), x)
    name = "clamp:t_both:%s" % dt
    W.add(name + ":self", x)
    W.add(name + ":min", lo)
    W.add(name + ":max", hi)
    record(name, torch.clamp, x, lo, hi)
    # lerp: Scalar weight (both formula branches) and tensor weight.
    end = sample([4], dt, "x", "a")
    for case, w in {"s03": 0.3, "s08": 0.8}.items():
        name = "lerp:%s:%s" % (case, dt)
        W.add(name + ":self", x)
        W.add(name + ":t1", end)
        W.add(name + ":w", torch.tensor(w, dtype=torch.float64))  # the Python float, exactly
        record(name, torch.lerp, x, end, w)
    name = "lerp:t:%s" % dt
    wt = torch.rand([3, 1], dtype=torch.float64).to(t) if (t.is_floating_point or t.is_complex) else sample([3, 1], dt, "x", "a")
    W.add(name + ":self", x)
    W.add(name + ":t1", end)
    W.add(name + ":w", wt)
    record(name, torch.lerp, x, end, wt)
    # addcmul / addcdiv with value.
    t1, t2 = sample([3, 1], dt, "x", "a"), sample([4], dt, "x", "a")
    if t.is_floating_point:
        t2 = t2.sign() * (t2.abs() + 0.5)
    for opn, f in {"addcmul": torch.addcmul, "addcdiv": torch.addcdiv}.items():
        name = "%s:v2:%s" % (opn, dt)
        W.add(name + ":self", x)
        W.add(name + ":t1", t1)
        W.add(name + ":t2", t2)
        record(name, lambda a, b, c: f(a, b, c, value=2), x, t1, t2)

# clamp NaN propagation: NaN in self or in either bound gives NaN.
nan = float("nan")
x = torch.tensor([[nan, 1.0, 5.0, -5.0], [0.5, nan, 2.0, -1.0]])
lo = torch.tensor([[0.0], [nan]])
hi = torch.tensor([2.0, 2.0, nan, 3.0])
W.add("clampnan:x", x)
W.add("clampnan:lo", lo)
W.add("clampnan:hi", hi)
W.add("clampnan:tt", torch.clamp(x, lo, hi))
W.add("clampnan:t_min", torch.clamp(x, lo))
W.add("clampnan:t_max", torch.clamp(x, None, hi))
W.add("clampnan:s", torch.clamp(x, 0.0, 2.0))
W.add("clampnan:s_nanmin", torch.clamp(x, nan, 2.0))
W.add("clampnan:s_nanmax", torch.clamp_max(x, nan))

# ---- unary operators (-x, ~x, !x), aliasing, allclose / equal ---------------------------
for dt in MAIN:
    x = sample([2, 3], dt, "x", "a")
    if DT[dt].is_floating_point:
        x[0, 0] = float("nan")
        x[0, 1] = 0.0
    W.add("unop:%s:x" % dt, x)
    record("unop:neg:%s" % dt, lambda v: -v, x)
    record("unop:invert:%s" % dt, lambda v: ~v, x)
    record("unop:not:%s" % dt, torch.logical_not, x)

a = torch.randn(3, 3)
W.add("alias:a", a)
W.add("alias:out", a + a.t())

close_cases = {
    "same": (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0])),
    "near": (torch.tensor([1.0, 2.0]), torch.tensor([1.0 + 1e-7, 2.0])),
    "far": (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1])),
    "nan": (torch.tensor([float("nan"), 2.0]), torch.tensor([float("nan"), 2.0])),
    "bcast": (torch.tensor([[1.0, 1.0], [1.0, 1.0]]), torch.tensor([1.0])),
    "int_float": (torch.tensor([1, 2]), torch.tensor([1.0, 2.0])),
    "shape": (torch.tensor([1.0, 2.0]), torch.tensor([[1.0, 2.0]])),
    "empty": (torch.zeros(0), torch.zeros(0)),
}
for case, (x, y) in close_cases.items():
    W.add("close:%s:a" % case, x)
    W.add("close:%s:b" % case, y)
    W.add("close:%s:equal" % case, torch.tensor(torch.equal(x, y)))
    try:
        W.add("close:%s:allclose" % case, torch.tensor(torch.allclose(x, y)))
    except RuntimeError:
        W.add("close:%s:allclose_error" % case, torch.zeros(1))

u = torch.tensor([200, 3, 17], dtype=torch.uint8)
W.add("wrap:u8:a", u)
W.add("wrap:u8:add1000", u + 1000)
W.add("wrap:u8:sub1", u - 1)
W.add("wrap:u8:eq456", torch.eq(u, 456))

# ---- type promotion: torch.result_type ---------------------------------------------------
ALL = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
       "complex64", "complex128"]
TORCH_DT = {n: getattr(torch, n) for n in ALL}
for x in ALL:
    for y in ALL:
        for kind, (sx, sy) in {"tt": ([2], [2]), "tz": ([2], []), "zz": ([], [])}.items():
            r = torch.result_type(torch.zeros(sx, dtype=TORCH_DT[x]), torch.zeros(sy, dtype=TORCH_DT[y]))
            if r == torch.complex32:
                continue  # Ember has no complex32 (float16 with complex gives complex64)
            W.add("rt:%s:%s:%s" % (kind, x, y), torch.zeros(0, dtype=r))
    for sname, s in {"int": 1, "float": 2.5, "bool": True, "complex": 1j}.items():
        for kind, shape in {"ts": [2], "zs": []}.items():
            r = torch.result_type(torch.zeros(shape, dtype=TORCH_DT[x]), s)
            if r == torch.complex32:
                continue
            W.add("rt:%s:%s:%s" % (kind, x, sname), torch.zeros(0, dtype=r))

W.save()
