#include "ember/distributed/gloo/tensor_wire.h"

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace torch::distributed::gloo_detail {

void WireTensor::copy_back() const {
  if (copied) user.copy_(buffer);
}

WireTensor to_wire(const Tensor& t, bool read) {
  if (t.is_contiguous()) return {t, t, false};
  return {t, read ? t.contiguous() : empty(t.sizes(), TensorOptions().dtype(t.scalar_type())), true};
}

size_t bytes_of(const Tensor& t) { return static_cast<size_t>(t.numel()) * element_size(t.scalar_type()); }

void check_tensor(const Tensor& t, const char* op) {
  EMBER_CHECK(t.defined(), op, ": the tensor is undefined");
  EMBER_CHECK(t.scalar_type() != ScalarType::Undefined, op, ": the tensor has no dtype");
}

Tensor single_tensor(const std::vector<Tensor>& tensors, const char* op) {
  EMBER_CHECK(tensors.size() == 1, op, ": expected exactly one tensor, got ", tensors.size());
  check_tensor(tensors[0], op);
  return tensors[0];
}

void check_list(const std::vector<Tensor>& list, const Tensor& ref, int64_t n, const char* op, const char* name) {
  EMBER_CHECK(static_cast<int64_t>(list.size()) == n, op, ": ", name, " must hold world_size (", n, ") tensors, got ",
              list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    check_tensor(list[i], op);
    EMBER_CHECK(list[i].scalar_type() == ref.scalar_type(), op, ": ", name, "[", i, "] has dtype ",
                dtype_name(list[i].scalar_type()), " but the tensor has ", dtype_name(ref.scalar_type()));
    EMBER_CHECK(list[i].numel() == ref.numel(), op, ": ", name, "[", i, "] has ", list[i].numel(),
                " elements but the tensor has ", ref.numel());
  }
}

void unflatten_into(const Tensor& flat, const std::vector<Tensor>& list) {
  int64_t at = 0;
  for (const auto& t : list) {
    int64_t n = t.numel();
    t.copy_(flat.narrow(0, at, n).view(t.sizes()));
    at += n;
  }
}

std::vector<int64_t> split_bytes(const Tensor& t, const std::vector<int64_t>& splits, int64_t n, const char* op,
                                 const char* name) {
  int64_t rows = t.size(0);
  int64_t row_bytes = rows == 0 ? 0 : static_cast<int64_t>(bytes_of(t)) / rows;
  std::vector<int64_t> out;
  if (splits.empty()) {
    EMBER_CHECK(rows % n == 0, op, ": the ", name, "'s first dimension (", rows,
                ") does not divide evenly among world_size ", n, "; pass split sizes");
    out.assign(static_cast<size_t>(n), rows / n * row_bytes);
    return out;
  }
  EMBER_CHECK(static_cast<int64_t>(splits.size()) == n, op, ": ", name, "_split_sizes has ", splits.size(),
              " entries but world_size is ", n);
  int64_t total = 0;
  for (int64_t s : splits) {
    EMBER_CHECK(s >= 0, op, ": ", name, "_split_sizes holds a negative size ", s);
    total += s;
    out.push_back(s * row_bytes);
  }
  EMBER_CHECK(total == rows, op, ": ", name, "_split_sizes sum to ", total, " but the ", name, " has ", rows, " rows");
  return out;
}

}  // namespace torch::distributed::gloo_detail
