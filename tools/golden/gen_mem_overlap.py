"""What PyTorch does when an op's output shares memory with itself or an input
(tests/ops/mem_overlap_test.cpp, ops/shape/mem_overlap.h).

Each case builds its tensors from small aranges, runs one op and returns the
tensor that holds the result (the whole base buffer, so writes through views
show). The golden file stores, per case, either that tensor ("<case>") or the
kind of error PyTorch raised ("<case>:error", int64: 1 = the written-to tensor
overlaps itself, 2 = an input partially overlaps the written-to tensor). The
C++ test replays the same calls and asserts the same outcome.
Run: /usr/bin/python3 tools/golden/gen_mem_overlap.py
"""
import warnings

import torch
import torch.nn.functional as F

from golden import GoldenWriter

warnings.filterwarnings("ignore")  # masked_fill_/index_fill_/index_put_ on expanded tensors only warn
W = GoldenWriter("mem_overlap")

INTERNAL = "more than one element of the written-to tensor refers to a single memory location"
PARTIAL = "some elements of the input tensor and the written-to tensor refer to a single memory location"


def ar(n, dt=torch.float32):
    return torch.arange(n, dtype=dt)


def expanded():
    return torch.zeros(3).expand(2, 3)  # [2, 3], strides [0, 1]


c4 = torch.tensor([True, False, True, False])
c3 = torch.tensor([True, False, True])
CASES = {}


def case(name):
    def put(f):
        CASES[name] = f
        return f
    return put


# ---- where (out=) ------------------------------------------------------------------
@case("where_out_expanded")
def _():
    o = torch.zeros(4).expand(2, 4)
    return torch.where(c4, torch.ones(2, 4), torch.zeros(2, 4), out=o)


@case("where_out_partial_self")
def _():
    x = ar(5)
    torch.where(c4, x[:4], torch.full((4,), -1.0), out=x[1:])
    return x


@case("where_out_partial_condition")
def _():
    b = torch.tensor([True, False, True, False, True])
    torch.where(b[:4], b[:4], b[:4], out=b[1:])
    return b


@case("where_out_same_as_self")
def _():
    x = ar(4)
    torch.where(c4, x, -x, out=x)
    return x


@case("where_out_same_as_other")
def _():
    x = ar(4)
    torch.where(c4, -x, x, out=x)
    return x


@case("where_out_non_dense_input")
def _():
    x = ar(6)
    torch.where(c3, x[0:6:2], torch.full((3,), -1.0), out=x[:3])
    return x


# ---- clamp with tensor bounds ------------------------------------------------------
@case("clamp_tensor_expanded")
def _():
    return expanded().clamp_(min=torch.ones(2, 3), max=torch.full((2, 3), 2.0))


@case("clamp_tensor_min_only_expanded")
def _():
    return expanded().clamp_(min=torch.ones(2, 3))


@case("clamp_partial_min")
def _():
    x = ar(5)
    x[1:].clamp_(min=x[:4], max=torch.full((4,), 10.0))
    return x


@case("clamp_partial_max")
def _():
    x = ar(5)
    x[1:].clamp_(min=torch.zeros(4), max=x[:4])
    return x


@case("clamp_min_is_self")
def _():
    x = ar(4)
    x.clamp_(min=x, max=torch.full((4,), 2.0))
    return x


@case("clamp_out_partial")
def _():
    x = ar(5)
    torch.clamp(x[:4], torch.zeros(4), torch.full((4,), 2.0), out=x[1:])
    return x


@case("clamp_non_dense_min")
def _():
    x = ar(6)
    x[:3].clamp_(min=x[0:6:2], max=torch.full((3,), 10.0))
    return x


# ---- addcmul / addcdiv -------------------------------------------------------------
for nm in ["addcmul", "addcdiv"]:
    def ip(t, *a, nm=nm, **k):
        return getattr(t, nm + "_")(*a, **k)

    case(nm + "_expanded")(lambda ip=ip: ip(expanded(), torch.ones(2, 3), torch.ones(2, 3)))

    def partial1(ip=ip):
        x = ar(5) + 1
        ip(x[1:], x[:4], torch.full((4,), 2.0))
        return x
    case(nm + "_partial_tensor1")(partial1)

    def partial2(ip=ip):
        x = ar(5) + 1
        ip(x[1:], torch.full((4,), 2.0), x[:4])
        return x
    case(nm + "_partial_tensor2")(partial2)

    def same(ip=ip):
        x = ar(4) + 1
        ip(x, x, x, value=0.5)
        return x
    case(nm + "_self_as_both_tensors")(same)

    def non_dense(ip=ip):
        x = ar(6) + 1
        ip(x[:3], x[0:6:2], torch.full((3,), 2.0))
        return x
    case(nm + "_non_dense_tensor1")(non_dense)

    def transposed(ip=ip):
        x = (ar(4) + 1).reshape(2, 2)
        ip(x, x.t(), torch.ones(2, 2))
        return x
    case(nm + "_transposed_tensor1")(transposed)

    def promoted(ip=ip):  # tensor2 is float64: the inputs are cast, the overlap is still seen
        x = ar(5) + 1
        ip(x[1:], x[:4], torch.full((4,), 2.0, dtype=torch.float64))
        return x
    case(nm + "_partial_tensor1_promoted")(promoted)

    def out_partial(nm=nm):
        x = ar(5) + 1
        getattr(torch, nm)(x[:4], torch.ones(4), torch.ones(4), out=x[1:])
        return x
    case(nm + "_out_partial")(out_partial)

    case(nm + "_out_expanded")(lambda nm=nm: getattr(torch, nm)(
        torch.ones(2, 3), torch.ones(2, 3), torch.ones(2, 3), out=expanded()))


# ---- lerp ----------------------------------------------------------------------------
@case("lerp_scalar_expanded")
def _():
    return expanded().lerp_(torch.ones(2, 3), 0.5)


@case("lerp_tensor_expanded")
def _():
    return expanded().lerp_(torch.ones(2, 3), torch.full((2, 3), 0.5))


@case("lerp_scalar_partial_end")
def _():
    x = ar(5)
    x[1:].lerp_(x[:4], 0.5)
    return x


@case("lerp_tensor_partial_weight")
def _():
    x = ar(5) / 10
    x[1:].lerp_(torch.ones(4), x[:4])
    return x


@case("lerp_weight_is_self")
def _():
    x = ar(4) / 10
    x.lerp_(torch.ones(4), x)
    return x


@case("lerp_non_dense_end")
def _():
    x = ar(6)
    x[:3].lerp_(x[0:6:2], 0.5)
    return x


@case("lerp_out_partial")
def _():
    x = ar(5)
    torch.lerp(x[:4], torch.ones(4), 0.5, out=x[1:])
    return x


# ---- binary out= --------------------------------------------------------------------
@case("add_out_partial_before_dtype_check")  # int64 out, float result: the overlap is reported first
def _():
    x = ar(5, torch.int64)
    torch.add(x[:4], 1.5, out=x[1:])
    return x


# ---- copy_ -----------------------------------------------------------------------------
case("copy_into_expanded")(lambda: expanded().copy_(torch.ones(2, 3)))
case("copy_into_expanded_broadcast_src")(lambda: expanded().copy_(torch.ones(3)))
case("copy_into_expanded_0dim_src")(lambda: torch.zeros(1).expand(3).copy_(torch.tensor(1.0)))
case("copy_into_expanded_int_src")(lambda: expanded().copy_(torch.ones(2, 3, dtype=torch.int64)))
case("copy_into_expand_size_1")(lambda: torch.zeros(3).expand(1, 3).copy_(torch.ones(1, 3)))
case("copy_into_empty_expanded")(lambda: torch.zeros(0).expand(2, 0).copy_(torch.ones(2, 0)))

# ---- float-class predicates with out= (integer inputs take a fill, not the kernel) ---------
for nm in ("isposinf", "isneginf"):
    for dt in (torch.int64, torch.float32):
        case(f"{nm}_out_expanded_{str(dt)[6:]}")(
            lambda nm=nm, dt=dt: getattr(torch, nm)(torch.ones(2, 3, dtype=dt),
                                                    out=torch.zeros(3, dtype=torch.bool).expand(2, 3)))


@case("copy_expanded_into_itself")
def _():
    e = expanded()
    return e.copy_(e)


@case("copy_expanded_into_other_view_of_it")
def _():
    z = torch.zeros(3)
    return z.expand(2, 3).copy_(z.expand(2, 3))


# ---- other in-place ops on a destination with a broadcast dim --------------------------
INPLACE = {
    "neg_": lambda x: x.neg_(),
    "abs_": lambda x: x.abs_(),
    "sigmoid_": lambda x: x.sigmoid_(),
    "round_": lambda x: x.round_(),
    "nan_to_num_": lambda x: x.nan_to_num_(),
    "add_scalar_": lambda x: x.add_(1),
    "sub_alpha_": lambda x: x.sub_(torch.ones(2, 3), alpha=2),
    "mul_tensor_": lambda x: x.mul_(torch.ones(2, 3)),
    "div_tensor_": lambda x: x.div_(torch.ones(2, 3)),
    "pow_scalar_": lambda x: x.pow_(2),
    "lt_": lambda x: x.lt_(1.0),
    "clamp_scalar_": lambda x: x.clamp_(1, 2),
    "clamp_min_": lambda x: x.clamp_min_(1),
    "clamp_max_": lambda x: x.clamp_max_(1),
    "relu_": lambda x: x.relu_(),
    "hardtanh_": lambda x: F.hardtanh_(x),
    "relu6_": lambda x: F.relu6(x, inplace=True),
    "leaky_relu_": lambda x: F.leaky_relu_(x),
    "elu_": lambda x: F.elu_(x),
    "celu_": lambda x: torch.celu_(x),
    "rrelu_eval_": lambda x: F.rrelu_(x, training=False),
    "threshold_": lambda x: F.threshold_(x, 0.5, 2.0),
    "masked_fill_": lambda x: x.masked_fill_(torch.ones(2, 3, dtype=torch.bool), 1.0),
    "fill_": lambda x: x.fill_(1.0),
    "zero_": lambda x: x.zero_(),
    # the index family and ops Ember writes through copy_
    "index_add_": lambda x: x.index_add_(1, torch.tensor([0]), torch.ones(2, 1)),
    "index_copy_": lambda x: x.index_copy_(1, torch.tensor([0]), torch.ones(2, 1)),
    "index_fill_": lambda x: x.index_fill_(1, torch.tensor([0]), 1.0),
    "index_put_accumulate_": lambda x: x.index_put_((torch.tensor([0]),), torch.ones(3), accumulate=True),
    "scatter_src_": lambda x: x.scatter_(1, torch.tensor([[0], [1]]), torch.ones(2, 1)),
    "scatter_value_": lambda x: x.scatter_(1, torch.tensor([[0], [1]]), 1.0),
    "scatter_reduce_add_": lambda x: x.scatter_(1, torch.tensor([[0], [1]]), torch.ones(2, 1), reduce="add"),
    "scatter_add_": lambda x: x.scatter_add_(1, torch.tensor([[0], [1]]), torch.ones(2, 1)),
    "scatter_reduce_sum_": lambda x: x.scatter_reduce_(1, torch.tensor([[0], [1]]), torch.ones(2, 1), "sum"),
    "cumsum_": lambda x: x.cumsum_(1),
    "addmm_": lambda x: x.addmm_(torch.ones(2, 2), torch.ones(2, 3)),
}
for nm, f in INPLACE.items():
    case("inplace_expanded:" + nm)(lambda f=f: f(expanded()))

# ---- the index family: a source or index sharing memory with self ---------------------
# PyTorch refuses any shared element here, the very same tensor included.
I = torch.tensor
R6 = torch.tensor([5, 4, 3, 2, 1, 0])
INDEX = {
    "index_add_src_is_self": lambda x: x.index_add_(0, R6, x),
    "index_add_src_partial": lambda x: x[1:].index_add_(0, I([0, 1]), x[:2]),
    "index_add_src_non_dense": lambda x: x[:3].index_add_(0, I([2, 1, 0]), x[0:6:2]),
    "index_add_src_disjoint": lambda x: x[:3].index_add_(0, I([2, 1, 0]), x[3:]),
    "index_copy_src_is_self": lambda x: x.index_copy_(0, R6, x),
    "scatter_src_is_self": lambda x: x.scatter_(0, R6, x),
    "scatter_src_disjoint": lambda x: x[:3].scatter_(0, I([2, 1, 0]), x[3:]),
    "scatter_add_src_is_self": lambda x: x.scatter_add_(0, R6, x),
    "scatter_add_src_non_dense": lambda x: x[:3].scatter_add_(0, I([2, 1, 0]), x[0:6:2]),
    "scatter_reduce_src_is_self": lambda x: x.scatter_reduce_(0, R6, x, "sum"),
    "index_put_values_is_self": lambda x: x.index_put_((R6,), x),
    # x[i] = v (Tensor::index_put_ with TensorIndex in C++), on self and on a slice of it
    "setitem_values_partial": lambda x: x.__setitem__(I([0, 1]), x[2:4]),
    "setitem_view_values_partial": lambda x: x[1:].__setitem__(I([0, 1]), x[:2]),
    "setitem_values_disjoint": lambda x: x[:3].__setitem__(I([2, 1, 0]), x[3:]),
}
for nm, f in INDEX.items():
    def run(f=f):
        x = ar(6)
        f(x)
        return x
    case("index_family:" + nm)(run)
INDEX_INT = {  # int64 self read as an index
    "scatter_index_is_self": lambda x: x.scatter_(0, x[:2], I([5, 6])),
    "index_copy_index_is_self": lambda x: x.index_copy_(0, x[:2], I([5, 6])),
    "index_fill_index_is_self": lambda x: x.index_fill_(0, x[:2], 7),
    "index_add_index_is_self": lambda x: x.index_add_(0, x[:2], I([5, 6])),
    "setitem_index_is_self": lambda x: x.__setitem__(x[:2], 7),
}
for nm, f in INDEX_INT.items():
    def run(f=f):
        x = ar(6, torch.int64)
        f(x)
        return x
    case("index_family:" + nm)(run)

for name, f in CASES.items():
    try:
        W.add(name, f())
    except RuntimeError as e:
        msg = str(e)
        kind = 1 if INTERNAL in msg else 2 if PARTIAL in msg else None
        assert kind is not None, (name, msg)
        W.add(name + ":error", torch.tensor(kind))
W.save()
