#pragma once
// Free functions of the shape_ops family (implemented in ops/shape_ops.cpp).
#include "ember/core/tensor.h"

namespace ember {}  // namespace ember
