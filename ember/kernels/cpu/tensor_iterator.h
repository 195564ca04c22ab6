#pragma once
// Note [The loop engine]
// Every elementwise kernel runs through TensorIterator. The op layer hands it
// operands that already have their final dtypes (outputs first, allocated to
// the broadcast shape); the iterator
//   1. broadcasts inputs to the output shape (stride 0 on broadcast dims),
//   2. orders dims so the one with the smallest output stride is innermost,
//   3. coalesces dims that are contiguous across all operands,
//   4. splits the linear range over threads above kGrainSize elements,
// and calls a 1-D inner loop `loop(char** data, const int64_t* strides, n)`
// with byte strides. Kernels (loops.h) specialise that inner loop for the
// contiguous case, which the compiler vectorises; no op walks strides itself.
#include <array>
#include <functional>

#include "ember/core/parallel.h"
#include "ember/core/tensor.h"

namespace ember::kernels {

class TensorIterator {
 public:
  static constexpr int kMaxOperands = 6;
  using Loop = std::function<void(char** data, const int64_t* strides, int64_t n)>;

  // Outputs must already have the iteration shape; inputs broadcast to it.
  TensorIterator(std::initializer_list<Tensor> outputs, std::initializer_list<Tensor> inputs);
  TensorIterator(ArrayRef<Tensor> outputs, ArrayRef<Tensor> inputs);

  int ntensors() const { return ntensors_; }
  int64_t numel() const { return numel_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  ScalarType dtype(int i) const { return dtypes_[i]; }
  IntArrayRef shape() const { return shape_; }

  // Runs `loop` over all elements, in parallel when numel > grain.
  void for_each(const Loop& loop, int64_t grain = kGrainSize) const;
  // Runs `loop` over linear elements [begin, end) of the iteration space.
  void serial_for_each(const Loop& loop, int64_t begin, int64_t end) const;

 private:
  void build(const Tensor* outs, size_t nout, const Tensor* ins, size_t nin);
  int ntensors_ = 0;
  int64_t numel_ = 0;
  DimVector shape_;  // fastest-varying dim first
  std::array<DimVector, kMaxOperands> strides_;  // byte strides, fastest first
  std::array<char*, kMaxOperands> data_{};
  std::array<ScalarType, kMaxOperands> dtypes_{};
};

}  // namespace ember::kernels
