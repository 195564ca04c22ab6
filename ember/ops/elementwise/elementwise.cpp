#include "ember/ops/elementwise/elementwise.h"

#include "ember/core/shape.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/copy.h"

namespace torch::ops {

Tensor make_out(Tensor* out, IntArrayRef shape, ScalarType dtype, const char* op, bool inplace) {
  if (out == nullptr || !out->defined()) return empty_cpu(shape, dtype);
  EMBER_CHECK(can_cast(dtype, out->dtype()), op, ": result type ", type_name_short(dtype),
              " can't be cast to the desired output type ", type_name_short(out->dtype()));
  if (!out->sizes().equals(shape)) {
    EMBER_CHECK(!inplace, op, ": output with shape ", shape_str(out->sizes()), " doesn't match the broadcast shape ",
                shape_str(shape));
    out->resize_(shape);
  }
  if (out->dtype() != dtype) return empty_cpu(shape, dtype);
  return *out;
}

void finish_out(Tensor* out, const Tensor& result) {
  if (out == nullptr || !out->defined()) return;
  if (!out->is_same(result)) {
    out->copy_(result);
  } else {
    out->bump_version();
  }
}

Tensor unaliased(const Tensor& operand, const Tensor& self) {
  if (!operand.defined() || !self.defined() || operand.impl()->storage() != self.impl()->storage()) return operand;
  return operand.clone();
}

Tensor& checked_out(Tensor& out, const char* op) {
  EMBER_CHECK(out.defined(), op, "_out: expected a defined output tensor");
  return out;
}

}  // namespace torch::ops
