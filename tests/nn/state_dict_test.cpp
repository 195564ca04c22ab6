// Module::state_dict / load_state_dict against torch.nn.Module's (PyTorch 1.13):
// key order, strict errors naming every key, shape mismatches, non-strict results.
#include "common/test_util.h"
#include "ember/torch.h"

namespace torch {
namespace {

template <typename F>
std::string error_message(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an ember::Error";
  return {};
}

nn::Sequential linear_then_norm() { return nn::Sequential(nn::Linear(2, 3), nn::BatchNorm1d(3)); }

TEST(StateDict, KeysInPyTorchsOrder) {
  // PyTorch: list(Sequential(Linear(2, 3), BatchNorm1d(3)).state_dict().keys())
  const std::vector<std::string> expected = {
      "0.weight", "0.bias", "1.weight", "1.bias", "1.running_mean", "1.running_var", "1.num_batches_tracked"};
  EXPECT_EQ(linear_then_norm()->state_dict().keys(), expected);
}

TEST(StateDict, TensorsShareStorageButDoNotRequireGrad) {
  auto m = linear_then_norm();
  auto sd = m->state_dict();
  EXPECT_FALSE(sd["0.weight"].requires_grad());
  EXPECT_EQ(sd["0.weight"].data_ptr(), m[0]->as<nn::Linear>()->weight.data_ptr());
}

TEST(StateDict, RoundTripCopiesValuesIntoExistingTensors) {
  auto a = linear_then_norm();
  auto b = linear_then_norm();
  auto* weight = b[0]->as<nn::Linear>()->weight.data_ptr();
  auto result = b->load_state_dict(a->state_dict());
  EXPECT_TRUE(result.missing_keys.empty());
  EXPECT_TRUE(result.unexpected_keys.empty());
  EXPECT_EQ(b[0]->as<nn::Linear>()->weight.data_ptr(), weight);  // copied into, not replaced
  EXPECT_TRUE(b[0]->as<nn::Linear>()->weight.requires_grad());
  for (const auto& item : a->state_dict()) EXPECT_TRUE(torch::equal(item.value(), b->state_dict()[item.key()]));
}

TEST(StateDict, StrictNamesEveryMissingAndUnexpectedKeyAndSizeMismatch) {
  auto m = linear_then_norm();
  OrderedDict<std::string, Tensor> sd;
  sd.insert("0.weight", torch::zeros({3, 3}));
  sd.insert("x", torch::zeros({1}));
  // PyTorch's message (module name aside): missing keys, then unexpected keys, then mismatches.
  const std::string msg = error_message([&] { m->load_state_dict(sd); });
  EXPECT_NE(msg.find("Error(s) in loading state_dict for"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Missing key(s) in state_dict: \"0.bias\", \"1.weight\", \"1.bias\", \"1.running_mean\", "
                     "\"1.running_var\", \"1.num_batches_tracked\". "),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("Unexpected key(s) in state_dict: \"x\". "), std::string::npos) << msg;
  EXPECT_NE(msg.find("size mismatch for 0.weight: copying a param with shape [3, 3] from checkpoint, the shape in "
                     "current model is [3, 2]."),
            std::string::npos)
      << msg;
  EXPECT_LT(msg.find("Missing"), msg.find("Unexpected"));
}

TEST(StateDict, NonStrictReturnsTheKeysAndStillRefusesShapeMismatches) {
  auto m = linear_then_norm();
  std::vector<std::pair<std::string, Tensor>> sd = {{"0.bias", torch::full({3}, 2.0)}, {"extra", torch::ones({1})}};
  auto result = m->load_state_dict(sd, /*strict=*/false);
  EXPECT_TRUE(torch::equal(m[0]->as<nn::Linear>()->bias, torch::full({3}, 2.0)));
  EXPECT_EQ(result.unexpected_keys, std::vector<std::string>{"extra"});
  EXPECT_EQ(result.missing_keys.size(), 6u);
  EXPECT_EQ(result.missing_keys.front(), "0.weight");
  sd = {{"0.bias", torch::ones({4})}};
  EXPECT_NE(error_message([&] { m->load_state_dict(sd, false); }).find("size mismatch for 0.bias"), std::string::npos);
}

TEST(StateDict, DuplicateKeysInAListRaise) {
  auto m = linear_then_norm();
  std::vector<std::pair<std::string, Tensor>> sd = {{"0.bias", torch::ones({3})}, {"0.bias", torch::ones({3})}};
  EXPECT_NE(error_message([&] { m->load_state_dict(sd, false); }).find("appears twice"), std::string::npos);
}

TEST(StateDict, ConvertsDtypeAsCopyDoes) {
  auto m = nn::Linear(2, 1);
  std::vector<std::pair<std::string, Tensor>> sd = {{"weight", torch::ones({1, 2}, kFloat64)},
                                                    {"bias", torch::zeros({1}, kFloat64)}};
  m->load_state_dict(sd);
  EXPECT_EQ(m->weight.scalar_type(), kFloat32);
  EXPECT_TRUE(torch::equal(m->weight, torch::ones({1, 2})));
}

}  // namespace
}  // namespace torch
