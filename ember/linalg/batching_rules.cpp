#include "ember/linalg/batching_rules.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/linalg.h"
#include "ember/ops/all_ops.h"

namespace torch::batching {

namespace {
// The batch size at `level` of the first operand batched there.
int64_t operand_batch(std::initializer_list<LinalgOperand> ops, int64_t level) {
  for (const LinalgOperand& o : ops) {
    const BatchedMeta* m = batched_meta(*o.t);
    if (m != nullptr && m->level == level) return m->value.size(m->bdim);
  }
  return 1;
}

bool batched_at(const Tensor& t, int64_t level) {
  const BatchedMeta* m = batched_meta(t);
  return m != nullptr && m->level == level;
}

// A result that is a placeholder (undefined, or the empty tensor an op
// returns for "not computed") stays unbatched: every sample has it.
Tensor wrap_unless(Tensor t, int64_t level, bool placeholder) { return placeholder ? t : wrap(std::move(t), level); }
}  // namespace

std::vector<Tensor> line_up_batches(std::initializer_list<LinalgOperand> ops, int64_t level, const char* op) {
  int64_t rank = 0;
  for (const LinalgOperand& o : ops) {
    EMBER_CHECK(o.t->defined() && o.t->dim() >= o.core, op, ": expected an operand with at least ", o.core,
                " dimension(s), got shape ", o.t->defined() ? shape_str(o.t->sizes()) : std::string("(undefined)"));
    rank = std::max(rank, o.t->dim() - o.core);
  }
  const int64_t b = operand_batch(ops, level);
  std::vector<Tensor> phys;
  phys.reserve(ops.size());
  for (const LinalgOperand& o : ops) {
    // Unbatched operands are expanded (a view): several ops (lu_unpack,
    // householder_product) want equal batch dims, not broadcastable ones.
    Tensor v = front_or_expand(*o.t, level, b);
    for (int64_t k = o.t->dim() - o.core; k < rank; ++k) v = v.unsqueeze(1);
    phys.push_back(std::move(v));
  }
  return phys;
}

// ---- linalg -------------------------------------------------------------------

namespace {
// Note [shared coefficient matrix]
// A solve whose A is shared by all samples and whose B is batched needs one
// factorization of A, not one per sample: the samples become more columns
// of one right-hand side (left: A X = B) or more rows (X A = B), and are
// split off the solution again. `v` is B's physical tensor [S, *batch, r, c];
// the folded tensor gets leading 1s up to `rank` (A's), so that a solve
// never mistakes it for a batch of vectors.
Tensor fold_samples(const Tensor& v, bool left, int64_t rank) {
  // left: [*batch, r, c, S] -> [*batch, r, c * S]; otherwise [*batch, S, r, c] -> [*batch, S * r, c].
  const Tensor f = left ? v.movedim(0, -1) : v.movedim(0, -3);
  DimVector out(f.sizes());
  out.resize(out.size() - (left ? 1 : 2));
  if (left) {
    out.back() = f.size(-2) * f.size(-1);
  } else {
    out.back() = f.size(-3) * f.size(-2);
    out.push_back(f.size(-1));
  }
  while (static_cast<int64_t>(out.size()) < rank) out.insert(0, 1);
  return f.reshape(out);
}
// The inverse of fold_samples on the solution X, for `s` samples.
Tensor unfold_samples(const Tensor& X, bool left, int64_t s) {
  DimVector shape(X.sizes());
  shape.resize(shape.size() - (left ? 1 : 2));
  if (left) {
    shape.push_back(X.size(-1) / s);
    shape.push_back(s);
    return X.reshape(shape).movedim(-1, 0);
  }
  shape.push_back(s);
  shape.push_back(X.size(-2) / s);
  shape.push_back(X.size(-1));
  return X.reshape(shape).movedim(-3, 0);
}
// Whether Note [shared coefficient matrix] applies: A shared at this level,
// B batched there with at least one sample.
bool shared_coefficient(const Tensor& A, const Tensor& B, int64_t level) {
  return !batched_at(A, level) && batched_at(B, level) && peel_front(B, level).value.size(0) > 0;
}
}  // namespace

std::tuple<Tensor, Tensor> solve_ex_batched(const Tensor& A, const Tensor& B, bool left, bool check_errors) {
  constexpr const char* op = "linalg.solve";
  EMBER_CHECK(A.dim() >= 2, op, ": A must have at least 2 dimensions, got ", shape_str(A.sizes()));
  EMBER_CHECK(B.dim() >= 1, op, ": B must have at least 1 dimension, got ", shape_str(B.sizes()));
  // Whether B is a (batch of) vector(s) is decided on the logical shapes (the
  // physical ones would read the vmapped dim as a batch dim).
  const bool vector = B.dim() == 1 || (B.dim() == A.dim() - 1 && B.sizes() == A.sizes().slice(0, A.dim() - 1));
  EMBER_CHECK(left || !vector, op, ": a vector B is only supported with left=True (A ", shape_str(A.sizes()), ", B ",
              shape_str(B.sizes()), ")");
  const int64_t level = top_level({&A, &B});
  if (shared_coefficient(A, B, level)) {
    Tensor v = peel_front(B, level).value;
    if (vector) v = v.unsqueeze(-1);
    auto [X, info] = linalg::solve_ex(A, fold_samples(v, left, A.dim()), left, check_errors);
    X = unfold_samples(X, left, v.size(0));
    // One factorization for all samples: its info is every sample's.
    return {wrap(vector ? X.squeeze(-1) : X, level), info};
  }
  std::vector<Tensor> p = line_up_batches({{&A, 2}, {&B, vector ? 1 : 2}}, level, op);
  if (vector) p[1] = p[1].unsqueeze(-1);
  auto [X, info] = linalg::solve_ex(p[0], p[1], left, check_errors);
  return {wrap(vector ? X.squeeze(-1) : X, level), wrap(info, level)};
}

Tensor solve_triangular_batched(const Tensor& A, const Tensor& B, bool upper, bool left, bool unitriangular) {
  const int64_t level = top_level({&A, &B});
  if (shared_coefficient(A, B, level)) {
    const Tensor v = peel_front(B, level).value;
    EMBER_CHECK(B.dim() >= 2, "linalg.solve_triangular: B must have at least 2 dimensions, got shape ",
                shape_str(B.sizes()));
    return wrap(unfold_samples(linalg::solve_triangular(A, fold_samples(v, left, A.dim()), upper, left, unitriangular),
                               left, v.size(0)),
                level);
  }
  std::vector<Tensor> p = line_up_batches({{&A, 2}, {&B, 2}}, level, "linalg.solve_triangular");
  return wrap(linalg::solve_triangular(p[0], p[1], upper, left, unitriangular), level);
}

std::tuple<Tensor, Tensor, Tensor> lu_unpack_batched(const Tensor& LU, const Tensor& pivots, bool unpack_data,
                                                     bool unpack_pivots) {
  const int64_t level = top_level({&LU, &pivots});
  std::vector<Tensor> p = line_up_batches({{&LU, 2}, {&pivots, 1}}, level, "torch.lu_unpack");
  auto [P, L, U] = lu_unpack(p[0], p[1], unpack_data, unpack_pivots);
  // What was not unpacked is one unbatched empty tensor.
  return {wrap_unless(P, level, !unpack_pivots), wrap_unless(L, level, !unpack_data),
          wrap_unless(U, level, !unpack_data)};
}

Tensor householder_product_batched(const Tensor& A, const Tensor& tau) {
  const int64_t level = top_level({&A, &tau});
  std::vector<Tensor> p = line_up_batches({{&A, 2}, {&tau, 1}}, level, "torch.linalg.householder_product");
  return wrap(linalg::householder_product(p[0], p[1]), level);
}

std::tuple<Tensor, Tensor> qr_batched(const Tensor& A, std::string_view mode) {
  const int64_t level = batched_meta(A)->level;
  auto [Q, R] = linalg::qr(peel_front(A, level).value, mode);
  // Mode "r" returns an empty Q for the whole call, not one per sample.
  return {wrap_unless(Q, level, mode == "r"), wrap(R, level)};
}

std::tuple<Tensor, Tensor, Tensor, Tensor> lstsq_batched(const Tensor& A, const Tensor& B, std::optional<double> rcond,
                                                         std::optional<std::string_view> driver) {
  const int64_t level = top_level({&A, &B});
  std::vector<Tensor> p = line_up_batches({{&A, 2}, {&B, 2}}, level, "torch.linalg.lstsq");
  auto [X, residuals, rank, sv] = linalg::lstsq(p[0], p[1], rcond, driver);
  const std::string_view d = driver.value_or("gelsy");
  // Results a driver does not compute are 1-d empty placeholders; a computed
  // residual has the batch and a column dim, so it is never 1-d here.
  return {wrap(X, level), wrap_unless(residuals, level, residuals.dim() == 1), wrap_unless(rank, level, d == "gels"),
          wrap_unless(sv, level, d != "gelsd" && d != "gelss")};
}

Tensor cross_batched(const Tensor& a, const Tensor& b, int64_t dim) {
  constexpr const char* op = "linalg.cross";
  EMBER_CHECK(a.dim() == b.dim(), op, ": inputs must have the same number of dimensions (got ", shape_str(a.sizes()),
              " and ", shape_str(b.sizes()), ")");
  const int64_t level = top_level({&a, &b});
  std::vector<Tensor> p = line_up_batches({{&a, a.dim()}, {&b, b.dim()}}, level, op);
  return wrap(linalg::cross(p[0], p[1], phys_dim(dim, a.dim(), op)), level);
}

// ---- fft ----------------------------------------------------------------------

DimVector fft_phys_dims(const char* op, const Tensor& self, OptionalIntArrayRef s, OptionalIntArrayRef dim) {
  const int64_t nd = self.dim();
  DimVector r;
  if (dim) {
    for (int64_t d : *dim) r.push_back(fft_phys_dim(d, nd, op));
    return r;
  }
  int64_t first = 0;
  if (s) {
    const int64_t ns = static_cast<int64_t>(s->size());
    EMBER_CHECK(ns <= nd, op, ": Got shape with ", ns, " values but input tensor only has ", nd, " dimensions.");
    first = nd - ns;
  }
  for (int64_t d = first; d < nd; ++d) r.push_back(d + 1);
  return r;
}

namespace {
// The signal ops take one or a batch of signals: a logical input of rank
// `base` (one signal) is the physical batch as it is; one of rank base + 1
// has its channels folded into the batch and unfolded from the result.
Tensor signal_batched(const char* op, int64_t base, const Tensor& self, const std::optional<Tensor>& window,
                      const SignalFn& fn) {
  const int64_t level = top_level({&self, window ? &*window : nullptr});
  EMBER_CHECK(!(window && batched_at(*window, level)), op,
              ": a window batched by vmap is not supported (it must be shared by all samples)");
  EMBER_CHECK(self.dim() == base || self.dim() == base + 1, op, ": expected a tensor with ", base, " or ", base + 1,
              " dimensions, but got a tensor of size ", shape_str(self.sizes()));
  const Tensor v = peel_front(self, level).value;
  if (self.dim() == base) return wrap(fn(v), level);
  const Tensor out = fn(v.flatten(0, 1));
  DimVector shape{v.size(0), v.size(1)};
  for (int64_t k = 1; k < out.dim(); ++k) shape.push_back(out.size(k));
  return wrap(out.reshape(shape), level);
}
}  // namespace

Tensor stft_batched(const Tensor& self, const std::optional<Tensor>& window, const SignalFn& fn) {
  return signal_batched("stft", 1, self, window, fn);
}

Tensor istft_batched(const Tensor& self, const std::optional<Tensor>& window, const SignalFn& fn) {
  return signal_batched("istft", 2, self, window, fn);
}

}  // namespace torch::batching
