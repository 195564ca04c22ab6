"""Golden values for ember::linalg (tests/linalg/linalg_golden_test.cpp).

Each case is <op>.<dtype>.<shape tag>: inputs <case>.in0, <case>.in1, ... and
PyTorch's outputs <case>.out0, <case>.out1, ... The C++ test applies the same
call (keyed by <op>) to the loaded inputs. Inputs are well-conditioned
(SPD as A A^H + n I, diagonally dominant for solves) so float32 results agree
to ~1e-4. Outputs that are unique only up to phases (eigenvectors, singular
vectors, Q of QR) are stored too, but the test checks those by
reconstruction.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_linalg.py
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
w = GoldenWriter("linalg")

DT = {"f32": torch.float32, "f64": torch.float64, "c64": torch.complex64, "c128": torch.complex128}
BATCH = {"1": (), "b": (3,), "bb": (2, 2)}


def randn(*shape, dt):
    return torch.randn(*shape, dtype=dt)


def well(batch, n, dt):
    """Diagonally dominant: invertible with a small condition number."""
    return randn(*batch, n, n, dt=dt) + n * torch.eye(n, dtype=dt)


def spd(batch, n, dt):
    a = randn(*batch, n, n, dt=dt)
    return a @ a.mH + n * torch.eye(n, dtype=dt)


def herm(batch, n, dt):
    a = randn(*batch, n, n, dt=dt)
    return a + a.mH


def case(op, dt, tag, inputs, outputs):
    name = "%s.%s.%s" % (op, dt, tag)
    for i, t in enumerate(inputs):
        w.add("%s.in%d" % (name, i), t.resolve_conj())
    if not isinstance(outputs, (tuple, list)):
        outputs = [outputs]
    for i, t in enumerate(outputs):
        w.add("%s.out%d" % (name, i), t.resolve_conj() if torch.is_tensor(t) else t)


L = torch.linalg
for dn, dt in DT.items():
    real = not dt.is_complex
    for tag, batch in BATCH.items():
        n = 4
        A = randn(*batch, n, n, dt=dt)
        W = well(batch, n, dt)
        S = spd(batch, n, dt)
        H = herm(batch, n, dt)
        B = randn(*batch, n, 2, dt=dt)
        case("det", dn, tag, [A], L.det(A))
        case("slogdet", dn, tag, [A], list(L.slogdet(A)))
        case("inv", dn, tag, [W], L.inv(W))
        case("inv_ex", dn, tag, [W], list(L.inv_ex(W)))
        case("solve", dn, tag, [W, B], L.solve(W, B))
        case("solve_ex", dn, tag, [W, B], list(L.solve_ex(W, B)))
        case("solve_left_false", dn, tag, [W, B.mT], L.solve(W, B.mT, left=False))
        Bv = randn(*batch, n, dt=dt)
        case("solve_vec", dn, tag, [W, Bv], L.solve(W, Bv))
        U = W.triu()
        Lo = W.tril()
        case("solve_triangular_upper", dn, tag, [U, B], L.solve_triangular(U, B, upper=True))
        case("solve_triangular_lower", dn, tag, [Lo, B], L.solve_triangular(Lo, B, upper=False))
        case("solve_triangular_right", dn, tag, [U, B.mT], L.solve_triangular(U, B.mT, upper=True, left=False))
        case("solve_triangular_unit", dn, tag, [W, B], L.solve_triangular(W, B, upper=False, unitriangular=True))
        case("cholesky", dn, tag, [S], L.cholesky(S))
        case("cholesky_upper", dn, tag, [S], L.cholesky(S, upper=True))
        case("cholesky_ex", dn, tag, [S], list(L.cholesky_ex(S)))
        case("lu", dn, tag, [A], list(L.lu(A)))
        case("lu_factor", dn, tag, [A], list(L.lu_factor(A)))
        case("lu_solve", dn, tag, [W, B], L.lu_solve(*L.lu_factor(W), B))
        case("lu_solve_adjoint", dn, tag, [W, B], L.lu_solve(*L.lu_factor(W), B, adjoint=True))
        case("eigh", dn, tag, [H], list(L.eigh(H)))
        case("eigh_upper", dn, tag, [A], list(L.eigh(A, UPLO="U")))
        case("eigvalsh", dn, tag, [H], L.eigvalsh(H))
        case("eigvalsh_upper", dn, tag, [A], L.eigvalsh(A, UPLO="U"))
        case("eig", dn, tag, [A], list(L.eig(A)))
        case("eigvals", dn, tag, [A], L.eigvals(A))
        case("matrix_power3", dn, tag, [A], L.matrix_power(A, 3))
        case("matrix_power0", dn, tag, [A], L.matrix_power(A, 0))
        case("matrix_power_neg2", dn, tag, [W], L.matrix_power(W, -2))
        case("matrix_exp", dn, tag, [A * 0.3], L.matrix_exp(A * 0.3))
        case("matrix_exp_big", dn, tag, [A * 3], L.matrix_exp(A * 3))
        for ord_name, o in [("fro", "fro"), ("nuc", "nuc"), ("inf", float("inf")), ("ninf", float("-inf")),
                            ("1", 1), ("n1", -1), ("2", 2), ("n2", -2)]:
            R = randn(*batch, 3, 5, dt=dt)
            case("matrix_norm_" + ord_name, dn, tag, [R], L.matrix_norm(R, ord=o))
        for ord_name, o in [("none", None), ("2", 2), ("fro", "fro"), ("1", 1), ("inf", float("inf")),
                            ("n2", -2), ("nuc", "nuc")]:
            case("cond_" + ord_name, dn, tag, [W], L.cond(W, o) if o is not None else L.cond(W))
        # Rectangular: tall and wide.
        for shape_tag, (m, k) in [("tall", (5, 3)), ("wide", (3, 5))]:
            R = randn(*batch, m, k, dt=dt)
            t = tag + "_" + shape_tag
            case("qr", dn, t, [R], list(L.qr(R)))
            case("qr_complete", dn, t, [R], list(L.qr(R, mode="complete")))
            case("qr_r", dn, t, [R], L.qr(R, mode="r")[1])
            case("svd", dn, t, [R], list(L.svd(R, full_matrices=False)))
            case("svd_full", dn, t, [R], list(L.svd(R)))
            case("svdvals", dn, t, [R], L.svdvals(R))
            case("pinv", dn, t, [R], L.pinv(R))
            case("matrix_norm_2", dn, t, [R], L.matrix_norm(R, ord=2))
            Rk = randn(*batch, m, 2, dt=dt) @ randn(*batch, 2, k, dt=dt)
            case("matrix_rank", dn, t, [Rk], L.matrix_rank(Rk))
            case("matrix_rank_atol", dn, t, [R], L.matrix_rank(R, atol=1.0, rtol=0.0))
            case("pinv_rank_deficient", dn, t, [Rk], L.pinv(Rk))
        case("pinv_hermitian", dn, tag, [H], L.pinv(H, hermitian=True))
        case("matrix_rank_hermitian", dn, tag, [H], L.matrix_rank(H, hermitian=True))
        Ta = randn(*batch, 5, 3, dt=dt)
        Tb = randn(*batch, 5, 2, dt=dt)
        for drv in ["gels", "gelsy", "gelsd", "gelss"]:
            sol, res, rank, sv = L.lstsq(Ta, Tb, driver=drv)
            case("lstsq_" + drv, dn, tag, [Ta, Tb], [sol, res, rank, sv])
        a, tau = torch.geqrf(randn(*batch, 5, 3, dt=dt))
        case("householder_product", dn, tag, [a, tau], L.householder_product(a, tau))
        case("householder_product_k2", dn, tag, [a, tau[..., :2]], L.householder_product(a, tau[..., :2]))
        x = randn(*batch, 7, dt=dt)
        for ord_name, o in [("2", 2), ("1", 1), ("inf", float("inf")), ("ninf", float("-inf")), ("0", 0),
                            ("3_5", 3.5)]:
            case("vector_norm_" + ord_name, dn, tag, [x], L.vector_norm(x, ord=o))
        X = randn(*batch, 3, 4, dt=dt)
        case("vector_norm_dim", dn, tag, [X], L.vector_norm(X, ord=3, dim=-1, keepdim=True))
        case("vector_norm_dims", dn, tag, [X], L.vector_norm(X, dim=(-2, -1)))
        case("norm_default", dn, tag, [X], L.norm(X))
        case("norm_dim1", dn, tag, [X], L.norm(X, dim=-1))
        case("norm_dim2_nuc", dn, tag, [X], L.norm(X, "nuc", dim=(-2, -1)))
        case("matrix_norm_keepdim", dn, tag, [X], L.matrix_norm(X, ord=1, keepdim=True))
        c1 = randn(*batch, 4, 3, dt=dt)
        c2 = randn(*batch, 4, 3, dt=dt)
        case("cross", dn, tag, [c1, c2], L.cross(c1, c2))
        case("cross_dim", dn, tag, [c1.mT, c2.mT], L.cross(c1.mT, c2.mT, dim=-2))
        v = randn(*batch, 4, dt=dt)
        case("vander", dn, tag, [v], L.vander(v))
        case("vander_n6", dn, tag, [v], L.vander(v, N=6))
        case("diagonal", dn, tag, [X], L.diagonal(X, offset=1))
    # Unbatched-only cases.
    m1, m2, m3 = randn(2, 3, dt=dt), randn(3, 4, dt=dt), randn(4, 2, dt=dt)
    case("multi_dot", dn, "1", [m1, m2, m3], L.multi_dot([m1, m2, m3]))
    v1, v2 = randn(2, dt=dt), randn(4, dt=dt)
    case("multi_dot_vec", dn, "1", [v1, m1, m2, v2], L.multi_dot([v1, m1, m2, v2]))
    Wb = well((1, 3), 4, dt)
    Bb = randn(2, 1, 4, 2, dt=dt)
    case("solve_broadcast", dn, "bb", [Wb, Bb], L.solve(Wb, Bb))
    c1, c2 = randn(2, 1, 3, dt=dt), randn(1, 4, 3, dt=dt)
    case("cross_broadcast", dn, "bb", [c1, c2], L.cross(c1, c2))
    xd = randn(6, dt=dt)
    case("vector_norm_dtype", dn, "1", [xd], L.vector_norm(xd, dtype=torch.complex128 if dt.is_complex else torch.float64))

# torch.* spellings.
A = randn(3, 4, 4, dt=torch.float64)
W = well((3,), 4, torch.float64)
S = spd((3,), 4, torch.float64)
B = randn(3, 4, 2, dt=torch.float64)
case("torch_det", "f64", "b", [A], torch.det(A))
case("torch_logdet", "f64", "b", [A], torch.logdet(A))
case("torch_inverse", "f64", "b", [W], torch.inverse(W))
case("torch_cholesky_solve", "f64", "b", [B, L.cholesky(S)], torch.cholesky_solve(B, L.cholesky(S)))
case("torch_cholesky_inverse", "f64", "b", [L.cholesky(S)[0]], torch.cholesky_inverse(L.cholesky(S)[0]))
case("torch_triangular_solve", "f64", "b", [B, W], torch.triangular_solve(B, W, upper=True)[0])
case("torch_vander", "f64", "1", [B[0, :, 0]], torch.vander(B[0, :, 0]))
case("torch_cross", "f64", "b", [B[..., :3, :], A[..., :3, :2]], torch.cross(B[..., :3, :], A[..., :3, :2]))
case("torch_pinverse", "f64", "b", [A], torch.pinverse(A))
w.save()
