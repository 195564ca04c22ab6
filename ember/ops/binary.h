#pragma once
// Free functions of the binary family (implemented in ops/binary.cpp).
#include "ember/core/tensor.h"

namespace ember {}  // namespace ember
