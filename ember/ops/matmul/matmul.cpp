// The matmul family: every op validates its operands with PyTorch's rules and
// messages, shapes them into a (batched) GEMM and calls gemm_batched once.
#include "ember/ops/matmul/matmul.h"
#include "ember/core/record_scope.h"

#include "ember/autograd/derivatives/matmul_grad.h"
#include "ember/autograd/formula_node.h"

#include <complex>

#include "ember/core/dispatch.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/gemm.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/type_promotion.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/mem_overlap.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batching_rules.h"

namespace torch {
namespace {

bool is_zero(const Scalar& s) { return s.toComplexDouble() == complex128(0, 0); }

void check_same_dtype(const char* op, const Tensor& a, const char* an, const Tensor& b, const char* bn) {
  EMBER_CHECK(a.dtype() == b.dtype(), op, ": expected ", an, " and ", bn,
              " to have the same dtype, but got: ", a.dtype(), " != ", b.dtype());
}

void check_supported(const char* op, const Tensor& t) {
  EMBER_CHECK(t.dtype() != kBool, op, ": not implemented for 'Bool'");
}

std::string mat_str(const Tensor& t) { return str(t.size(0), "x", t.size(1)); }

// out[..., m, n] = alpha * a @ b (+ beta * init broadcast to out's shape).
// a [..., m, k] and b [..., k, n] already broadcast to the same batch dims.
Tensor gemm_into_new(const char* op, const Tensor& a, const Tensor& b, const Tensor* init, const Scalar& beta,
                     const Scalar& alpha) {
  DimVector shape(a.sizes());
  shape.back() = b.sizes().back();
  Tensor c = empty(shape, a.options());
  // self is validated even when beta == 0 makes its values irrelevant, as in PyTorch.
  if (init != nullptr) {
    check_same_dtype(op, *init, "self", b, "mat2");
    const DimVector bshape = broadcast_shapes(init->sizes(), shape, op);
    EMBER_CHECK(IntArrayRef(bshape) == IntArrayRef(shape), op, ": self of shape ", shape_str(init->sizes()),
                " cannot be broadcast to the result shape ", shape_str(shape));
  }
  const bool use_init = init != nullptr && !is_zero(beta);
  // The linear layer's bias + x @ w.t() (Note [Linear with a fused bias]).
  if (use_init && beta.equal(Scalar(1)) && alpha.equal(Scalar(1)) && kernels::addmm_bias_f32(*init, a, b, c)) {
    const Tensor init_t = *init;
    if (autograd::needs_grad(a, b, init_t)) autograd::record_gemm(op, a, b, init_t, c, alpha, beta);
    return c;
  }
  if (use_init) {
    autograd::BelowAutogradGuard no_grad;  // the op records one node below
    c.copy_(init->expand(shape));
  }
  kernels::gemm_batched(a, b, c, alpha, use_init ? beta : Scalar(0));
  const Tensor init_t = init != nullptr ? *init : Tensor();
  if (autograd::needs_grad(a, b, init_t)) autograd::record_gemm(op, a, b, init_t, c, alpha, beta);
  return c;
}

void check_mm_operands(const char* op, const Tensor& m1, const Tensor& m2, const char* n1 = "self",
                       const char* n2 = "mat2") {
  EMBER_CHECK(m1.dim() == 2, op, ": ", n1, " must be a matrix, got ", m1.dim(), "-D tensor");
  EMBER_CHECK(m2.dim() == 2, op, ": ", n2, " must be a matrix, got ", m2.dim(), "-D tensor");
  EMBER_CHECK(m1.size(1) == m2.size(0), op, ": mat1 and mat2 shapes cannot be multiplied (", mat_str(m1), " and ",
              mat_str(m2), ")");
  check_same_dtype(op, m1, "m1", m2, "m2");
  check_supported(op, m1);
}

void check_bmm_operands(const char* op, const Tensor& b1, const Tensor& b2) {
  EMBER_CHECK(b1.dim() == 3, op, ": batch1 must be a 3D tensor, got ", b1.dim(), "-D");
  EMBER_CHECK(b2.dim() == 3, op, ": batch2 must be a 3D tensor, got ", b2.dim(), "-D");
  EMBER_CHECK(b1.size(0) == b2.size(0), op, ": batch1 and batch2 must have same number of batches, got ", b1.size(0),
              " and ", b2.size(0));
  EMBER_CHECK(b1.size(2) == b2.size(1), op, ": Expected size for first two dimensions of batch2 tensor to be: [",
              b1.size(0), ", ", b1.size(2), "] but got: [", b2.size(0), ", ", b2.size(1), "].");
  check_same_dtype(op, b1, "batch1", b2, "batch2");
  check_supported(op, b1);
}

void check_mv_operands(const char* op, const Tensor& mat, const Tensor& vec) {
  EMBER_CHECK(mat.dim() == 2 && vec.dim() == 1, op, ": expected a 2-D matrix and a 1-D vector, got ", mat.dim(),
              "-D and ", vec.dim(), "-D");
  EMBER_CHECK(mat.size(1) == vec.size(0), op, ": size mismatch, got ", mat.size(0), ", ", mat_str(mat), ",",
              vec.size(0));
  check_same_dtype(op, mat, "mat", vec, "vec");
  check_supported(op, mat);
}

void check_dot_operands(const char* op, const Tensor& a, const Tensor& b) {
  EMBER_CHECK(a.dim() == 1 && b.dim() == 1, op, ": 1D tensors expected, but got ", a.dim(), "D and ", b.dim(),
              "D tensors");
  EMBER_CHECK(a.size(0) == b.size(0), op, ": inconsistent tensor size, expected tensor [", a.size(0), "] and src [",
              b.size(0), "] to have the same number of elements, but got ", a.size(0), " and ", b.size(0),
              " elements respectively");
  EMBER_CHECK(a.dtype() == b.dtype(), op, ": expected both vectors to have same dtype, but found ", a.dtype(), " and ",
              b.dtype());
  check_supported(op, a);
}

// outer product in dtype `dt` (the promoted one); bool computes in uint8.
Tensor outer_impl(const char* op, const Tensor& v1, const Tensor& v2, ScalarType dt, const Tensor* init,
                  const Scalar& beta, const Scalar& alpha) {
  const ScalarType ct = dt == kBool ? kByte : dt;
  Tensor a = ops::cast(v1, ct).unsqueeze(1);
  Tensor b = ops::cast(v2, ct).unsqueeze(0);
  Tensor s = init != nullptr ? ops::cast(*init, ct) : Tensor();
  Tensor r = gemm_into_new(op, a, b, init != nullptr ? &s : nullptr, beta, alpha);
  return dt == kBool ? ops::cast(r, kBool) : r;
}

}  // namespace

Tensor mm(const Tensor& self, const Tensor& mat2) {
  if (batching::any_batched(self, mat2)) [[unlikely]] {
    check_mm_operands("mm", self, mat2);
    return batching::matmul_batched(self, mat2);
  }
  EMBER_RECORD_OP("mm", self, mat2);
  check_mm_operands("mm", self, mat2);
  return gemm_into_new("mm", self, mat2, nullptr, 0, 1);
}

Tensor bmm(const Tensor& self, const Tensor& mat2) {
  if (batching::any_batched(self, mat2)) [[unlikely]] {
    check_bmm_operands("bmm", self, mat2);
    return batching::matmul_batched(self, mat2);
  }
  EMBER_RECORD_OP("bmm", self, mat2);
  check_bmm_operands("bmm", self, mat2);
  return gemm_into_new("bmm", self, mat2, nullptr, 0, 1);
}

Tensor mv(const Tensor& self, const Tensor& vec) {
  if (batching::any_batched(self, vec)) [[unlikely]] {
    check_mv_operands("mv", self, vec);
    return batching::matmul_batched(self, vec);
  }
  EMBER_RECORD_OP("mv", self, vec);
  check_mv_operands("mv", self, vec);
  return gemm_into_new("mv", self, vec.unsqueeze(1), nullptr, 0, 1).squeeze(1);
}

Tensor dot(const Tensor& self, const Tensor& other) {
  if (batching::any_batched(self, other)) [[unlikely]] {
    check_dot_operands("dot", self, other);
    return batching::matmul_batched(self, other);
  }
  EMBER_RECORD_OP("dot", self, other);
  check_dot_operands("dot", self, other);
  return gemm_into_new("dot", self.unsqueeze(0), other.unsqueeze(1), nullptr, 0, 1).view(IntArrayRef());
}

Tensor vdot(const Tensor& self, const Tensor& other) {
  if (batching::any_batched(self, other)) [[unlikely]] {
    check_dot_operands("vdot", self, other);
    return batching::matmul_batched(ember::conj(self), other);
  }
  EMBER_RECORD_OP("vdot", self, other);
  check_dot_operands("vdot", self, other);
  return gemm_into_new("vdot", ember::conj(self).unsqueeze(0), other.unsqueeze(1), nullptr, 0, 1).view(IntArrayRef());
}

Tensor outer(const Tensor& self, const Tensor& vec2) {
  if (batching::any_batched(self, vec2)) [[unlikely]] {
    EMBER_CHECK(self.dim() == 1 && vec2.dim() == 1, "outer: Expected 1-D arguments, but got ", self.dim(), "-D and ",
                vec2.dim(), "-D");
    return self.unsqueeze(1) * vec2.unsqueeze(0);
  }
  EMBER_RECORD_OP("outer", self, vec2);
  EMBER_CHECK(self.dim() == 1, "outer: Expected 1-D argument self, but got ", self.dim(), "-D");
  EMBER_CHECK(vec2.dim() == 1, "outer: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  return outer_impl("outer", self, vec2, result_type(self, vec2), nullptr, 0, 1);
}

Tensor ger(const Tensor& self, const Tensor& vec2) {
  EMBER_RECORD_OP("ger", self, vec2);
  return outer(self, vec2);
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  if (batching::any_batched(self, mat1, mat2)) [[unlikely]] {
    Tensor prod = mm(mat1, mat2);
    if (!alpha.equal(Scalar(1))) prod = prod * alpha;
    return beta.equal(Scalar(0)) ? prod : add(prod, self, beta);
  }
  EMBER_RECORD_OP("addmm", self, mat1, mat2);
  check_mm_operands("addmm", mat1, mat2, "mat1", "mat2");
  check_same_dtype("addmm", self, "self", mat2, "mat2");
  return gemm_into_new("addmm", mat1, mat2, &self, beta, alpha);
}

Tensor& addmm_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  EMBER_RECORD_OP("addmm_", self, mat1, mat2);
  check_mm_operands("addmm_", mat1, mat2, "mat1", "mat2");
  EMBER_CHECK(self.dim() == 2 && self.size(0) == mat1.size(0) && self.size(1) == mat2.size(1), "addmm_: self of shape ",
              shape_str(self.sizes()), " does not match the result shape [", mat1.size(0), ", ", mat2.size(1), "]");
  if (!batching::is_batched(self)) ops::assert_no_internal_overlap("addmm_", self);
  self.copy_(addmm(self, mat1, mat2, beta, alpha));
  return self;
}

namespace {
// Under vmap the add* ops are beta * self + alpha * product from ops with
// batching rules; beta == 0 ignores self (NaN and inf included), as the kernels.
Tensor add_scaled_product(const Tensor& self, Tensor product, const Scalar& beta, const Scalar& alpha) {
  if (!(alpha.isIntegral(false) && alpha.toLong() == 1)) product = product * alpha;
  if (!beta.isComplex() && beta.toDouble() == 0) {
    (void)self.expand(product.sizes());  // self must still broadcast to the result
    return product.to(result_type(TensorList{self, product}));
  }
  const bool beta1 = beta.isIntegral(false) && beta.toLong() == 1;
  return (beta1 ? self : self * beta) + product;
}
}  // namespace

Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
               const Scalar& alpha) {
  if (batching::any_batched(self, batch1, batch2)) [[unlikely]] {
    check_bmm_operands("baddbmm", batch1, batch2);
    check_same_dtype("baddbmm", self, "self", batch2, "batch2");
    return add_scaled_product(self, matmul(batch1, batch2), beta, alpha);
  }
  EMBER_RECORD_OP("baddbmm", self, batch1, batch2);
  check_bmm_operands("baddbmm", batch1, batch2);
  check_same_dtype("baddbmm", self, "self", batch2, "batch2");
  return gemm_into_new("baddbmm", batch1, batch2, &self, beta, alpha);
}

Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta, const Scalar& alpha) {
  if (batching::any_batched(self, batch1, batch2)) [[unlikely]] {
    check_bmm_operands("addbmm", batch1, batch2);
    check_same_dtype("addbmm", self, "self", batch2, "batch2");
    return add_scaled_product(self, matmul(batch1, batch2).sum(0), beta, alpha);
  }
  EMBER_RECORD_OP("addbmm", self, batch1, batch2);
  check_bmm_operands("addbmm", batch1, batch2);
  check_same_dtype("addbmm", self, "self", batch2, "batch2");
  // sum_b b1[b] @ b2[b] == [b1[0] | b1[1] | ...] @ [b2[0]; b2[1]; ...]: one GEMM with k = B * k.
  const int64_t nb = batch1.size(0), m = batch1.size(1), k = batch1.size(2), n = batch2.size(2);
  Tensor a = batch1.permute({1, 0, 2}).reshape({m, nb * k});
  Tensor b = batch2.reshape({nb * k, n});
  return gemm_into_new("addbmm", a, b, &self, beta, alpha);
}

Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) {
  if (batching::any_batched(self, mat, vec)) [[unlikely]] {
    check_mv_operands("addmv", mat, vec);
    check_same_dtype("addmv", self, "self", mat, "mat");
    EMBER_CHECK(self.dim() <= 1, "addmv: self must be a vector or scalar, got ", self.dim(), "-D");
    return add_scaled_product(self, matmul(mat, vec), beta, alpha);
  }
  EMBER_RECORD_OP("addmv", self, mat, vec);
  check_mv_operands("addmv", mat, vec);
  check_same_dtype("addmv", self, "self", mat, "mat");
  EMBER_CHECK(self.dim() <= 1, "addmv: self must be a vector or scalar, got ", self.dim(), "-D");
  Tensor init = self.dim() == 1 ? self.unsqueeze(1) : self;
  return gemm_into_new("addmv", mat, vec.unsqueeze(1), &init, beta, alpha).squeeze(1);
}

Tensor addr(const Tensor& self, const Tensor& vec1, const Tensor& vec2, const Scalar& beta, const Scalar& alpha) {
  EMBER_CHECK(vec1.dim() == 1, "addr: Expected 1-D argument vec1, but got ", vec1.dim(), "-D");
  EMBER_CHECK(vec2.dim() == 1, "addr: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  if (batching::any_batched(self, vec1, vec2)) [[unlikely]]
    return add_scaled_product(self, vec1.unsqueeze(1) * vec2.unsqueeze(0), beta, alpha);
  EMBER_RECORD_OP("addr", self, vec1, vec2);
  const ScalarType dt = result_type(TensorList{self, vec1, vec2});
  return outer_impl("addr", vec1, vec2, dt, &self, beta, alpha);
}

Tensor matmul(const Tensor& t1, const Tensor& t2) {
  if (batching::any_batched(t1, t2)) [[unlikely]]
    return batching::matmul_batched(t1, t2);
  EMBER_RECORD_OP("matmul", t1, t2);
  const int64_t d1 = t1.dim(), d2 = t2.dim();
  EMBER_CHECK(d1 >= 1 && d2 >= 1, "matmul: both arguments to matmul need to be at least 1D, but they are ", d1,
              "D and ", d2, "D");
  if (d1 == 1 && d2 == 1) return dot(t1, t2);
  if (d1 == 2 && d2 == 1) return mv(t1, t2);
  if (d1 == 1 && d2 == 2) return mm(t1.unsqueeze(0), t2).squeeze(0);
  if (d1 == 2 && d2 == 2) return mm(t1, t2);
  check_same_dtype("matmul", t1, "self", t2, "other");
  check_supported("matmul", t1);
  const int64_t n = d1 > 1 ? t1.size(-2) : 1, k1 = t1.size(-1);
  const int64_t k2 = d2 > 1 ? t2.size(-2) : t2.size(0), p = d2 > 1 ? t2.size(-1) : 1;
  EMBER_CHECK(k1 == k2, "matmul: mat1 and mat2 shapes cannot be multiplied (", n, "x", k1, " and ", k2, "x", p, ")");
  // [..., n, k] @ [k, p] with contiguous batch: fold the batch into rows, one big GEMM.
  if (d1 >= 3 && d2 <= 2 && t1.is_contiguous()) {
    int64_t rows = 1;
    for (int64_t d = 0; d < d1 - 1; ++d) rows *= t1.size(d);
    Tensor a = t1.view({rows, k1});
    Tensor b = d2 == 2 ? t2 : t2.unsqueeze(1);
    DimVector out(t1.sizes().slice(0, d1 - 1));
    if (d2 == 2) out.push_back(p);
    return gemm_into_new("matmul", a, b, nullptr, 0, 1).view(out);
  }
  // General case: broadcast the batch dims; expanded (stride-0) batches are not copied.
  IntArrayRef b1 = d1 > 2 ? t1.sizes().slice(0, d1 - 2) : IntArrayRef();
  IntArrayRef b2 = d2 > 2 ? t2.sizes().slice(0, d2 - 2) : IntArrayRef();
  DimVector batch = broadcast_shapes(b1, b2, "matmul");
  DimVector sa(batch), sb(batch);
  sa.push_back(n);
  sa.push_back(k1);
  sb.push_back(k2);
  sb.push_back(p);
  Tensor a = (d1 == 1 ? t1.unsqueeze(0) : t1).expand(sa);
  Tensor b = (d2 == 1 ? t2.unsqueeze(1) : t2).expand(sb);
  DimVector out(batch);
  if (d1 > 1) out.push_back(n);
  if (d2 > 1) out.push_back(p);
  return gemm_into_new("matmul", a, b, nullptr, 0, 1).view(out);
}

Tensor chain_matmul(TensorList matrices) {
  EMBER_RECORD_OP("chain_matmul", matrices);
  EMBER_CHECK(!matrices.empty(), "chain_matmul: Expected one or more matrices");
  for (const Tensor& m : matrices)
    EMBER_CHECK(m.dim() == 2, "chain_matmul: Tensor dimension is ", m.dim(), ", expected 2 instead.");
  Tensor r = matrices[0];
  if (matrices.size() == 1) return r.clone();
  for (size_t i = 1; i < matrices.size(); ++i) r = mm(r, matrices[i]);
  return r;
}

Tensor multi_dot(TensorList tensors) {
  const size_t n = tensors.size();
  EMBER_CHECK(n >= 2, "multi_dot: expected at least 2 tensors but got ", n);
  const Tensor& first = tensors[0];
  const Tensor& last = tensors[n - 1];
  EMBER_CHECK(first.dim() == 1 || first.dim() == 2, "multi_dot: the first tensor must be 1D or 2D but got ",
              first.dim(), "D");
  EMBER_CHECK(last.dim() == 1 || last.dim() == 2, "multi_dot: the last tensor must be 1D or 2D but got ", last.dim(),
              "D");
  for (size_t i = 1; i + 1 < n; ++i)
    EMBER_CHECK(tensors[i].dim() == 2, "multi_dot: tensor ", i, " must be 2D but got ", tensors[i].dim(), "D");
  // The checks above read logical ranks, so they hold for batched inputs too.
  if (batching::any_batched(tensors)) [[unlikely]]
    return batching::multi_dot_batched(tensors);
  EMBER_RECORD_OP("linalg_multi_dot", tensors);
  Tensor r = first.dim() == 1 ? first.unsqueeze(0) : first;
  for (size_t i = 1; i < n; ++i) {
    Tensor m = (i == n - 1 && last.dim() == 1) ? last.unsqueeze(1) : tensors[i];
    EMBER_CHECK(r.size(1) == m.size(0), "multi_dot: tensors[", i - 1, "] and tensors[", i, "] cannot be multiplied (",
                mat_str(r), " and ", mat_str(m), ")");
    r = mm(r, m);
  }
  if (first.dim() == 1) r = r.squeeze(0);
  if (last.dim() == 1) r = r.squeeze(-1);
  return r;
}

// ---- Tensor methods ----------------------------------------------------------
Tensor Tensor::mm(const Tensor& mat2) const { return ember::mm(*this, mat2); }
Tensor Tensor::bmm(const Tensor& mat2) const { return ember::bmm(*this, mat2); }
Tensor Tensor::matmul(const Tensor& other) const { return ember::matmul(*this, other); }
Tensor Tensor::mv(const Tensor& vec) const { return ember::mv(*this, vec); }
Tensor Tensor::dot(const Tensor& other) const { return ember::dot(*this, other); }
Tensor Tensor::vdot(const Tensor& other) const { return ember::vdot(*this, other); }
Tensor Tensor::outer(const Tensor& vec2) const { return ember::outer(*this, vec2); }
Tensor Tensor::addmm(const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) const {
  return ember::addmm(*this, mat1, mat2, beta, alpha);
}
Tensor& Tensor::addmm_(const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) const {
  return ember::addmm_(self_ref(), mat1, mat2, beta, alpha);
}
Tensor Tensor::addbmm(const Tensor& b1, const Tensor& b2, const Scalar& beta, const Scalar& alpha) const {
  return ember::addbmm(*this, b1, b2, beta, alpha);
}
Tensor Tensor::baddbmm(const Tensor& b1, const Tensor& b2, const Scalar& beta, const Scalar& alpha) const {
  return ember::baddbmm(*this, b1, b2, beta, alpha);
}
Tensor Tensor::addmv(const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) const {
  return ember::addmv(*this, mat, vec, beta, alpha);
}
Tensor Tensor::addr(const Tensor& v1, const Tensor& v2, const Scalar& beta, const Scalar& alpha) const {
  return ember::addr(*this, v1, v2, beta, alpha);
}

}  // namespace torch
