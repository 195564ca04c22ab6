// Walks the OpInfo registry: every sample of every differentiable op must pass
// gradcheck and (unless the entry says otherwise) gradgradcheck in float64.
#include <gtest/gtest.h>

#include "opinfo.h"

using namespace ember;
using namespace ember::testing;

TEST(OpInfo, RegistryIsPopulated) { EXPECT_FALSE(op_registry().empty()); }

namespace {
// Runs `check` on every sample of every entry; an exception is a failure of that entry.
template <typename Check>
void for_each_sample(bool skip_no_gradgrad, Check check) {
  for (const OpInfo& op : op_registry()) {
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

TEST(OpInfo, Gradcheck) {
  for_each_sample(false, [](const OpInfo& op, const variable_list& x) { return autograd::gradcheck(op.fn, x); });
}

TEST(OpInfo, Gradgradcheck) {
  for_each_sample(true, [](const OpInfo& op, const variable_list& x) { return autograd::gradgradcheck(op.fn, x); });
}

TEST(OpInfo, GradFnNames) {
  for (const OpInfo& op : op_registry()) {
    if (op.grad_fn_name.empty()) continue;
    variable_list out = op.fn(op.samples().front());
    ASSERT_TRUE(out[0].grad_fn()) << op.name;
    EXPECT_EQ(out[0].grad_fn()->name(), op.grad_fn_name) << op.name;
  }
}
