#pragma once
// The vmap tests' oracle: vmap(f)(x) must equal f applied to each slice of x
// along the mapped dim, with the results stacked. by_loop runs f on plain
// (unbatched) slices, a path that never touches a batching rule.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/vmap/batched_tensor.h"

namespace torch::vmap_test {

using Dims = std::vector<std::optional<int64_t>>;

inline std::vector<Tensor> by_loop(const VmapFunction& f, const std::vector<Tensor>& in, Dims dims, int64_t out_dim) {
  if (dims.empty()) dims.assign(in.size(), 0);
  int64_t batch = -1;
  for (size_t i = 0; i < in.size(); ++i)
    if (dims[i]) batch = in[i].size(*dims[i]);
  std::vector<std::vector<Tensor>> per_output;
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<Tensor> args;
    for (size_t i = 0; i < in.size(); ++i) args.push_back(dims[i] ? in[i].select(*dims[i], b) : in[i]);
    std::vector<Tensor> outs = f(args);
    per_output.resize(outs.size());
    for (size_t j = 0; j < outs.size(); ++j) per_output[j].push_back(outs[j]);
  }
  std::vector<Tensor> r;
  for (auto& outs : per_output) r.push_back(stack(outs, out_dim));
  return r;
}

inline void expect_matches_loop(const VmapFunction& f, const std::vector<Tensor>& in, const Dims& dims = {},
                                int64_t out_dim = 0) {
  std::vector<Tensor> got = vmap(f, dims, {out_dim})(in);
  std::vector<Tensor> want = by_loop(f, in, dims, out_dim);
  ASSERT_EQ(got.size(), want.size());
  for (size_t j = 0; j < got.size(); ++j) {
    EXPECT_EQ(got[j].sizes().vec(), want[j].sizes().vec()) << "output " << j;
    EXPECT_TENSOR_CLOSE(got[j], want[j]);
    EXPECT_FALSE(batching::is_batched(got[j]));
  }
}

// One tensor in, one out.
inline void expect_matches_loop1(const std::function<Tensor(const Tensor&)>& f, const Tensor& x, int64_t in_dim = 0,
                                 int64_t out_dim = 0) {
  expect_matches_loop([&](const std::vector<Tensor>& a) { return std::vector<Tensor>{f(a[0])}; }, {x}, {in_dim},
                      out_dim);
}

// Gradients through vmap: the first output of vmap(f) and of the per-slice
// loop, each squared and summed, differentiated back to `leaves` (tensors that
// require grad, reached from `in` or captured by f); the values and every
// leaf's gradient must agree. The leaves' .grad is reset before and after.
inline void expect_grads_match_loop(const VmapFunction& f, const std::vector<Tensor>& in, const Dims& dims,
                                    std::vector<Tensor> leaves) {
  for (Tensor& t : leaves) t.mutable_grad() = Tensor();
  Tensor got = vmap(f, dims)(in)[0];
  got.pow(2).sum().backward();
  std::vector<Tensor> got_grads;
  for (Tensor& t : leaves) {
    got_grads.push_back(t.grad().clone());
    t.mutable_grad() = Tensor();
  }
  Tensor want = by_loop(f, in, dims, 0)[0];
  EXPECT_TENSOR_CLOSE(got.detach(), want.detach());
  want.pow(2).sum().backward();
  for (size_t i = 0; i < leaves.size(); ++i) {
    SCOPED_TRACE("leaf " + std::to_string(i));
    ASSERT_TRUE(got_grads[i].defined() && leaves[i].grad().defined());
    EXPECT_TENSOR_CLOSE(got_grads[i], leaves[i].grad());
    leaves[i].mutable_grad() = Tensor();
  }
}

}  // namespace torch::vmap_test
