// var, std, var_mean, std_mean, norm, logsumexp.
#include <cmath>
#include <limits>

#include "ember/core/dispatch.h"
#include "ember/core/record_scope.h"
#include "ember/kernels/cpu/reduce_ops.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/reduce/reduce.h"

#include "ember/autograd/derivatives/reduce_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/ops/reduce/reduce_util.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

using ops::reduce_into;

namespace {

enum class Moment { Var, Std };

uint64_t optional_mask(const Tensor& self, OptionalIntArrayRef dim, const char* op) {
  return dim ? ops::reduce_mask(self, *dim, op) : ops::all_dims_mask(self);
}

// Welford over the reduced dims; the variance divides by max(N - correction, 0).
// Complex inputs give a real variance and a complex mean.
std::tuple<Tensor, Tensor> moments(const Tensor& self, uint64_t mask, const std::optional<Scalar>& correction,
                                   bool keepdim, Moment kind, bool want_mean, const char* op) {
  EMBER_CHECK(is_floating_point(self.dtype()) || is_complex(self.dtype()), op,
              "(): std and var only support floating point and complex dtypes, got ", self.dtype());
  const double corr = correction ? correction->toDouble() : 1.0;
  DimVector shape = ops::reduce_shape(self, mask, keepdim);
  Tensor var = empty(shape, TensorOptions(to_real_type(self.dtype())));
  Tensor mean = want_mean ? empty(shape, TensorOptions(self.dtype())) : Tensor();
  dispatch_floating_and_complex(self.dtype(), op, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using R = value_t<T>;
    using Ops = kernels::WelfordOps<T>;
    R* v = static_cast<R*>(var.data_ptr());
    T* m = want_mean ? mean.data_ptr<T>() : nullptr;
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    kernels::reduce_kernel(static_cast<const T*>(self.data_ptr()), kernels::make_reduce_plan(self, mask, false), Ops{},
                           [&](int64_t o, const typename Ops::acc_t& a) {
                             const double div = std::max(a.n - corr, 0.0);
                             double r = a.n == 0 ? kNaN : a.m2 / div;
                             if (kind == Moment::Std) r = std::sqrt(r);
                             v[o] = kernels::convert<R>(r);
                             if (m) m[o] = kernels::convert<T>(a.n == 0 ? typename Ops::M(kNaN) : a.mean);
                           });
  });
  return {var, mean};
}

std::optional<Scalar> unbiased_to_correction(bool unbiased) { return Scalar(unbiased ? 1 : 0); }

}  // namespace

Tensor var(const Tensor& self, bool unbiased) {
  return var(self, std::nullopt, unbiased_to_correction(unbiased), false);
}
Tensor var(const Tensor& self, IntArrayRef dim, bool unbiased, bool keepdim) {
  return var(self, OptionalIntArrayRef(dim), unbiased_to_correction(unbiased), keepdim);
}
Tensor var(const Tensor& self, OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, dim ? *dim : IntArrayRef{}, keepdim, v, d, k,
                       var(v, OptionalIntArrayRef(d), correction, k));
  EMBER_RECORD_OP("var", self);
  const uint64_t mask = optional_mask(self, dim, "var");
  Tensor out = std::get<0>(moments(self, mask, correction, keepdim, Moment::Var, false, "var"));
  if (autograd::needs_grad(self) && !self.is_complex())
    autograd::record_reduction(autograd::ReduceGradOp::Var, self, out, mask, keepdim,
                               correction ? correction->toDouble() : 1.0);
  return out;
}
Tensor std(const Tensor& self, bool unbiased) {
  return ember::std(self, std::nullopt, unbiased_to_correction(unbiased), false);
}
Tensor std(const Tensor& self, IntArrayRef dim, bool unbiased, bool keepdim) {
  return ember::std(self, OptionalIntArrayRef(dim), unbiased_to_correction(unbiased), keepdim);
}
Tensor std(const Tensor& self, OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, dim ? *dim : IntArrayRef{}, keepdim, v, d, k,
                       ember::std(v, OptionalIntArrayRef(d), correction, k));
  EMBER_RECORD_OP("std", self);
  const uint64_t mask = optional_mask(self, dim, "std");
  Tensor out = std::get<0>(moments(self, mask, correction, keepdim, Moment::Std, false, "std"));
  if (autograd::needs_grad(self) && !self.is_complex())
    autograd::record_reduction(autograd::ReduceGradOp::Std, self, out, mask, keepdim,
                               correction ? correction->toDouble() : 1.0);
  return out;
}
namespace {
Tensor mean_of(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  return dim ? mean(self, *dim, keepdim) : mean(self, IntArrayRef{}, keepdim);
}
}  // namespace

std::tuple<Tensor, Tensor> var_mean(const Tensor& self, bool unbiased) {
  return var_mean(self, std::nullopt, unbiased_to_correction(unbiased), false);
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, IntArrayRef dim, bool unbiased, bool keepdim) {
  return var_mean(self, OptionalIntArrayRef(dim), unbiased_to_correction(unbiased), keepdim);
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptionalIntArrayRef dim,
                                    const std::optional<Scalar>& correction, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, dim ? *dim : IntArrayRef{}, keepdim, v, d, k,
                       var_mean(v, OptionalIntArrayRef(d), correction, k));
  EMBER_RECORD_OP("var_mean", self);
  // With grad, the composite (var and mean record their own formulas).
  if (autograd::needs_grad(self)) return {var(self, dim, correction, keepdim), mean_of(self, dim, keepdim)};
  return moments(self, optional_mask(self, dim, "var_mean"), correction, keepdim, Moment::Var, true, "var_mean");
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, bool unbiased) {
  return std_mean(self, std::nullopt, unbiased_to_correction(unbiased), false);
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, IntArrayRef dim, bool unbiased, bool keepdim) {
  return std_mean(self, OptionalIntArrayRef(dim), unbiased_to_correction(unbiased), keepdim);
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptionalIntArrayRef dim,
                                    const std::optional<Scalar>& correction, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, dim ? *dim : IntArrayRef{}, keepdim, v, d, k,
                       std_mean(v, OptionalIntArrayRef(d), correction, k));
  EMBER_RECORD_OP("std_mean", self);
  if (autograd::needs_grad(self)) return {ember::std(self, dim, correction, keepdim), mean_of(self, dim, keepdim)};
  return moments(self, optional_mask(self, dim, "std_mean"), correction, keepdim, Moment::Std, true, "std_mean");
}

// ---- norms ------------------------------------------------------------------------
Tensor norm(const Tensor& self, const Scalar& p) { return norm(self, std::optional<Scalar>(p), IntArrayRef{}); }

Tensor norm(const Tensor& self, const std::optional<Scalar>& p_opt, IntArrayRef dim, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, dim, keepdim, v, d, k, norm(v, p_opt, d, k));
  EMBER_RECORD_OP("norm", self);
  EMBER_CHECK(is_floating_point(self.dtype()) || is_complex(self.dtype()),
              "norm(): input dtype should be either floating point or complex. Got ", type_name_short(self.dtype()),
              " instead.");
  const double p = p_opt ? p_opt->toDouble() : 2.0;
  const uint64_t mask = ops::reduce_mask(self, dim, "norm");
  const ScalarType out_dtype = to_real_type(self.dtype());
  Tensor out = empty(ops::reduce_shape(self, mask, keepdim), TensorOptions(out_dtype));
  const bool empty_reduction = ops::reduced_numel(self, mask) == 0;
  dispatch_floating_and_complex(self.dtype(), "norm", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using Out = value_t<T>;
    using R = opmath_t<Out>;
    using K = kernels::NormKind;
    auto id = [](R a) { return a; };
    if (p == 0) {
      reduce_into<Out, T>(self, mask, kernels::NormOps<T, K::Zero>{}, out, id);
    } else if (p == 1) {
      reduce_into<Out, T>(self, mask, kernels::NormOps<T, K::One>{}, out, id);
    } else if (p == 2) {
      reduce_into<Out, T>(self, mask, kernels::NormOps<T, K::Two>{}, out, [](R a) { return std::sqrt(a); });
    } else if (std::isinf(p) && p > 0) {
      reduce_into<Out, T>(self, mask, kernels::NormOps<T, K::Inf>{}, out, id);
    } else if (std::isinf(p)) {
      // PyTorch gives 0 for the -inf norm of nothing.
      reduce_into<Out, T>(self, mask, kernels::NormOps<T, K::NegInf>{}, out,
                          [&](R a) { return empty_reduction ? R(0) : a; });
    } else {
      kernels::NormOps<T, K::P> ops;
      ops.p = static_cast<R>(p);
      const R inv = static_cast<R>(1.0 / p);
      reduce_into<Out, T>(self, mask, ops, out, [&](R a) { return std::pow(a, inv); });
    }
  });
  if (autograd::needs_grad(self)) autograd::record_norm(self, out, p, mask, keepdim);
  return out;
}

Tensor frobenius_norm(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return norm(self, std::optional<Scalar>(2), dim, keepdim);
}

Tensor norm(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim, ScalarType dtype) {
  EMBER_CHECK(self.defined(), "norm: expected a defined tensor");
  EMBER_CHECK(is_floating_point(dtype) || is_complex(dtype), "norm: dtype must be floating point or complex, got ",
              dtype);
  EMBER_CHECK(is_complex(dtype) || !self.is_complex(), "norm: dtype should be complex for a complex input (got ",
              self.dtype(), " and dtype ", dtype, ")");
  return norm(self.to(dtype), p, dim, keepdim);
}
Tensor norm(const Tensor& self, const std::optional<Scalar>& p, ScalarType dtype) {
  return norm(self, p, IntArrayRef{}, false, dtype);
}

Tensor norm(const Tensor& self, std::string_view p, IntArrayRef dim, bool keepdim) {
  EMBER_CHECK(p == "fro", "norm(): only p=\"fro\" is supported as a string here (got \"", p,
              "\"); use linalg for the nuclear norm");
  return frobenius_norm(self, dim, keepdim);
}

Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, dim, keepdim, v, d, k, logsumexp(v, d, k));
  EMBER_RECORD_OP("logsumexp", self);
  const ScalarType t = is_integral(self.dtype(), true) ? get_default_dtype() : self.dtype();
  EMBER_CHECK(is_floating_point(t), "logsumexp(): expected a real input, got ", self.dtype());
  const uint64_t mask = ops::reduce_mask(self, dim, "logsumexp");
  Tensor in = ops::cast_to(self, t);
  Tensor out = empty(ops::reduce_shape(self, mask, keepdim), TensorOptions(t));
  dispatch_floating(t, "logsumexp", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using Ops = kernels::LogSumExpOps<T>;
    reduce_into<T, T>(in, mask, Ops{}, out, [](const typename Ops::acc_t& a) { return Ops::project(a); });
  });
  if (autograd::needs_grad(self))
    autograd::record_reduction(autograd::ReduceGradOp::LogSumExp, self, out, mask, keepdim);
  return out;
}

// ---- Tensor methods -------------------------------------------------------------
Tensor Tensor::var(bool unbiased) const { return ember::var(*this, unbiased); }
Tensor Tensor::var(IntArrayRef dim, bool unbiased, bool keepdim) const {
  return ember::var(*this, dim, unbiased, keepdim);
}
Tensor Tensor::var(OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim) const {
  return ember::var(*this, dim, correction, keepdim);
}
Tensor Tensor::std(bool unbiased) const { return ember::std(*this, unbiased); }
Tensor Tensor::std(IntArrayRef dim, bool unbiased, bool keepdim) const {
  return ember::std(*this, dim, unbiased, keepdim);
}
Tensor Tensor::std(OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim) const {
  return ember::std(*this, dim, correction, keepdim);
}
Tensor Tensor::norm(const Scalar& p) const { return ember::norm(*this, p); }
Tensor Tensor::norm(const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim) const {
  return ember::norm(*this, p, dim, keepdim);
}
Tensor Tensor::norm(const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim, ScalarType dtype) const {
  return ember::norm(*this, p, dim, keepdim, dtype);
}
Tensor Tensor::logsumexp(IntArrayRef dim, bool keepdim) const { return ember::logsumexp(*this, dim, keepdim); }

}  // namespace torch
