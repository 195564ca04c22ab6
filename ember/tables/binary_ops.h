#pragma once
// The binary family's op ids: one per row of tables/binary.def, in its order.
// The op layer's specs carry them and the gradient table that
// autograd/derivatives/binary_grad.cpp builds from the rows' gradient column is
// an array indexed by them.
#include <cstddef>
#include <cstdint>

namespace torch {

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

}  // namespace torch
