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
// Operands that are all contiguous with the output's shape skip steps 1-3
// (the common case, and the one that decides small-op overhead).
#include <algorithm>
#include <array>

#include "ember/core/parallel.h"
#include "ember/core/tensor.h"

namespace torch::kernels {

class TensorIterator {
 public:
  static constexpr int kMaxOperands = 6;
  // A loop is any callable `void(char** data, const int64_t* strides, int64_t n)`.

  // Outputs must already have the iteration shape; inputs broadcast to it.
  TensorIterator(std::initializer_list<Tensor> outputs, std::initializer_list<Tensor> inputs);
  TensorIterator(ArrayRef<Tensor> outputs, ArrayRef<Tensor> inputs);
  // Note [Small-op fast path]: the caller guarantees every operand is
  // contiguous with the output's sizes (dtypes may differ), so none of the
  // broadcast/ordering/coalescing work runs: one flat dim of numel elements.
  static TensorIterator contiguous(const Tensor& out, const Tensor& in0, const Tensor* in1 = nullptr) {
    TensorIterator it;
    it.ntensors_ = in1 ? 3 : 2;
    it.numel_ = out.numel();
    it.shape_.assign(1, it.numel_);
    it.strides_.assign(kMaxOperands, 0);
    it.set_flat(0, out);
    it.set_flat(1, in0);
    if (in1) it.set_flat(2, *in1);
    return it;
  }

  int ntensors() const { return ntensors_; }
  int64_t numel() const { return numel_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  ScalarType dtype(int i) const { return dtypes_[i]; }
  IntArrayRef shape() const { return shape_; }

  // Runs `loop` over all elements, in parallel when numel > grain.
  template <typename Loop>
  void for_each(const Loop& loop, int64_t grain = kGrainSize) const {
    if (numel_ == 0) return;
    if (numel_ <= grain || get_num_threads() == 1 || in_parallel_region()) {
      serial_for_each(loop, 0, numel_);
      return;
    }
    parallel_for(0, numel_, grain, [&](int64_t b, int64_t e) { serial_for_each(loop, b, e); });
  }

  // Runs `loop` over linear elements [begin, end) of the iteration space.
  template <typename Loop>
  void serial_for_each(const Loop& loop, int64_t begin, int64_t end) const {
    if (begin >= end) return;
    // Zeroed: GCC 12 cannot see that the loops read only the first ntensors_.
    std::array<char*, kMaxOperands> ptrs{};
    std::array<int64_t, kMaxOperands> inner{};
    if (shape_.size() == 1) {  // one (coalesced) dim: a single call
      for (int i = 0; i < ntensors_; ++i) {
        inner[i] = stride(i, 0);
        ptrs[i] = data_[i] + begin * inner[i];
      }
      loop(ptrs.data(), inner.data(), end - begin);
      return;
    }
    DimVector counter = start_counter(begin, ptrs);
    for (int i = 0; i < ntensors_; ++i) inner[i] = stride(i, 0);
    const int64_t rows_len = shape_[0];
    for (int64_t pos = begin; pos < end;) {
      // Whole rows of dim 0 along dim 1 step their pointers inline: with short
      // rows (a permuted copy's 64-element runs) the general carry dominated.
      if (counter[0] == 0) {
        const int64_t rows = std::min(shape_[1] - counter[1], (end - pos) / rows_len);
        if (rows > 1) {
          for (int64_t r = 0; r < rows; ++r) {
            loop(ptrs.data(), inner.data(), rows_len);
            for (int i = 0; i < ntensors_; ++i) ptrs[i] += stride(i, 1);
          }
          for (int i = 0; i < ntensors_; ++i) ptrs[i] -= stride(i, 1);  // back to the last row's start
          counter[1] += rows - 1;
          pos += rows * rows_len;
          if (pos < end) advance_outer(counter, ptrs, rows_len);
          continue;
        }
      }
      int64_t n = std::min(shape_[0] - counter[0], end - pos);
      loop(ptrs.data(), inner.data(), n);
      pos += n;
      if (pos < end) advance_outer(counter, ptrs, n);
    }
  }

 private:
  TensorIterator() = default;
  void set_flat(int i, const Tensor& t) {
    data_[i] = static_cast<char*>(t.data_ptr());
    dtypes_[i] = t.scalar_type();
    stride(i, 0) = static_cast<int64_t>(t.itemsize());
  }
  // Byte stride of operand i along (coalesced) dim d.
  int64_t stride(int i, int64_t d) const { return strides_[d * kMaxOperands + i]; }
  int64_t& stride(int i, int64_t d) { return strides_[d * kMaxOperands + i]; }
  // Appends a dim of the iteration space; its strides are then set with stride(i, d).
  void push_dim(int64_t size) {
    shape_.push_back(size);
    strides_.resize(shape_.size() * kMaxOperands, 0);
  }
  void build(const Tensor* outs, size_t nout, const Tensor* ins, size_t nin);
  bool try_build_trivial(const Tensor* outs, size_t nout, const Tensor* ins, size_t nin);
  DimVector start_counter(int64_t begin, std::array<char*, kMaxOperands>& ptrs) const;
  void advance_outer(DimVector& counter, std::array<char*, kMaxOperands>& ptrs, int64_t n) const;
  int ntensors_ = 0;
  int64_t numel_ = 0;
  DimVector shape_;  // fastest-varying dim first
  // Byte strides, kMaxOperands per dim, fastest dim first. One vector for all
  // operands rather than one each: a small op builds and destroys one
  // iterator per kernel call, and six vectors were a third of its cost
  // (bench/SPEC.md W1).
  SmallVector<int64_t, 6 * kMaxOperands> strides_;
  std::array<char*, kMaxOperands> data_{};
  std::array<ScalarType, kMaxOperands> dtypes_{};
};

}  // namespace torch::kernels
