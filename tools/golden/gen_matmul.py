"""Golden values for the matmul family (mm, bmm, matmul, add*, dot, einsum, tensordot).

Each case stores its inputs as <case>.in0, <case>.in1, ... and the expected
result as <case>.out; tests/ops/matmul_test.cpp applies the same op (and the
same view transforms, e.g. .t()) to the loaded inputs.

Note: Debian's torch 1.13 returns 0 for complex torch.dot/torch.vdot (an ABI
mismatch with OpenBLAS' cdotu/zdotc), so the complex dot/vdot references are
computed as (a * b).sum() / (a.conj() * b).sum() instead.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
w = GoldenWriter("matmul")

DT = {"f32": torch.float32, "f64": torch.float64, "c64": torch.complex64, "i64": torch.int64}


def rand(shape, dt):
    if dt.is_complex or dt.is_floating_point:
        return torch.randn(shape, dtype=dt)
    return torch.randint(-5, 6, shape, dtype=dt)


def case(name, fn, *inputs):
    for i, x in enumerate(inputs):
        w.add("%s.in%d" % (name, i), x)
    w.add(name + ".out", fn(*inputs))


def dot_ref(a, b):
    return (a * b).sum() if a.is_complex() else torch.dot(a, b)


def vdot_ref(a, b):
    return (a.conj() * b).sum() if a.is_complex() else torch.vdot(a, b)


# Shapes of torch.matmul's broadcasting cases, shared with the C++ test.
MATMUL_SHAPES = {
    "dot": ((3,), (3,)),
    "mv": ((2, 3), (3,)),
    "vm": ((3,), (3, 4)),
    "mm": ((2, 3), (3, 4)),
    "b1": ((2, 2, 3), (3,)),
    "1b": ((3,), (2, 3, 4)),
    "bcast": ((2, 1, 2, 3), (5, 3, 4)),
    "fold": ((4, 2, 3), (3, 4)),
    "mb": ((2, 3), (5, 3, 4)),
    "bb": ((3, 2, 3), (3, 3, 4)),
}

for dn, dt in DT.items():
    for cn, (sa, sb) in MATMUL_SHAPES.items():
        ref = (lambda a, b: dot_ref(a, b)) if cn == "dot" else torch.matmul
        case("matmul_%s_%s" % (cn, dn), ref, rand(sa, dt), rand(sb, dt))
    # Non-contiguous operands: transposed matrices, batched transposes, expanded batches.
    case("mm_t_%s" % dn, lambda a, b: torch.mm(a.t(), b.t()), rand((3, 2), dt), rand((4, 3), dt))
    case("matmul_tb_%s" % dn, lambda a, b: torch.matmul(a.transpose(-1, -2), b), rand((2, 4, 3, 2), dt),
         rand((3, 4), dt))
    case("matmul_exp_%s" % dn, lambda a, b: torch.matmul(a.expand(5, 2, 3), b), rand((1, 2, 3), dt),
         rand((5, 3, 4), dt))
    case("mm_slice_%s" % dn, lambda a, b: torch.mm(a[:, ::2], b[::2]), rand((3, 6), dt), rand((6, 2), dt))
    case("bmm_%s" % dn, torch.bmm, rand((3, 2, 4), dt), rand((3, 4, 5), dt))
    case("mv_%s" % dn, torch.mv, rand((3, 4), dt), rand((4,), dt))
    case("mv_t_%s" % dn, lambda a, b: torch.mv(a.t(), b), rand((4, 3), dt), rand((4,), dt))
    case("dot_%s" % dn, dot_ref, rand((5,), dt), rand((5,), dt))
    case("vdot_%s" % dn, vdot_ref, rand((5,), dt), rand((5,), dt))
    case("outer_%s" % dn, torch.outer, rand((3,), dt), rand((4,), dt))
    if dt.is_floating_point or dt.is_complex:
        b, a = 0.5, 2.0
    else:
        b, a = 2, 3
    case("addmm_%s" % dn, lambda s, x, y: torch.addmm(s, x, y, beta=b, alpha=a), rand((2, 4), dt), rand((2, 3), dt),
         rand((3, 4), dt))
    case("addmm_bcast_%s" % dn, lambda s, x, y: torch.addmm(s, x, y, beta=b, alpha=a), rand((4,), dt),
         rand((2, 3), dt), rand((3, 4), dt))
    case("addbmm_%s" % dn, lambda s, x, y: torch.addbmm(s, x, y, beta=b, alpha=a), rand((2, 4), dt),
         rand((3, 2, 3), dt), rand((3, 3, 4), dt))
    case("baddbmm_%s" % dn, lambda s, x, y: torch.baddbmm(s, x, y, beta=b, alpha=a), rand((3, 2, 4), dt),
         rand((3, 2, 3), dt), rand((3, 3, 4), dt))
    case("addmv_%s" % dn, lambda s, x, y: torch.addmv(s, x, y, beta=b, alpha=a), rand((2,), dt), rand((2, 3), dt),
         rand((3,), dt))
    case("addr_%s" % dn, lambda s, x, y: torch.addr(s, x, y, beta=b, alpha=a), rand((2, 3), dt), rand((2,), dt),
         rand((3,), dt))

# beta = 0 ignores NaN/inf in self; alpha = 0 still multiplies.
nan_self = torch.tensor([[float("nan"), float("inf")], [1.0, 2.0]])
case("addmm_beta0", lambda s, x, y: torch.addmm(s, x, y, beta=0, alpha=1.5), nan_self, rand((2, 3), torch.float32),
     rand((3, 2), torch.float32))
# int addmm with a float beta truncates it (2.5 -> 2), as PyTorch does.
case("addmm_int_fbeta", lambda s, x, y: torch.addmm(s, x, y, beta=2.5, alpha=3), rand((2, 2), torch.int64),
     rand((2, 3), torch.int64), rand((3, 2), torch.int64))
case("outer_promote", torch.outer, rand((3,), torch.float32), rand((2,), torch.float64))
case("outer_bool", torch.outer, torch.tensor([True, False, True]), torch.tensor([True, False]))
case("addmm_f16", lambda s, x, y: torch.addmm(s.float(), x.float(), y.float(), beta=0.5, alpha=2).half(),
     rand((2, 4), torch.float16), rand((2, 3), torch.float16), rand((3, 4), torch.float16))
case("mm_bf16", lambda x, y: torch.mm(x.float(), y.float()).bfloat16(), rand((3, 5), torch.bfloat16),
     rand((5, 2), torch.bfloat16))

# Integer overflow wraps around (int32 products beyond 2^31), small int types.
case("mm_i32_wrap", torch.mm, torch.randint(-2**20, 2**20, (3, 4), dtype=torch.int32),
     torch.randint(-2**20, 2**20, (4, 2), dtype=torch.int32))
case("mm_i8", torch.mm, torch.randint(-100, 100, (3, 5), dtype=torch.int8),
     torch.randint(-100, 100, (5, 2), dtype=torch.int8))
case("mm_u8", torch.mm, torch.randint(0, 255, (3, 5), dtype=torch.uint8),
     torch.randint(0, 255, (5, 2), dtype=torch.uint8))

# Vector shapes (gemv path): transposed matrix, strided vector, beta = 0 over NaN.
for dn in ("f32", "f64"):
    dt = DT[dn]
    case("vm_t_%s" % dn, lambda x, m: torch.matmul(x, m.t()), rand((4,), dt), rand((3, 4), dt))
    case("vm_tx_%s" % dn, lambda x, m: torch.matmul(x[::2], m), rand((8,), dt), rand((4, 3), dt))
    case("mv_strided_%s" % dn, lambda m, x: torch.mv(m[:, ::2], x[::3]), rand((3, 8), dt), rand((12,), dt))
    case("addmv_beta0_%s" % dn, lambda s, m, x: torch.addmv(s, m, x, beta=0, alpha=2),
         torch.tensor([float("nan"), float("inf"), 1.0], dtype=dt), rand((3, 4), dt), rand((4,), dt))

# Empty dims.
case("mm_k0", torch.mm, torch.empty(2, 0), torch.empty(0, 3))
case("mm_m0", torch.mm, torch.empty(0, 3), rand((3, 4), torch.float32))
case("bmm_b0", torch.bmm, torch.empty(0, 2, 3), torch.empty(0, 3, 4))
case("addmm_k0", lambda s, x, y: torch.addmm(s, x, y, beta=3, alpha=2), rand((2, 3), torch.float32),
     torch.empty(2, 0), torch.empty(0, 3))
case("matmul_k0_i64", torch.matmul, torch.empty(2, 2, 0, dtype=torch.int64), torch.empty(0, 3, dtype=torch.int64))

# Bigger sizes so BLAS blocking and the threaded paths are exercised.
case("mm_big_f32", lambda a, b: torch.mm(a, b.t()), rand((33, 65), torch.float32), rand((47, 65), torch.float32))
case("bmm_many_f64", torch.bmm, rand((40, 3, 5), torch.float64), rand((40, 5, 2), torch.float64))

# einsum
f = torch.float32
EINSUM = [
    ("transpose", "ij->ji", [(2, 3)]),
    ("trace", "ii", [(3, 3)]),
    ("diag", "ii->i", [(3, 3)]),
    ("diag_sum", "iij->j", [(3, 3, 2)]),
    ("bmm", "bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("outer", "i,j->ij", [(3,), (4,)]),
    ("ell_mm", "...ij,...jk", [(2, 3, 4), (2, 4, 5)]),
    ("ell_bcast", "...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("sum_all", "ij->", [(3, 4)]),
    ("implicit_mm", "ij,jk", [(2, 3), (3, 4)]),
    ("implicit_scalar", "ba,ab", [(2, 3), (3, 2)]),
    ("implicit_upper", "bA,cb", [(3, 2), (4, 3)]),
    ("ell_sum", "...ij->ij", [(4, 2, 3)]),
    ("hadamard", "i,i->i", [(5,), (5,)]),
    ("inner", "ij,ij->", [(3, 4), (3, 4)]),
    ("bilinear", "bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]),
    ("sum_rows", "ij->j", [(3, 4)]),
    ("broadcast_label", "ij,jk->ik", [(2, 1), (3, 4)]),
    ("spaces", " i j , j k -> i k ", [(2, 3), (3, 4)]),
    ("rank0_out", "i,i", [(4,), (4,)]),
    ("ell_mid", "i...j,j...->i...", [(2, 3, 4), (4, 3)]),
    ("chain3", "ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("triple_dot", "i,i,i->", [(5,), (5,), (5,)]),
    ("batch_diag", "bii->bi", [(2, 3, 3)]),
    ("empty_k", "ij,jk->ik", [(2, 0), (0, 3)]),
    ("permute3", "abc->cab", [(2, 3, 4)]),
    ("keep_repeated", "ij,ij->ij", [(2, 3), (2, 3)]),
]
for name, eq, shapes in EINSUM:
    ins = [rand(s, f) for s in shapes]
    case("einsum_%s" % name, lambda *xs, eq=eq: torch.einsum(eq, *xs), *ins)
case("einsum_bmm_c64", lambda a, b: torch.einsum("bij,bjk->bik", a, b), rand((2, 3, 4), torch.complex64),
     rand((2, 4, 2), torch.complex64))
case("einsum_mm_i64", lambda a, b: torch.einsum("ij,jk->ik", a, b), rand((2, 3), torch.int64),
     rand((3, 4), torch.int64))
case("einsum_nc", lambda a, b: torch.einsum("ij,jk->ik", a.t(), b), rand((3, 2), f), rand((3, 4), f))

case("mm_c128", torch.mm, rand((3, 4), torch.complex128), rand((4, 2), torch.complex128))
case("matmul_bcast_c128", torch.matmul, rand((2, 1, 2, 3), torch.complex128), rand((3, 3, 4), torch.complex128))
case("matmul_bcast_f16", lambda a, b: torch.matmul(a.float(), b.float()).half(), rand((2, 1, 2, 3), torch.float16),
     rand((3, 3, 4), torch.float16))

# tensordot
case("tensordot_int", lambda a, b: torch.tensordot(a, b, dims=2), rand((2, 3, 4), f), rand((3, 4, 5), f))
case("tensordot_lists", lambda a, b: torch.tensordot(a, b, dims=([1, 0], [0, 2])), rand((3, 4, 5), f),
     rand((4, 2, 3), f))
case("tensordot_0", lambda a, b: torch.tensordot(a, b, dims=0), rand((2, 3), f), rand((4,), f))
case("tensordot_f64", lambda a, b: torch.tensordot(a, b, dims=([2], [1])), rand((2, 3, 4), torch.float64),
     rand((5, 4), torch.float64))

# multi_dot / chain_matmul
case("multi_dot", lambda a, b, c: torch.linalg.multi_dot([a, b, c]), rand((3,), f), rand((3, 4), f), rand((4,), f))
case("chain_matmul", lambda a, b, c: torch.linalg.multi_dot([a, b, c]), rand((2, 3), f), rand((3, 4), f),
     rand((4, 2), f))

w.save()
