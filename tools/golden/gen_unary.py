"""Golden values for the unary elementwise family (tests/ops/unary_test.cpp).

    /usr/bin/python3 tools/golden/gen_unary.py

Entries:
  in.<dtype>          the (4, 8) input of every op for that dtype (special values included)
  cls.<dtype>         complex inputs with NaN/inf/real parts, for the predicates and views
  out.<op>.<dtype>    PyTorch's result of <op> on the input of that dtype
  err.<op>.<dtype>    present when PyTorch raises for that dtype
float16 (and bfloat16 where this torch lacks a CPU kernel) are computed the way
newer PyTorch does on CPU: in float32, rounded to the 16-bit type.
"""
import math

import torch
import torch.nn.functional as F

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("unary")

NAN, INF = float("nan"), float("inf")
SPECIAL = [NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 0.25, 3.0, -3.0, 1e-3, -1e-3,
           0.999, -0.999, 10.0, -10.0, 2.5, -2.5, 1.5, -1.5]
FLOATS = SPECIAL + (torch.rand(32 - len(SPECIAL), dtype=torch.float64) * 8 - 4).tolist()
INTS = [0, 1, -1, 2, -2, 3, -3, 5, -7, 10, -10, 100, -100, 127, -128, 50, -50, 20, 4, -4, 6, 7, 8, -9,
        50000, -50000, 46341, 70000, 33, -33, 64, 99]
UINTS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 15, 16, 17, 31, 32, 33, 63, 64, 100, 127, 128, 129, 200, 250,
         251, 252, 253, 254, 255, 11, 12, 13]

DTYPES = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16, "int32": torch.int32,
    "int64": torch.int64, "float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
    "float64": torch.float64, "complex64": torch.complex64, "complex128": torch.complex128,
}


def make_input(name, dt):
    if dt == torch.bool:
        x = torch.tensor([i % 3 == 0 for i in range(32)])
    elif dt == torch.uint8:
        x = torch.tensor(UINTS, dtype=dt)
    elif dt in (torch.int8, torch.int16, torch.int32, torch.int64):
        info = torch.iinfo(dt)
        x = torch.tensor([min(max(v, info.min), info.max) for v in INTS], dtype=dt)
    elif dt.is_complex:
        # Away from zeros and branch cuts so different complex libraries agree.
        re = torch.rand(32, dtype=torch.float64) * 3 - 1.5
        im = torch.rand(32, dtype=torch.float64) * 3 - 1.5
        re = torch.where(re.abs() < 0.1, re + 0.3, re)
        im = torch.where(im.abs() < 0.1, im + 0.3, im)
        x = torch.complex(re, im).to(dt)
    else:
        x = torch.tensor(FLOATS, dtype=torch.float64).to(dt)
    return x.reshape(4, 8)


def make_cls(dt):
    vals = [complex(NAN, 1), complex(1, NAN), complex(INF, 0), complex(0, -INF), complex(-INF, INF),
            complex(1.5, 0), complex(-2, 0), complex(0, 0), complex(0, 2), complex(-1, -1), complex(3, 4),
            complex(0.5, -0.25)]
    vals = vals + [complex(0.1 * i, 0.0 if i % 2 else -0.2 * i) for i in range(32 - len(vals))]
    return torch.tensor(vals, dtype=dt).reshape(4, 8)


# op name -> (function, uses the complex special-value input)
OPS = {}
def op(name, fn, cls=False):
    OPS[name] = (fn, cls)

for n in ["abs", "neg", "sign", "sgn", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt",
          "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
          "sigmoid", "erf", "erfc", "erfinv", "lgamma", "digamma", "floor", "ceil", "trunc", "frac",
          "reciprocal", "square", "relu", "bitwise_not", "logical_not"]:
    op(n, getattr(torch, n))
for n in ["silu", "mish", "hardswish", "hardsigmoid", "selu"]:
    op(n, getattr(F, n))
op("round", torch.round)
op("round_d2", lambda x: torch.round(x, decimals=2))
op("round_dm1", lambda x: torch.round(x, decimals=-1))
op("gelu", F.gelu)
op("gelu_tanh", lambda x: F.gelu(x, approximate="tanh"))
op("softplus", F.softplus)
op("softplus_b2t5", lambda x: F.softplus(x, beta=2, threshold=5))
op("elu", F.elu)
op("elu_a05s2i15", lambda x: torch.ops.aten.elu(x, 0.5, 2.0, 1.5))
op("leaky_relu", F.leaky_relu)
op("leaky_relu_02", lambda x: F.leaky_relu(x, 0.2))
op("logit", torch.logit)
op("logit_eps", lambda x: torch.logit(x, eps=0.1))
op("nan_to_num", torch.nan_to_num)
op("nan_to_num_args", lambda x: torch.nan_to_num(x, nan=1.5, posinf=100.0, neginf=-200.0))
for n in ["isnan", "isinf", "isposinf", "isneginf", "isfinite", "isreal", "angle"]:
    op(n, getattr(torch, n), cls=True)
op("real", torch.real, cls=True)
op("imag", torch.imag, cls=True)
op("conj", lambda x: torch.conj(x).resolve_conj(), cls=True)


# torch 1.13 rounds the intermediates of its bfloat16 tanh-gelu to bfloat16;
# newer PyTorch (and Ember) compute in float32 and round once.
BF16_VIA_FLOAT = {"gelu_tanh"}


def run(fn, x):
    try:
        return fn(x)
    except (RuntimeError, TypeError, NotImplementedError):
        return None


inputs = {}
for dn, dt in DTYPES.items():
    inputs[dn] = make_input(dn, dt)
    g.add("in." + dn, inputs[dn])
    if dt.is_complex:
        inputs["cls." + dn] = make_cls(dt)
        g.add("cls." + dn, inputs["cls." + dn])

for name, (fn, cls) in OPS.items():
    for dn, dt in DTYPES.items():
        x = inputs["cls." + dn] if (cls and dt.is_complex) else inputs[dn]
        r = None if (dt == torch.bfloat16 and name in BF16_VIA_FLOAT) else run(fn, x)
        if r is None and dt in (torch.float16, torch.bfloat16):
            r32 = run(fn, x.float())
            if r32 is not None:
                r = r32.to(dt) if r32.dtype == torch.float32 else r32
        if r is None:
            g.add("err.%s.%s" % (name, dn), torch.zeros(0))
        else:
            g.add("out.%s.%s" % (name, dn), r)

# polar / complex / view_as_real / view_as_complex
a = torch.rand(3, 4, dtype=torch.float64) * 2
b = torch.rand(4, dtype=torch.float64) * 6 - 3
for dn, dt in (("float32", torch.float32), ("float64", torch.float64)):
    g.add("polar.abs." + dn, a.to(dt))
    g.add("polar.angle." + dn, b.to(dt))
    g.add("polar.out." + dn, torch.polar(a.to(dt), b.to(dt)))
    g.add("complex.out." + dn, torch.complex(a.to(dt), b.to(dt)))
c = inputs["complex64"]
g.add("view_as_real.out", torch.view_as_real(c))
g.add("view_as_real.t", torch.view_as_real(c.t()))
g.add("real.t", c.t().real)
g.add("imag.t", c.t().imag)
g.save()
