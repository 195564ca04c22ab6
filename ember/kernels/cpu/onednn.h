#pragma once
// What Ember's oneDNN callers share (convolutions in kernels/cpu/conv_onednn.cpp, the
// fused-bias linear in kernels/cpu/gemm.cpp): one CPU engine, and buffers for
// oneDNN's blocked copies and scratchpads from Ember's caching allocator —
// oneDNN's own allocation of a multi-megabyte buffer mapped fresh pages on
// every call (page faults and zeroing were ~5 % of a small CNN's training step).
#include <dnnl.hpp>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::kernels {

// One CPU engine for the process; immutable once built.
const dnnl::engine& onednn_engine();

// Memory for one call's temporaries; the tensors live as long as this object,
// which the caller keeps until the stream has finished.
class OnednnBuffers {
 public:
  dnnl::memory make(const dnnl::memory::desc& d);

 private:
  std::vector<Tensor> keep_;
};

}  // namespace torch::kernels
