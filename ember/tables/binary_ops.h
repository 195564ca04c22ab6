#pragma once
// The binary family's op ids: one per row of tables/binary.def, in its order.
// The op layer's specs carry them and the gradient table
// (autograd/derivatives/binary.def) is an array indexed by them, so a row
// there names an op that exists and every op has exactly one row (a
// static_assert in autograd/derivatives/binary_grad.cpp).
#include <cstddef>
#include <cstdint>

namespace ember {

enum class BinaryOp : uint8_t {
#define EMBER_BINARY_OP(name, ...) name,
#define EMBER_BINARY_KERNEL(name, ...) name,
#include "ember/tables/binary.def"
#undef EMBER_BINARY_OP
#undef EMBER_BINARY_KERNEL
};

inline constexpr size_t kBinaryOpCount = 0
#define EMBER_BINARY_OP(...) +1
#define EMBER_BINARY_KERNEL(...) +1
#include "ember/tables/binary.def"
#undef EMBER_BINARY_OP
#undef EMBER_BINARY_KERNEL
    ;

}  // namespace ember
