#include "ember/kernels/cpu/onednn.h"

#include "ember/core/tensor_make.h"

namespace torch::kernels {

const dnnl::engine& onednn_engine() {
  static const dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

dnnl::memory OnednnBuffers::make(const dnnl::memory::desc& d) {
  keep_.push_back(empty_cpu({static_cast<int64_t>(d.get_size())}, kByte));
  return dnnl::memory(d, onednn_engine(), keep_.back().data_ptr());
}

}  // namespace torch::kernels
