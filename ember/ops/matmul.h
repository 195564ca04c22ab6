#pragma once
// Free functions of the matmul family (implemented in ops/matmul.cpp).
#include "ember/core/tensor.h"

namespace ember {}  // namespace ember
