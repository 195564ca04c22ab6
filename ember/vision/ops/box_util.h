#pragma once
// Helpers shared by the box ops and losses (torchvision.ops._utils).
#include <string>

#include "ember/core/error.h"
#include "ember/core/tensor.h"

namespace torch::vision::ops::detail {

// Widens narrow dtypes so products of coordinates cannot overflow: half and
// bfloat16 to float32, narrow integers to int32.
inline Tensor upcast(const Tensor& t) {
  if (t.is_floating_point()) return t.dtype() == kFloat32 || t.dtype() == kFloat64 ? t : t.to(kFloat32);
  return t.dtype() == kInt32 || t.dtype() == kInt64 ? t : t.to(kInt32);
}

// Any dtype but float32/float64 to float32 (the losses work in floating point).
inline Tensor upcast_non_float(const Tensor& t) {
  return t.dtype() == kFloat32 || t.dtype() == kFloat64 ? t : t.to(kFloat32);
}

inline void check_boxes(const char* op, const char* name, const Tensor& boxes) {
  EMBER_CHECK(boxes.defined(), op, ": ", name, " is undefined");
  EMBER_CHECK(boxes.dim() == 2 && boxes.size(1) == 4, op, ": ", name, " must be a Tensor[N, 4], got shape ",
              boxes.sizes());
}

inline Tensor reduce_loss(const char* op, const Tensor& loss, const std::string& reduction) {
  if (reduction == "none") return loss;
  if (reduction == "sum") return loss.sum();
  EMBER_CHECK(reduction == "mean", op, ": invalid reduction '", reduction, "' (expected 'none', 'mean' or 'sum')");
  return loss.numel() > 0 ? loss.mean() : loss.sum() * 0.0;
}

}  // namespace torch::vision::ops::detail
