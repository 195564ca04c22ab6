// nll_loss (dedicated kernel; its backward is NllLossBackward0) and cross_entropy_loss.
#include <cmath>

#include "ember/autograd/derivatives/nn_loss_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/nn/loss.h"
#include "ember/ops/nn/softmax.h"
#include "ember/vmap/batching_rules.h"
#include "ember/vmap/vmap.h"

namespace torch {

namespace ops {

Tensor apply_loss_reduction(const Tensor& loss, int64_t reduction, const char* op) {
  switch (reduction) {
    case Reduction::None:
      return loss;
    case Reduction::Mean:
      return loss.mean();
    case Reduction::Sum:
      return loss.sum();
    default:
      EMBER_CHECK(false, op, ": reduction must be 0 (None), 1 (Mean) or 2 (Sum), got ", reduction);
  }
  return loss;
}

}  // namespace ops

namespace {

// Dtypes of PyTorch's CPU nll_loss kernel; no other instantiations.
template <typename F>
void dispatch_nll(ScalarType st, const F& f) {
  if (st == kFloat)
    f(TypeTag<float>{});
  else if (st == kDouble)
    f(TypeTag<double>{});
  else
    f(TypeTag<BFloat16>{});
}

// The input viewed as [n, c, r]: batch, classes, spatial positions; the target as [n, r].
struct NllGeometry {
  int64_t n = 1, c = 0, r = 1;
};

NllGeometry check_nll_args(const char* op, const Tensor& self, const Tensor& target, const Tensor& weight,
                           int64_t reduction) {
  EMBER_CHECK(self.defined() && target.defined(), op, ": expected defined input and target");
  auto describe = [&] {
    return std::string(" (input ") + shape_str(self.sizes()) + " " + dtype_name(self.scalar_type()) + ", target " +
           shape_str(target.sizes()) + " " + dtype_name(target.scalar_type()) + ")";
  };
  const ScalarType st = self.scalar_type();
  EMBER_CHECK(st == kFloat || st == kDouble || st == kBFloat16, op, ": input must be float32, float64 or bfloat16",
              describe());
  EMBER_CHECK(target.scalar_type() == kLong, op, ": expected target dtype int64 for class indices", describe());
  EMBER_CHECK(reduction >= Reduction::None && reduction < Reduction::END, op,
              ": reduction must be 0 (None), 1 (Mean) or 2 (Sum), got ", reduction);
  EMBER_CHECK(self.dim() >= 1, op, ": input must have at least 1 dimension", describe());
  NllGeometry g;
  if (self.dim() == 1) {
    EMBER_CHECK(target.dim() == 0, op, ": 0D target tensor expected for a 1D input", describe());
    g.c = self.size(0);
  } else {
    EMBER_CHECK(target.dim() >= 1 && target.size(0) == self.size(0), op, ": expected input batch_size (", self.size(0),
                ") to match target batch_size (", target.dim() >= 1 ? target.size(0) : 0, ")", describe());
    DimVector expect{self.size(0)};
    for (int64_t i = 2; i < self.dim(); ++i) expect.push_back(self.size(i));
    EMBER_CHECK(target.sizes() == IntArrayRef(expect), op, ": expected target size ", shape_str(expect), describe());
    g.n = self.size(0);
    g.c = self.size(1);
    for (int64_t i = 2; i < self.dim(); ++i) g.r *= self.size(i);
  }
  if (weight.defined()) {
    EMBER_CHECK(weight.dim() == 1 && weight.numel() == g.c, op, ": weight tensor should be defined either for all ",
                g.c, " classes or no classes but got weight tensor of shape: ", shape_str(weight.sizes()));
    EMBER_CHECK(weight.scalar_type() == st, op, ": expected weight dtype ", dtype_name(st), " but got ",
                dtype_name(weight.scalar_type()));
  }
  return g;
}

// Raises for the first target outside [0, c) that is not ignore_index.
void check_targets(const char* op, const int64_t* t, int64_t count, int64_t c, int64_t ignore_index, const Tensor& self,
                   const Tensor& target) {
  for (int64_t k = 0; k < count; ++k) {
    EMBER_CHECK(t[k] == ignore_index || (t[k] >= 0 && t[k] < c), op, ": target ", t[k], " is out of bounds for ", c,
                " classes (input ", shape_str(self.sizes()), " ", dtype_name(self.scalar_type()), ", target ",
                shape_str(target.sizes()), " ", dtype_name(target.scalar_type()), ")");
  }
}

// Under vmap (Note [vmap hooks]): the same loss written with ops that have
// batching rules. A target out of range (other than ignore_index) makes the
// gather raise.
[[gnu::noinline, gnu::cold]] Tensor nll_loss_batched(const char* op, const Tensor& self, const Tensor& target,
                                                     const Tensor& weight, int64_t reduction, int64_t ignore_index) {
  EMBER_CHECK(self.dim() >= 1 && target.dim() == self.dim() - 1, op,
              ": expected input [C] with a 0-dim target or [N, C, d...] with target [N, d...], got input ",
              shape_str(self.sizes()), " and target ", shape_str(target.sizes()));
  EMBER_CHECK(target.scalar_type() == kLong, op, ": expected an int64 target, got ", target.dtype());
  EMBER_CHECK(reduction >= Reduction::None && reduction < Reduction::END, op,
              ": reduction must be 0 (None), 1 (Mean) or 2 (Sum), got ", reduction);
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const Tensor valid = target != ignore_index;
  const Tensor safe = where(valid, target, zeros_like(target));
  const Tensor picked = -gather(self, class_dim, safe.unsqueeze(class_dim)).squeeze(class_dim);
  Tensor w = weight.defined() ? weight.index_select(0, safe.reshape({-1})).view(target.sizes()) : ones_like(picked);
  w = where(valid, w, zeros_like(w));
  const Tensor loss = picked * w;
  if (reduction == Reduction::None) return loss;
  if (reduction == Reduction::Sum) return loss.sum();
  return loss.sum() / w.sum();
}

Tensor nll_loss_impl(const char* op, const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight_opt,
                     int64_t reduction, int64_t ignore_index) {
  if (batching::any_batched(self, target, weight_opt)) [[unlikely]]
    return nll_loss_batched(op, self, target, weight_opt.value_or(Tensor()), reduction, ignore_index);
  EMBER_RECORD_OP(op, self, target);
  const Tensor weight = weight_opt.value_or(Tensor());
  const NllGeometry g = check_nll_args(op, self, target, weight, reduction);
  Tensor out;
  double total_weight = 0;
  {
    autograd::BelowAutogradGuard no_grad;
    const Tensor x = self.contiguous();
    const Tensor t = target.contiguous();
    const Tensor w = weight.defined() ? weight.contiguous() : Tensor();
    const int64_t count = g.n * g.r;
    const int64_t* tp = t.data_ptr<int64_t>();
    check_targets(op, tp, count, g.c, ignore_index, self, target);
    out = reduction == Reduction::None ? empty(target.sizes(), self.options()) : empty({}, self.options());
    dispatch_nll(self.scalar_type(), [&](auto tag) {
      using T = EMBER_TYPE(tag);
      const T* xp = x.data_ptr<T>();
      const T* wp = w.defined() ? w.data_ptr<T>() : nullptr;
      const int64_t c = g.c, r = g.r;
      auto term = [&](int64_t k, double& wt) -> double {
        const int64_t cls = tp[k];
        if (cls == ignore_index) {
          wt = 0;
          return 0;
        }
        wt = wp ? static_cast<double>(wp[cls]) : 1.0;
        return -wt * static_cast<double>(xp[((k / r) * c + cls) * r + k % r]);
      };
      if (reduction == Reduction::None) {
        T* op_ = out.data_ptr<T>();
        parallel_for(0, count, kGrainSize, [&](int64_t b, int64_t e) {
          double wt;
          for (int64_t k = b; k < e; ++k) op_[k] = static_cast<T>(term(k, wt));
        });
        return;
      }
      // Sums in double: the rows are few next to the n * c inputs, so this is cheap.
      double sum = 0;
      for (int64_t k = 0; k < count; ++k) {
        double wt;
        sum += term(k, wt);
        total_weight += wt;
      }
      // Mean over an all-ignored (or empty) batch is 0 / 0 = nan, as PyTorch.
      out.data_ptr<T>()[0] = static_cast<T>(reduction == Reduction::Mean ? sum / total_weight : sum);
    });
  }
  if (autograd::needs_grad(self))
    autograd::record_nll_loss(self, target, weight, out, reduction, ignore_index, total_weight);
  return out;
}

}  // namespace

Tensor ops::nll_loss_coef(IntArrayRef self_sizes, ScalarType dtype, const Tensor& target, const Tensor& weight,
                          int64_t reduction, int64_t ignore_index, double total_weight) {
  autograd::BelowAutogradGuard no_grad;
  Tensor coef = zeros(self_sizes, TensorOptions(dtype));
  const int64_t c = self_sizes.size() == 1 ? self_sizes[0] : self_sizes[1];
  int64_t r = 1;
  for (size_t i = 2; i < self_sizes.size(); ++i) r *= self_sizes[i];
  const Tensor t = target.contiguous();
  const Tensor w = weight.defined() ? weight.to(dtype).contiguous() : Tensor();
  const int64_t* tp = t.data_ptr<int64_t>();
  const double scale = reduction == Reduction::Mean ? 1.0 / total_weight : 1.0;
  dispatch_nll(dtype, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    T* cp = coef.data_ptr<T>();
    const T* wp = w.defined() ? w.data_ptr<T>() : nullptr;
    const int64_t count = t.numel();
    parallel_for(0, count, kGrainSize, [&](int64_t b, int64_t e) {
      for (int64_t k = b; k < e; ++k) {
        const int64_t cls = tp[k];
        if (cls == ignore_index) continue;
        const double wt = wp ? static_cast<double>(wp[cls]) : 1.0;
        cp[((k / r) * c + cls) * r + k % r] = static_cast<T>(-wt * scale);
      }
    });
  });
  return coef;
}

Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                int64_t ignore_index) {
  return nll_loss_impl("nll_loss", self, target, weight, reduction, ignore_index);
}
Tensor nll_loss2d(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                  int64_t ignore_index) {
  EMBER_CHECK(self.defined() && self.dim() == 4, "nll_loss2d: expected a 4D input, got ",
              self.defined() ? shape_str(self.sizes()) : std::string("an undefined tensor"));
  return nll_loss_impl("nll_loss2d", self, target, weight, reduction, ignore_index);
}
Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                   int64_t ignore_index) {
  EMBER_RECORD_COMPOSITE_OP("nll_loss_nd", self, target);
  return nll_loss(self, target, weight, reduction, ignore_index);
}

namespace {

// Weight viewed as [1, C, 1, ...] so it broadcasts along the class dim.
Tensor class_weight_view(const Tensor& weight, int64_t ndim, int64_t class_dim) {
  if (ndim <= 1) return weight;
  DimVector shape(ndim, 1);
  shape[class_dim] = weight.numel();
  return weight.view(shape);
}

Tensor cross_entropy_prob_target(const Tensor& self, const Tensor& target_in, const Tensor& weight, int64_t reduction,
                                 double label_smoothing) {
  EMBER_CHECK(is_floating_point(target_in.scalar_type()),
              "cross_entropy_loss: expected floating point target for class probabilities, got ",
              dtype_name(target_in.scalar_type()), " (input ", shape_str(self.sizes()), ", target ",
              shape_str(target_in.sizes()), ")");
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const int64_t n_classes = self.size(class_dim);
  const Tensor input = log_softmax(self, class_dim, self.scalar_type());
  const Tensor target =
      label_smoothing > 0 ? target_in * (1 - label_smoothing) + label_smoothing / n_classes : target_in;
  Tensor prod = input * target;
  if (weight.defined()) prod = prod * class_weight_view(weight, input.dim(), class_dim);
  switch (reduction) {
    case Reduction::Mean: {
      if (input.numel() == 0) return -prod.sum() * NAN;
      return -prod.sum() / static_cast<double>(input.numel() / n_classes);
    }
    case Reduction::Sum:
      return -prod.sum();
    default:
      return -prod.sum({class_dim});
  }
}

Tensor cross_entropy_label_smoothing(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction,
                                     int64_t ignore_index, double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const int64_t n_classes = self.size(class_dim);
  const Tensor input = log_softmax(self, class_dim, self.scalar_type());
  const Tensor nll = nll_loss_nd(input, target, weight, reduction, ignore_index);
  const Tensor ignore_mask = target == ignore_index;
  Tensor smooth = weight.defined() ? -(input * class_weight_view(weight, input.dim(), class_dim)).sum({class_dim})
                                   : -input.sum({class_dim});
  smooth = smooth.masked_fill(ignore_mask, 0.0);
  Tensor ret;
  switch (reduction) {
    case Reduction::Mean: {
      Tensor denom;
      {
        autograd::BelowAutogradGuard no_grad;
        const Tensor keep = ignore_mask.logical_not();
        if (weight.defined()) {
          const Tensor cls = where(ignore_mask, zeros_like(target), target).flatten();
          denom = (weight.index_select(0, cls) * keep.flatten()).sum();
        } else {
          denom = keep.sum().to(input.scalar_type());
        }
      }
      ret = smooth.sum() / denom;
      break;
    }
    case Reduction::Sum:
      ret = smooth.sum();
      break;
    default:
      ret = smooth;
  }
  return nll * (1 - label_smoothing) + ret * (label_smoothing / n_classes);
}

}  // namespace

Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight_opt,
                          int64_t reduction, int64_t ignore_index, double label_smoothing) {
  EMBER_RECORD_COMPOSITE_OP("cross_entropy_loss", self, target);
  EMBER_CHECK(self.defined() && target.defined(), "cross_entropy_loss: expected defined input and target");
  EMBER_CHECK(self.dim() >= 1, "cross_entropy_loss: input must have at least 1 dimension, got ",
              shape_str(self.sizes()));
  EMBER_CHECK(label_smoothing >= 0.0 && label_smoothing <= 1.0,
              "cross_entropy_loss: label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
  EMBER_CHECK(reduction >= Reduction::None && reduction < Reduction::END,
              "cross_entropy_loss: reduction must be 0 (None), 1 (Mean) or 2 (Sum), got ", reduction);
  const Tensor weight = weight_opt.value_or(Tensor());
  // Same shape as the input means class probabilities (PyTorch's rule).
  if (self.sizes() == target.sizes())
    return cross_entropy_prob_target(self, target, weight, reduction, label_smoothing);
  if (label_smoothing > 0)
    return cross_entropy_label_smoothing(self, target, weight, reduction, ignore_index, label_smoothing);
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  return nll_loss_nd(log_softmax(self, class_dim, self.scalar_type()), target, weight, reduction, ignore_index);
}

}  // namespace torch
