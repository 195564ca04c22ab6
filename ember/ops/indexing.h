#pragma once
// Free functions of the indexing family (implemented in ops/indexing.cpp).
#include "ember/core/tensor.h"

namespace ember {}  // namespace ember
