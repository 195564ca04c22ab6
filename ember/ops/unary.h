#pragma once
// Free functions of the unary family (implemented in ops/unary.cpp).
#include "ember/core/tensor.h"

namespace ember {}  // namespace ember
