#pragma once
// Tensors as Gloo sees them: contiguous CPU buffers. A non-contiguous tensor
// goes out as a contiguous copy and its result is copied back in place.
#include <string>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::distributed::gloo_detail {

struct WireTensor {
  Tensor user;    // the caller's tensor
  Tensor buffer;  // what Gloo reads and writes: user itself when it is contiguous
  bool copied = false;
  void copy_back() const;
};

// With read = false the buffer's initial contents do not matter (an output).
WireTensor to_wire(const Tensor& t, bool read = true);
size_t bytes_of(const Tensor& t);
void check_tensor(const Tensor& t, const char* op);
// The one tensor of a c10d-style tensor list.
Tensor single_tensor(const std::vector<Tensor>& tensors, const char* op);
// list holds n tensors, each of ref's dtype and element count.
void check_list(const std::vector<Tensor>& list, const Tensor& ref, int64_t n, const char* op, const char* name);
// Copies consecutive pieces of flat into the tensors of list.
void unflatten_into(const Tensor& flat, const std::vector<Tensor>& list);
// The bytes each rank's part of t spans along dim 0 (even when splits is empty).
std::vector<int64_t> split_bytes(const Tensor& t, const std::vector<int64_t>& splits, int64_t n, const char* op,
                                 const char* name);

}  // namespace torch::distributed::gloo_detail
