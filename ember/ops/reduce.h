#pragma once
// Free functions of the reduce family (implemented in ops/reduce.cpp).
#include "ember/core/tensor.h"

namespace ember {}  // namespace ember
