#include "ember/distributed/object_collectives.h"

#include <algorithm>
#include <cstring>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace torch::distributed {
namespace {

Tensor bytes_tensor(const std::vector<uint8_t>& bytes, int64_t padded) {
  Tensor t = zeros({padded}, TensorOptions().dtype(kByte));
  if (!bytes.empty()) std::memcpy(t.data_ptr(), bytes.data(), bytes.size());
  return t;
}

Object decode_prefix(const Tensor& t, int64_t size, const char* op) {
  EMBER_CHECK(size >= 0 && size <= t.numel(), op, ": an object of ", size, " bytes in a buffer of ", t.numel());
  return decode_object(static_cast<const uint8_t*>(t.data_ptr()), static_cast<size_t>(size));
}

void size_list(std::vector<Object>& list, int64_t n, const char* op, const char* name) {
  if (list.empty()) list.resize(static_cast<size_t>(n));
  EMBER_CHECK(static_cast<int64_t>(list.size()) == n, op, ": ", name, " has ", list.size(), " elements; the group has ",
              n, " ranks");
}

// Every rank's encoded object (sizes first, then the bytes padded to the largest).
std::vector<Tensor> gather_all(const Object& obj, const ProcessGroupPtr& group, std::vector<int64_t>& sizes) {
  int64_t n = get_world_size(group);
  auto bytes = encode_object(obj);
  Tensor my_size = full({1}, Scalar(static_cast<int64_t>(bytes.size())), TensorOptions().dtype(kLong));
  std::vector<Tensor> all_sizes;
  for (int64_t i = 0; i < n; ++i) all_sizes.push_back(empty({1}, TensorOptions().dtype(kLong)));
  all_gather(all_sizes, my_size, group);
  sizes.clear();
  for (const auto& s : all_sizes) sizes.push_back(s.item<int64_t>());
  int64_t max = *std::max_element(sizes.begin(), sizes.end());
  std::vector<Tensor> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(empty({max}, TensorOptions().dtype(kByte)));
  all_gather(out, bytes_tensor(bytes, max), group);
  return out;
}

}  // namespace

void all_gather_object(std::vector<Object>& object_list, const Object& obj, const ProcessGroupPtr& group) {
  size_list(object_list, get_world_size(group), "all_gather_object", "object_list");
  std::vector<int64_t> sizes;
  auto all = gather_all(obj, group, sizes);
  for (size_t i = 0; i < all.size(); ++i) object_list[i] = decode_prefix(all[i], sizes[i], "all_gather_object");
}

void gather_object(const Object& obj, std::vector<Object>* object_gather_list, int64_t dst,
                   const ProcessGroupPtr& group) {
  bool is_dst = get_rank() == dst;
  EMBER_CHECK(!is_dst || object_gather_list != nullptr,
              "gather_object: object_gather_list is required on the destination rank ", dst);
  if (is_dst) size_list(*object_gather_list, get_world_size(group), "gather_object", "object_gather_list");
  // As an all-gather: the same traffic pattern on Gloo, and only dst decodes.
  std::vector<int64_t> sizes;
  auto all = gather_all(obj, group, sizes);
  if (!is_dst) return;
  for (size_t i = 0; i < all.size(); ++i) (*object_gather_list)[i] = decode_prefix(all[i], sizes[i], "gather_object");
}

void broadcast_object_list(std::vector<Object>& object_list, int64_t src, const ProcessGroupPtr& group) {
  bool is_src = get_rank() == src;
  int64_t n = static_cast<int64_t>(object_list.size());
  // The count first, and whether every rank agrees with it, so a length
  // mismatch raises on every rank instead of putting them out of step.
  Tensor count = full({1}, Scalar(n), TensorOptions().dtype(kLong));
  broadcast(count, src, group);
  int64_t src_n = count.item<int64_t>();
  Tensor agree = full({1}, Scalar(int64_t{src_n == n ? 1 : 0}), TensorOptions().dtype(kLong));
  all_reduce(agree, ReduceOp::MIN, group);
  EMBER_CHECK(src_n == n, "broadcast_object_list: object_list has ", n, " elements here and ", src_n, " on src ", src);
  EMBER_CHECK(agree.item<int64_t>() == 1, "broadcast_object_list: another rank's object_list does not have the ", n,
              " elements of src ", src, "'s");
  if (n == 0) return;
  std::vector<std::vector<uint8_t>> encoded;
  Tensor sizes = zeros({n}, TensorOptions().dtype(kLong));
  auto* s = sizes.data_ptr<int64_t>();
  if (is_src)
    for (int64_t i = 0; i < n; ++i) {
      encoded.push_back(encode_object(object_list[static_cast<size_t>(i)]));
      s[i] = static_cast<int64_t>(encoded.back().size());
    }
  broadcast(sizes, src, group);
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    EMBER_CHECK(s[i] >= 0, "broadcast_object_list: negative object size ", s[i]);
    total += s[i];
  }
  Tensor data = empty({total}, TensorOptions().dtype(kByte));
  if (is_src) {
    int64_t at = 0;
    for (const auto& e : encoded) {
      if (!e.empty()) std::memcpy(static_cast<uint8_t*>(data.data_ptr()) + at, e.data(), e.size());
      at += static_cast<int64_t>(e.size());
    }
  }
  broadcast(data, src, group);
  if (is_src) return;
  int64_t at = 0;
  for (int64_t i = 0; i < n; ++i) {
    object_list[static_cast<size_t>(i)] =
        decode_object(static_cast<const uint8_t*>(data.data_ptr()) + at, static_cast<size_t>(s[i]));
    at += s[i];
  }
}

void scatter_object_list(std::vector<Object>& scatter_object_output_list,
                         const std::vector<Object>& scatter_object_input_list, int64_t src,
                         const ProcessGroupPtr& group) {
  EMBER_CHECK(!scatter_object_output_list.empty(),
              "scatter_object_list: Expected argument scatter_object_output_list to be a list of size at least 1.");
  int64_t n = get_world_size(group);
  bool is_src = get_rank() == src;
  EMBER_CHECK(!is_src || static_cast<int64_t>(scatter_object_input_list.size()) == n,
              "scatter_object_list: scatter_object_input_list has ", scatter_object_input_list.size(),
              " elements on src; the group has ", n, " ranks");
  Tensor sizes = zeros({n}, TensorOptions().dtype(kLong));
  std::vector<std::vector<uint8_t>> encoded;
  if (is_src)
    for (int64_t i = 0; i < n; ++i) {
      encoded.push_back(encode_object(scatter_object_input_list[static_cast<size_t>(i)]));
      sizes.data_ptr<int64_t>()[i] = static_cast<int64_t>(encoded.back().size());
    }
  broadcast(sizes, src, group);
  const auto* s = sizes.data_ptr<int64_t>();
  int64_t max = *std::max_element(s, s + n);
  EMBER_CHECK(max >= 0, "scatter_object_list: negative object size");
  Tensor mine = empty({max}, TensorOptions().dtype(kByte));
  std::optional<std::vector<Tensor>> inputs;
  if (is_src) {
    inputs.emplace();
    for (const auto& e : encoded) inputs->push_back(bytes_tensor(e, max));
  }
  scatter(mine, inputs, src, group);
  scatter_object_output_list[0] = decode_prefix(mine, s[get_rank(group)], "scatter_object_list");
}

}  // namespace torch::distributed
