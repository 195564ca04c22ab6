// Derivative table of ember::linalg (the role of derivatives.yaml's linalg_*
// rows and FunctionsManual's linalg backward functions in PyTorch).
//
// Checklist for a new linalg primitive: forward in ember/linalg/*.cpp calling
// record_linalg_<op> when autograd::needs_grad; its formula here, written with
// public differentiable ops (linalg::solve, solve_triangular, matmul, ...) so
// create_graph works; an OpInfo entry in tests/autograd/opinfo_linalg.cpp.
// Undefined output gradients mean zero. Composites (pinv, cond, norms,
// matrix_power, lu, lu_solve, cross, vander, ...) need no row here.
//
// Note [Gauge of eigen/singular vectors]
// eigh, eig and svd vectors are defined up to a phase per vector. The
// formulas below give the gradient of losses invariant under that choice; the
// phase-dependent part (the diagonal of V^H gV, or of U^H gU + V^H gV) is
// dropped, as PyTorch documents for linalg.eigh / eig / svd; a loss whose
// gradient has an imaginary part there is refused (check_phase_invariant).
#include "ember/linalg/linalg_grad.h"
#include "ember/autograd/derivatives/reduce_grad.h"

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/linalg.h"
#include "ember/linalg/batch.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"
#include "ember/vmap/batched_tensor.h"

namespace torch::autograd {

namespace {

using linalg::detail::mH;

Tensor add_defined(const Tensor& a, const Tensor& b) { return !a.defined() ? b : (!b.defined() ? a : a + b); }
Tensor identity_like(const Tensor& A) { return eye(A.size(-1), TensorOptions(A.dtype())); }
Tensor off_diagonal_mask(int64_t n) { return ones({n, n}, TensorOptions(kDouble)) - eye(n, TensorOptions(kDouble)); }
// Re(x) kept in x's complex dtype, written with differentiable ops (conj, add)
// so double backward sees it; real()/imag() are views outside the graph.
Tensor real_part(const Tensor& x) { return x.is_complex() ? (x + x.conj()) * 0.5 : x; }

// Note [Gauge of eigen/singular vectors]: a loss that depends on the vectors'
// phases has no gradient. As PyTorch, raise when the imaginary parts that
// measure that dependence (`phase`, expected to equal `expected`) are not
// close to it (rtol = atol = 1e-2, PyTorch's tolerances). Skipped under vmap,
// where the values are per sample (functorch skips it for subclasses too).
void check_phase_invariant(const Tensor& phase, const Tensor& expected, const char* op, const char* what) {
  // Forward mode runs these formulas on an arbitrary cotangent (Note [JVP from the
  // VJP]) and keeps only the gauge-invariant part of the result: no loss to judge.
  if (forward_ad::detail::suspended() || batching::any_batched(phase, expected)) return;
  BelowAutogradGuard no_grad;
  EMBER_CHECK(allclose(phase, expected, 1e-2, 1e-2), op, ": The ", what,
              " in the complex case are specified up to multiplication by e^{i phi}. The specified loss function "
              "depends on this quantity, so it is ill-defined.");
}
// A complex gradient for a real input keeps its real part (the input's tangent
// space); the dtype conversion is recorded (ToCopyBackward0), so this too is
// twice differentiable.
Tensor to_input(const Tensor& g, const FormulaNode& n) {
  const bool real_input = n.ints.size() > 0 && n.ints[n.ints.size() - 1] == 0;
  return real_input && g.is_complex() ? g.to(to_real_type(g.dtype())) : g;
}

// det: d det = tr(adj(A) dA), so gA = g conj(adj(A))^T = g adj(A)^H. For an
// invertible A, adj(A) = det A^-1 and gA = conj(g det) A^-H (one solve). At a
// singular A that solve fails though the gradient exists (the cofactor
// matrix, nonzero at rank n-1), so a batch with a zero determinant takes the
// SVD form for every matrix: A = U S Vh gives adj(A)^H = conj(det U det Vh)
// U diag(prod_{j != i} s_j) Vh. (PyTorch 2 does the same; 1.13 returns zeros.)
variable_list det_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor A = n.saved(0), d = n.saved(1);
  if (!(d == 0).any().item<bool>()) {
    Tensor c = (g[0] * d.conj()).unsqueeze(-1).unsqueeze(-1);
    return {linalg::solve(mH(A), identity_like(A) * c)};
  }
  auto [U, S, Vh] = linalg::svd(A, false);
  Tensor alpha = (linalg::det(U) * linalg::det(Vh)).conj();
  Tensor D = prod_safe_zeros_backward((g[0] * alpha).unsqueeze(-1), S, S.dim() - 1);  // S real: no conj
  return {(U * D.unsqueeze(-2)).matmul(Vh)};
}

// slogdet: d log det = tr(A^-1 dA) = d logabsdet + i d(arg sign); the sign's
// gradient enters through the imaginary part (complex input only).
variable_list slogdet_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor A = n.saved(0), sign = n.saved(1);
  Tensor G = g[1].defined() ? g[1] : zeros(sign.sizes(), TensorOptions(to_real_type(A.dtype())));
  Tensor c = G.to(A.dtype());
  if (A.is_complex() && g[0].defined()) {
    // G + i Im(z) with z = g_sign conj(sign); i Im(z) = (z - conj(z)) / 2.
    Tensor z = g[0] * sign.conj();
    c = c + (z - z.conj()) * 0.5;
  }
  c = c.unsqueeze(-1).unsqueeze(-1);
  return {linalg::solve(mH(A), identity_like(A) * c)};
}

// inv: d(A^-1) = -A^-1 dA A^-1, so gA = -A^-H g A^-H.
variable_list inv_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor X = mH(n.saved(0));
  return {-X.matmul(g[0]).matmul(X)};
}

// solve: X = A^-1 B; gB = A^-H g, gA = -gB X^H.
variable_list solve_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor A = n.saved(0), X = n.saved(1);
  Tensor gB = linalg::solve(mH(A), g[0]);
  Tensor gA = n.needs_input_grad(0) ? -gB.matmul(mH(X)) : Tensor();
  return {gA, n.needs_input_grad(1) ? gB : Tensor()};
}

// solve_triangular: as solve, with the A gradient kept on the triangle the op reads.
variable_list solve_triangular_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor A = n.saved(0), X = n.saved(1);
  const bool upper = n.ints[0] != 0, unit = n.ints[1] != 0;
  Tensor gB = linalg::solve_triangular(mH(A), g[0], !upper, true, unit);
  Tensor gA;
  if (n.needs_input_grad(0)) {
    gA = -gB.matmul(mH(X));
    gA = upper ? gA.triu(unit ? 1 : 0) : gA.tril(unit ? -1 : 0);
  }
  return {gA, n.needs_input_grad(1) ? gB : Tensor()};
}

// cholesky (Murray 2016, as PyTorch's cholesky_backward): with Phi the lower
// triangle with halved diagonal, gA = L^-H Phi(L^H gL) L^-1, symmetrised.
variable_list cholesky_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor L = n.saved(0);
  Tensor gA = mH(L).matmul(g[0]).tril();
  gA = (gA + mH(gA.tril(-1))) * 0.5;
  gA = linalg::solve_triangular(mH(L), gA, true, true);
  return {linalg::solve_triangular(L, gA, false, false)};
}

// lu_factor, square A = P L U: gA = P L^-H [tril(L^H gL, -1) + triu(gU U^H)] U^-H.
Tensor lu_backward_square(const Tensor& L, const Tensor& U, const Tensor& gL, const Tensor& gU) {
  Tensor phi = mH(L).matmul(gL).tril(-1) + gU.matmul(mH(U)).triu();
  phi = linalg::solve_triangular(mH(U), phi, false, false);
  return linalg::solve_triangular(mH(L), phi, true, true, true);
}

// Rectangular A reduces to the square block plus the rows (tall: L2 = A2 U^-1)
// or columns (wide: U2 = L^-1 A2) that depend linearly on it.
variable_list lu_factor_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor LU = n.saved(0), piv = n.saved(1);
  const int64_t m = LU.size(-2), ncols = LU.size(-1), k = std::min(m, ncols);
  auto [P, L, U] = lu_unpack(LU, piv);
  Tensor gL = g[0].narrow(-1, 0, k).tril(-1), gU = g[0].narrow(-2, 0, k).triu();
  if (m == ncols) return {P.matmul(lu_backward_square(L, U, gL, gU))};
  if (m > ncols) {
    Tensor L1 = L.narrow(-2, 0, k), L2 = L.narrow(-2, k, m - k);
    Tensor gA2 = linalg::solve_triangular(mH(U), gL.narrow(-2, k, m - k), false, false);  // gL2 U^-H
    Tensor gA1 = lu_backward_square(L1, U, gL.narrow(-2, 0, k), gU - mH(L2).matmul(gA2));
    return {P.matmul(cat({gA1, gA2}, -2))};
  }
  Tensor U1 = U.narrow(-1, 0, k), U2 = U.narrow(-1, k, ncols - k);
  Tensor gA2 = linalg::solve_triangular(mH(L), gU.narrow(-1, k, ncols - k), true, true, true);  // L^-H gU2
  Tensor gA1 = lu_backward_square(L, U1, gL - gA2.matmul(mH(U2)), gU.narrow(-1, 0, k));
  return {P.matmul(cat({gA1, gA2}, -1))};
}

// QR for m >= n (Walter & Lehmann): M = R gR^H - gQ^H Q,
// gA = (gQ + Q copyltu(M)) R^-H with copyltu mirroring the lower triangle.
Tensor qr_backward_tall(const Tensor& gQ, const Tensor& gR, const Tensor& Q, const Tensor& R) {
  Tensor M = add_defined(gR.defined() ? R.matmul(mH(gR)) : Tensor(), gQ.defined() ? -mH(gQ).matmul(Q) : Tensor());
  Tensor b = M.tril(-1);
  Tensor d = real_part(M.diagonal(0, -2, -1));
  Tensor sym = b + mH(b) + diag_embed(d);
  Tensor X = add_defined(gQ, Q.matmul(sym));
  return linalg::solve_triangular(mH(R), X, false, false);
}

variable_list qr_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor Q = n.saved(0), R = n.saved(1);
  EMBER_CHECK(Q.numel() > 0 || R.numel() == 0,
              "linalg.qr: The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
              "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.");
  const int64_t m = Q.size(-2), k = Q.size(-1), ncols = R.size(-1);
  EMBER_CHECK(!(n.ints[0] && m > ncols),
              "linalg.qr: The QR decomposition is not differentiable when mode='complete' and nrows > ncols.");
  if (m >= ncols) return {to_input(qr_backward_tall(g[0], g[1], Q, R), n)};
  // Wide A = [X | Y] with R = [U | V]: X = Q U is square, Y = Q V.
  Tensor U = R.narrow(-1, 0, k), V = R.narrow(-1, k, ncols - k);
  Tensor gU = g[1].defined() ? g[1].narrow(-1, 0, k) : Tensor();
  Tensor gV = g[1].defined() ? g[1].narrow(-1, k, ncols - k) : Tensor();
  Tensor gY = gV.defined() ? Q.matmul(gV) : zeros_like(V);
  Tensor gQ = add_defined(g[0], gV.defined() ? Q.matmul(V).matmul(mH(gV)) : Tensor());
  return {to_input(cat({qr_backward_tall(gQ, gU, Q, U), gY}, -1), n)};
}

// eigh: gA = V (diag(gL) + offdiag(skew(V^H gV) / 2 / (L_j - L_i))) V^H.
variable_list eigh_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor L = n.saved(0), V = n.saved(1);
  const int64_t k = L.size(-1);
  Tensor inner = g[0].defined() ? diag_embed(g[0]).to(V.dtype()) : Tensor();
  if (g[1].defined()) {
    Tensor VhgV = mH(V).matmul(g[1]);
    if (V.is_complex()) {
      const Tensor im = imag(VhgV.diagonal(0, -2, -1));
      check_phase_invariant(im, zeros_like(im), "linalg_eigh_backward", "eigenvectors");
    }
    VhgV = (VhgV - mH(VhgV)) * 0.5;
    Tensor E = L.unsqueeze(-2) - L.unsqueeze(-1) + eye(k, TensorOptions(L.dtype()));
    inner = add_defined(inner, VhgV / E * off_diagonal_mask(k).to(L.dtype()));
  }
  if (!inner.defined()) return {Tensor()};
  return {to_input(V.matmul(inner).matmul(mH(V)), n)};
}

// eig (non-Hermitian): gA = V^-H (diag(gL) + offdiag(P(V^H gV) / conj(L_j - L_i))) V^H,
// P projecting out the change of the eigenvectors' norm.
variable_list eig_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor L = n.saved(0), V = n.saved(1);
  const int64_t k = L.size(-1);
  Tensor inner = g[0].defined() ? diag_embed(g[0]) : Tensor();
  if (g[1].defined()) {
    Tensor VhgV = mH(V).matmul(g[1]);
    const Tensor im = imag(VhgV.diagonal(0, -2, -1));
    check_phase_invariant(im, zeros_like(im), "linalg_eig_backward", "eigenvectors");
    Tensor re = real_part(VhgV.diagonal(0, -2, -1));
    VhgV = VhgV - mH(V).matmul(V * re.unsqueeze(-2));
    Tensor Lc = L.conj();
    Tensor E = Lc.unsqueeze(-2) - Lc.unsqueeze(-1) + eye(k, TensorOptions(L.dtype()));
    inner = add_defined(inner, VhgV / E * off_diagonal_mask(k).to(L.dtype()));
  }
  if (!inner.defined()) return {Tensor()};
  return {to_input(linalg::solve(mH(V), inner.matmul(mH(V))), n)};
}

// svd (as PyTorch's svd_backward, thin factors): with E_ij = S_j^2 - S_i^2,
// gA = U [offdiag((skew(U^H gU) S + S skew(V^H gV)) / E) + diag(gS)] V^H
//      + (I - U U^H) gU S^-1 V^H + U S^-1 gV^H (I - V V^H).
variable_list svd_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor S = n.saved(1);
  const int64_t k = S.size(-1);
  Tensor U = n.saved(0).narrow(-1, 0, k), Vh = n.saved(2).narrow(-2, 0, k);
  Tensor gU = g[0].defined() ? g[0].narrow(-1, 0, k) : Tensor();
  Tensor gVh = g[2].defined() ? g[2].narrow(-2, 0, k) : Tensor();
  const Tensor& gS = g[1];
  const int64_t m = U.size(-2), ncols = Vh.size(-1);
  const ScalarType dt = U.dtype();
  if (!gU.defined() && !gVh.defined()) {
    if (!gS.defined()) return {Tensor()};
    return {to_input((U * gS.unsqueeze(-2).to(dt)).matmul(Vh), n)};
  }
  Tensor V = mH(Vh), gV = gVh.defined() ? mH(gVh) : Tensor();
  auto skew = [](const Tensor& X) { return X - mH(X); };
  Tensor UhgU = gU.defined() ? skew(mH(U).matmul(gU)) : Tensor();
  Tensor VhgV = gV.defined() ? skew(mH(V).matmul(gV)) : Tensor();
  if (U.is_complex()) {  // diag(skew(X)) = 2i Im(X_ii): the phases of U and V must cancel
    const Tensor zero = zeros(S.sizes(), TensorOptions(S.dtype()));
    const Tensor u_im = UhgU.defined() ? imag(UhgU.diagonal(0, -2, -1)) : zero;
    const Tensor v_im = VhgV.defined() ? imag(VhgV.diagonal(0, -2, -1)) : zero;
    check_phase_invariant(u_im, -v_im, "svd_backward", "singular vectors");
  }
  Tensor Sc = S.to(dt);
  Tensor S2 = S * S;
  Tensor E = (S2.unsqueeze(-2) - S2.unsqueeze(-1) + eye(k, TensorOptions(S.dtype()))).to(dt);
  Tensor num = add_defined(UhgU.defined() ? UhgU * Sc.unsqueeze(-2) : Tensor(),
                           VhgV.defined() ? Sc.unsqueeze(-1) * VhgV : Tensor());
  Tensor inner = num / E * off_diagonal_mask(k).to(dt);
  if (gS.defined()) inner = inner + diag_embed(gS).to(dt);
  if (U.is_complex() && UhgU.defined()) inner = inner + diag_embed(UhgU.diagonal(0, -2, -1) / (Sc * 2));
  Tensor gA;
  if (m > ncols && gU.defined()) {
    Tensor gUSinv = gU / Sc.unsqueeze(-2);
    gA = (U.matmul(inner) + gUSinv - U.matmul(mH(U).matmul(gUSinv))).matmul(Vh);
  } else if (m < ncols && gV.defined()) {
    Tensor SinvgVh = gVh / Sc.unsqueeze(-1);
    gA = U.matmul(inner.matmul(Vh) + SinvgVh - SinvgVh.matmul(V).matmul(Vh));
  } else {
    gA = U.matmul(inner).matmul(Vh);
  }
  return {to_input(gA, n)};
}

// matrix_exp: the Fréchet derivative's adjoint is the upper-right block of
// exp([[A^H, g], [0, A^H]]) (Najfeld & Havel), itself differentiable.
variable_list matrix_exp_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor A = n.saved(0);
  const int64_t k = A.size(-1);
  Tensor Ah = mH(A);
  Tensor gg = g[0].expand(A.sizes());
  Tensor M = cat({cat({Ah, gg}, -1), cat({zeros_like(Ah), Ah}, -1)}, -2);
  return {linalg::matrix_exp(M).narrow(-2, 0, k).narrow(-1, k, k)};
}

// Remembers whether the (first) input is complex, for to_input.
void mark_input(FormulaNode& node, const Tensor& A) { node.ints.push_back(A.is_complex() ? 1 : 0); }

}  // namespace

void record_linalg_det(const Tensor& A, const Tensor& det) {
  auto node = record("LinalgDetBackward0", &det_backward, {A}, {det});
  node->save(A);
  node->save(det, true);
}
void record_linalg_slogdet(const Tensor& A, const Tensor& sign, const Tensor& logabsdet) {
  auto node = record("LinalgSlogdetBackward0", &slogdet_backward, {A}, {sign, logabsdet});
  node->save(A);
  node->save(sign, true);
}
void record_linalg_inv(const Tensor& A, const Tensor& inverse) {
  record("LinalgInvExBackward0", &inv_backward, {A}, {inverse})->save(inverse, true);
}
void record_linalg_solve(const Tensor& A, const Tensor& B, const Tensor& X) {
  auto node = record("LinalgSolveExBackward0", &solve_backward, {A, B}, {X});
  node->save(A);
  node->save(X, true);
}
void record_linalg_solve_triangular(const Tensor& A, const Tensor& B, const Tensor& X, bool upper, bool unitriangular) {
  auto node = record("LinalgSolveTriangularBackward0", &solve_triangular_backward, {A, B}, {X});
  node->save(A);
  node->save(X, true);
  node->ints = {upper ? 1 : 0, unitriangular ? 1 : 0};
}
void record_linalg_cholesky(const Tensor& A, const Tensor& L) {
  record("LinalgCholeskyExBackward0", &cholesky_backward, {A}, {L})->save(L, true);
}
void record_linalg_lu_factor(const Tensor& A, const Tensor& LU, const Tensor& pivots) {
  auto node = record("LinalgLuFactorExBackward0", &lu_factor_backward, {A}, {LU});
  node->save(LU, true);
  node->save(pivots);
}
void record_linalg_qr(const Tensor& A, const Tensor& Q, const Tensor& R, bool complete) {
  auto node = record("LinalgQrBackward0", &qr_backward, {A}, {Q, R});
  node->save(Q.defined() ? Q : empty({0}, TensorOptions(A.dtype())), Q.defined());
  node->save(R, true);
  node->ints = {complete ? 1 : 0};
  mark_input(*node, A);
}
void record_linalg_eigh(const Tensor& A, const Tensor& L, const Tensor& V) {
  auto node = record("LinalgEighBackward0", &eigh_backward, {A}, {L, V});
  node->save(L, true);
  node->save(V, true);
  mark_input(*node, A);
}
void record_linalg_eig(const Tensor& A, const Tensor& L, const Tensor& V) {
  auto node = record("LinalgEigBackward0", &eig_backward, {A}, {L, V});
  node->save(L, true);
  node->save(V, true);
  mark_input(*node, A);
}
void record_linalg_svd(const Tensor& A, const Tensor& U, const Tensor& S, const Tensor& Vh) {
  auto node = record("LinalgSvdBackward0", &svd_backward, {A}, {U, S, Vh});
  node->save(U, true);
  node->save(S, true);
  node->save(Vh, true);
  mark_input(*node, A);
}
void record_linalg_matrix_exp(const Tensor& A, const Tensor& out) {
  record("LinalgMatrixExpBackward0", &matrix_exp_backward, {A}, {out})->save(A);
}

}  // namespace torch::autograd
