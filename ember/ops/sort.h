#pragma once
// Free functions of the sort family (implemented in ops/sort.cpp).
#include "ember/core/tensor.h"

namespace ember {}  // namespace ember
