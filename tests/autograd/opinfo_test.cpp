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

namespace {
// The second-order transforms run an op's backward formula on a batched
// gradient (jacrev vmaps over cotangents) and need that formula's result to
// keep its history in the op's inputs; func::hessian also pushes batched
// tangents through it. For each differentiable float64 input, the Hessian of
// a fixed random weighting of the squared outputs from jacrev(jacrev) and
// from func::hessian (jacfwd over jacrev) must match the row-by-row double
// backward, which gradgradcheck has checked against finite differences. The
// outputs are squared so that the gradient reaching the op depends on its
// inputs: a linear op's formula that drops the history of its batched
// gradient (e.g. a write into zeros below autograd) then shows.
// Refusals torch.func makes too for such samples: random ops under the default
// randomness="error", data-dependent shapes, an in-place write of a batched
// value into an unbatched tensor, item() of a batched tensor, and
// as_strided's backward when its input overlaps in memory. (A batched stft
// window is Ember's own limit, stated in its error.) Anything else, e.g. a
// missing batching rule, is a failure.
bool refused_as_pytorch(const std::string& what) {
  for (const char* s : {"randomness error mode", "output dynamic shape", "in-place arithmetic is not possible",
                        "is not possible because there exists a Tensor in extra_args", "called on a tensor batched",
                        "a window batched by vmap"})
    if (what.find(s) != std::string::npos) return true;
  return false;
}

// Ember's own open gap, not a PyTorch refusal: func::hessian through as_strided
// raises the "overlapping memory" error even for a non-overlapping view (the
// overlap test sees the batched tangent's physical strides). Listed by name so
// the exception stays this narrow; the overlapping sample raises under torch too.
bool known_gap(const OpInfo& op, const std::string& form, const std::string& what) {
  if (what.find("the derivative is not implemented (as_strided") == std::string::npos) return false;
  return op.name == "as_strided(overlapping out)" ||
         (form == "func::hessian" && (op.name == "as_strided" || op.name == "as_strided(of a view)"));
}

std::string transform_hessian_check(const OpInfo& op, const variable_list& x) {
  std::string err;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!x[i].defined() || !x[i].requires_grad() || x[i].scalar_type() != kDouble) continue;
    variable_list fixed;
    for (const Tensor& t : x) fixed.push_back(t.defined() ? t.detach() : t);
    variable_list weights;
    {
      NoGradGuard ng;
      variable_list out = op.fn(fixed);
      for (size_t k = 0; k < out.size(); ++k)
        weights.push_back(out[k].defined() && out[k].scalar_type() == kDouble
                              ? sample(out[k].sizes(), -1, 1, 100 + k).detach()
                              : Tensor());
    }
    auto f = [&](const Tensor& t) {
      variable_list in = fixed;
      in[i] = t;
      variable_list out = op.fn(in);
      Tensor s = zeros({}, kDouble);
      for (size_t k = 0; k < out.size(); ++k)
        if (weights[k].defined()) s = s + (out[k] * out[k] * weights[k]).sum();
      return s;
    };
    Tensor ref = autograd::functional::hessian(f, fixed[i], false, false, false);
    const std::pair<const char*, std::function<Tensor(const Tensor&)>> forms[] = {
        {"jacrev(jacrev)", func::jacrev(func::jacrev(f))}, {"func::hessian", func::hessian(f)}};
    for (const auto& [name, h] : forms) {
      std::string e;
      try {
        Tensor got = h(fixed[i]);
        if (!got.sizes().equals(ref.sizes()) || !allclose(got, ref, 1e-6, 1e-8))
          e = "differs: max |got - ref| = " + (got.sizes().equals(ref.sizes())
                                                   ? std::to_string((got - ref).abs().max().item<double>())
                                                   : std::string("(shape)"));
      } catch (const std::exception& ex) {
        if (!refused_as_pytorch(ex.what()) && !known_gap(op, name, ex.what())) e = std::string("threw: ") + ex.what();
      }
      if (!e.empty()) err += std::string(err.empty() ? "" : "; ") + "input " + std::to_string(i) + " " + name + " " + e;
    }
  }
  return err;
}
}  // namespace

TEST_P(OpInfoShard, TransformHessian) { for_each_sample(GetParam(), true, transform_hessian_check); }
