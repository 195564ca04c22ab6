// sum, nansum, mean, nanmean, prod, any, all, count_nonzero.
#include <limits>

#include "ember/core/dispatch.h"
#include "ember/core/record_scope.h"
#include "ember/kernels/cpu/reduce_ops.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/reduce/reduce.h"

#include "ember/autograd/derivatives/reduce_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/ops/reduce/reduce_util.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

using ops::reduce_into;
using ops::reduce_mask;

namespace {

// The accumulator of sums and products: float for 16-bit floats (opmath),
// int64 for every integer type (so narrow sums wrap like PyTorch's casts).
template <typename T>
using sum_acc_t = std::conditional_t<std::is_integral_v<T>, int64_t, opmath_t<T>>;

// The dtype sum/prod produce: `dtype` if given, int64 for integers and bool.
ScalarType sum_dtype(const Tensor& x, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return is_integral(x.dtype(), /*include_bool=*/true) ? kLong : x.dtype();
}

enum class SumKind { Sum, NanSum, Prod, Mean };

Tensor sum_impl(const Tensor& self, uint64_t mask, bool keepdim, ScalarType out_dtype, SumKind kind, const char* op) {
  Tensor in = ops::cast_to(self, out_dtype);
  Tensor out = empty(ops::reduce_shape(self, mask, keepdim), TensorOptions(out_dtype));
  const int64_t n = ops::reduced_numel(self, mask);
  dispatch_numeric(out_dtype, op, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using Acc = sum_acc_t<T>;
    auto id = [](Acc a) { return a; };
    switch (kind) {
      case SumKind::Sum:
        reduce_into<T, T>(in, mask, kernels::SumOps<T, Acc>{}, out, id);
        break;
      case SumKind::NanSum:
        reduce_into<T, T>(in, mask, kernels::NanSumOps<T, Acc>{}, out, id);
        break;
      case SumKind::Prod:
        reduce_into<T, T>(in, mask, kernels::ProdOps<T, Acc>{}, out, id);
        break;
      case SumKind::Mean:
        if constexpr (!std::is_integral_v<T>) {
          // 0/0 gives NaN for an empty reduction, as PyTorch.
          const Acc count = static_cast<Acc>(static_cast<value_t<Acc>>(n));
          reduce_into<T, T>(in, mask, kernels::SumOps<T, Acc>{}, out, [&](Acc a) { return a / count; });
        }
        break;
    }
  });
  return out;
}

void check_mean_dtype(const Tensor& self, std::optional<ScalarType> dtype, const char* op) {
  const ScalarType t = dtype ? *dtype : self.dtype();
  EMBER_CHECK(is_floating_point(t) || is_complex(t), op,
              "(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: ",
              type_name_short(t));
}

Tensor any_all(const Tensor& self, uint64_t mask, bool keepdim, bool is_all, const char* op) {
  EMBER_RECORD_OP(op, self);
  const ScalarType out_dtype = self.dtype() == kByte ? kByte : kBool;
  Tensor in = ops::cast_to(self, kBool);
  Tensor out = empty(ops::reduce_shape(self, mask, keepdim), TensorOptions(out_dtype));
  auto id = [](bool a) { return a; };
  auto run = [&](auto tag) {
    using Out = EMBER_TYPE(tag);
    if (is_all) {
      reduce_into<Out, bool>(in, mask, kernels::AnyAllOps<bool, true>{}, out, id);
    } else {
      reduce_into<Out, bool>(in, mask, kernels::AnyAllOps<bool, false>{}, out, id);
    }
  };
  if (out_dtype == kByte) {
    run(TypeTag<uint8_t>{});
  } else {
    run(TypeTag<bool>{});
  }
  return out;
}

}  // namespace

Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) { return sum(self, IntArrayRef{}, false, dtype); }
Tensor sum(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  EMBER_VMAP_REDUCTION(self, dim, keepdim, v, d, k, sum(v, d, k, dtype));
  EMBER_RECORD_OP("sum", self);
  const uint64_t mask = reduce_mask(self, dim, "sum");
  Tensor out = sum_impl(self, mask, keepdim, sum_dtype(self, dtype), SumKind::Sum, "sum");
  if (autograd::needs_grad(self))
    autograd::record_reduction(dim.empty() ? autograd::ReduceGradOp::Sum : autograd::ReduceGradOp::SumDim, self, out,
                               mask, keepdim);
  return out;
}
Tensor nansum(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  EMBER_VMAP_REDUCTION(self, dim, keepdim, v, d, k, nansum(v, d, k, dtype));
  EMBER_RECORD_OP("nansum", self);
  EMBER_CHECK(!is_complex(self.dtype()), "nansum(): does not support complex inputs (got ", self.dtype(), ")");
  // With grad, the composite: NaNs contribute nothing and get no gradient.
  if (autograd::needs_grad(self)) return sum(where(self.isnan(), zeros({}, self.options()), self), dim, keepdim, dtype);
  return sum_impl(self, reduce_mask(self, dim, "nansum"), keepdim, sum_dtype(self, dtype), SumKind::NanSum, "nansum");
}
Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) { return mean(self, IntArrayRef{}, false, dtype); }
Tensor mean(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  EMBER_VMAP_REDUCTION(self, dim, keepdim, v, d, k, mean(v, d, k, dtype));
  EMBER_RECORD_OP("mean", self);
  check_mean_dtype(self, dtype, "mean");
  const uint64_t mask = reduce_mask(self, dim, "mean");
  Tensor out = sum_impl(self, mask, keepdim, dtype ? *dtype : self.dtype(), SumKind::Mean, "mean");
  if (autograd::needs_grad(self))
    autograd::record_reduction(dim.empty() ? autograd::ReduceGradOp::Mean : autograd::ReduceGradOp::MeanDim, self, out,
                               mask, keepdim);
  return out;
}
Tensor nanmean(const Tensor& self, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  EMBER_VMAP_REDUCTION(self, dim, keepdim, v, d, k, nanmean(v, d, k, dtype));
  EMBER_RECORD_OP("nanmean", self);
  EMBER_CHECK(is_floating_point(self.dtype()), "nanmean(): expected input to have floating point dtype but got ",
              self.dtype());
  const ScalarType t = dtype ? *dtype : self.dtype();
  check_mean_dtype(self, t, "nanmean");
  const uint64_t mask = reduce_mask(self, dim, "nanmean");
  // With grad, PyTorch's composite: nansum / number of non-NaN values.
  if (autograd::needs_grad(self)) {
    Tensor count;
    {
      autograd::BelowAutogradGuard ng;
      count = self.isnan().logical_not().sum(dim, keepdim).to(t);
    }
    return nansum(self, dim, keepdim, t) / count;
  }
  Tensor in = ops::cast_to(self, t);
  Tensor out = empty(ops::reduce_shape(self, mask, keepdim), TensorOptions(t));
  dispatch_floating(t, "nanmean", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using Acc = opmath_t<T>;
    using Ops = kernels::NanMeanOps<T, Acc>;
    reduce_into<T, T>(in, mask, Ops{}, out, [](const typename Ops::acc_t& a) {
      return a.n == 0 ? std::numeric_limits<Acc>::quiet_NaN() : a.sum / static_cast<Acc>(a.n);
    });
  });
  return out;
}
Tensor prod(const Tensor& self, std::optional<ScalarType> dtype) {
  EMBER_VMAP_FULL_REDUCTION(self, false, v, prod(v, 1, false, dtype));
  EMBER_RECORD_OP("prod", self);
  Tensor out = sum_impl(self, ops::all_dims_mask(self), false, sum_dtype(self, dtype), SumKind::Prod, "prod");
  if (autograd::needs_grad(self) && (out.is_floating_point() || out.is_complex()))
    autograd::record_prod(self, out, std::nullopt, false);
  return out;
}
Tensor prod(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  EMBER_VMAP_REDUCTION(self, IntArrayRef(dim), keepdim, v, d, k, prod(v, d[0], k, dtype));
  EMBER_RECORD_OP("prod", self);
  Tensor out = sum_impl(self, reduce_mask(self, dim, "prod"), keepdim, sum_dtype(self, dtype), SumKind::Prod, "prod");
  if (autograd::needs_grad(self) && (out.is_floating_point() || out.is_complex()))
    autograd::record_prod(self, out, self.dim() == 0 ? 0 : wrap_dim(dim, self.dim(), "prod"), keepdim);
  return out;
}

Tensor any(const Tensor& self) { return any_all(self, ops::all_dims_mask(self), false, false, "any"); }
Tensor any(const Tensor& self, int64_t dim, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, IntArrayRef(dim), keepdim, v, d, k, any(v, d[0], k));
  return any_all(self, reduce_mask(self, dim, "any"), keepdim, false, "any");
}
Tensor all(const Tensor& self) { return any_all(self, ops::all_dims_mask(self), false, true, "all"); }
Tensor all(const Tensor& self, int64_t dim, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, IntArrayRef(dim), keepdim, v, d, k, all(v, d[0], k));
  return any_all(self, reduce_mask(self, dim, "all"), keepdim, true, "all");
}

Tensor count_nonzero(const Tensor& self, IntArrayRef dim) {
  EMBER_VMAP_REDUCTION(self, dim, false, v, d, k, count_nonzero(v, d));
  EMBER_RECORD_OP("count_nonzero", self);
  const uint64_t mask = reduce_mask(self, dim, "count_nonzero");
  Tensor in = ops::cast_to(self, kBool);
  Tensor out = empty(ops::reduce_shape(self, mask, false), TensorOptions(kLong));
  reduce_into<int64_t, bool>(in, mask, kernels::CountNonzeroOps<bool>{}, out, [](int64_t a) { return a; });
  return out;
}
Tensor count_nonzero(const Tensor& self, std::optional<int64_t> dim) {
  if (!dim) return count_nonzero(self, IntArrayRef{});
  return count_nonzero(self, IntArrayRef(*dim));
}

// ---- Tensor methods -------------------------------------------------------------
Tensor Tensor::sum(std::optional<ScalarType> dtype) const { return ember::sum(*this, dtype); }
Tensor Tensor::sum(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return ember::sum(*this, dim, keepdim, dtype);
}
Tensor Tensor::nansum(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return ember::nansum(*this, dim, keepdim, dtype);
}
Tensor Tensor::mean(std::optional<ScalarType> dtype) const { return ember::mean(*this, dtype); }
Tensor Tensor::mean(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return ember::mean(*this, dim, keepdim, dtype);
}
Tensor Tensor::nanmean(IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return ember::nanmean(*this, dim, keepdim, dtype);
}
Tensor Tensor::prod(std::optional<ScalarType> dtype) const { return ember::prod(*this, dtype); }
Tensor Tensor::prod(int64_t dim, bool keepdim, std::optional<ScalarType> dtype) const {
  return ember::prod(*this, dim, keepdim, dtype);
}
Tensor Tensor::any() const { return ember::any(*this); }
Tensor Tensor::any(int64_t dim, bool keepdim) const { return ember::any(*this, dim, keepdim); }
Tensor Tensor::all() const { return ember::all(*this); }
Tensor Tensor::all(int64_t dim, bool keepdim) const { return ember::all(*this, dim, keepdim); }
Tensor Tensor::count_nonzero(IntArrayRef dim) const { return ember::count_nonzero(*this, dim); }

}  // namespace torch
