// Walks the OpInfo registry: every sample of every differentiable op must pass
// gradcheck, (unless the entry says otherwise) gradgradcheck, and the
// forward-mode check (dual-tensor tangents against finite differences) in float64.
#include <gtest/gtest.h>

#include "opinfo.h"

using namespace ember;
using namespace ember::testing;

TEST(OpInfo, RegistryIsPopulated) { EXPECT_FALSE(op_registry().empty()); }

namespace {
// The registry is walked in kShards interleaved shards (entry i goes to shard
// i % kShards), each its own ctest test: the walk takes minutes under the
// sanitizers, and shards run in parallel and keep under the per-test timeout.
constexpr int kShards = 16;

// Runs `check` on every sample of every entry of `shard`; an exception is a failure of that entry.
template <typename Check>
void for_each_sample(int shard, bool skip_no_gradgrad, Check check) {
  const auto& ops = op_registry();
  for (size_t k = static_cast<size_t>(shard); k < ops.size(); k += kShards) {
    const OpInfo& op = ops[k];
    if (skip_no_gradgrad && !op.gradgrad) continue;
    int i = 0;
    for (const variable_list& inputs : op.samples()) {
      std::string err;
      try {
        err = check(op, inputs);
      } catch (const std::exception& e) {
        err = std::string("threw: ") + e.what();
      }
      EXPECT_TRUE(err.empty()) << op.name << " sample " << i << ": " << err;
      ++i;
    }
  }
}
}  // namespace

class OpInfoShard : public ::testing::TestWithParam<int> {};

TEST_P(OpInfoShard, Gradcheck) {
  for_each_sample(GetParam(), false,
                  [](const OpInfo& op, const variable_list& x) { return autograd::gradcheck(op.fn, x); });
}

TEST_P(OpInfoShard, Gradgradcheck) {
  for_each_sample(GetParam(), true,
                  [](const OpInfo& op, const variable_list& x) { return autograd::gradgradcheck(op.fn, x); });
}

TEST_P(OpInfoShard, ForwardAD) {
  for_each_sample(GetParam(), false, [](const OpInfo& op, const variable_list& x) {
    return op.forward_ad ? autograd::forward_ad_check(op.fn, x) : std::string();
  });
}

INSTANTIATE_TEST_SUITE_P(OpInfo, OpInfoShard, ::testing::Range(0, kShards));

TEST(OpInfo, GradFnNames) {
  for (const OpInfo& op : op_registry()) {
    if (op.grad_fn_name.empty()) continue;
    variable_list out = op.fn(op.samples().front());
    ASSERT_TRUE(out[0].grad_fn()) << op.name;
    EXPECT_EQ(out[0].grad_fn()->name(), op.grad_fn_name) << op.name;
  }
}
