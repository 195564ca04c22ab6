// Module save/load: names in the file are PyTorch's state_dict names, a
// restored module computes the same outputs, and bad archives are errors.
#include <cstdio>

#include "common/test_util.h"
#include "ember/torch.h"

namespace torch {
namespace {

struct BlockImpl : torch::nn::Module {
  BlockImpl() : fc(register_module("fc", torch::nn::Linear(3, 4))), act(register_module("act", torch::nn::ReLU())) {
    register_buffer("running", torch::zeros({4}));
  }
  torch::Tensor forward(torch::Tensor x) { return act(fc(x)) + buffer_value(); }
  torch::Tensor buffer_value() { return named_buffers(false)["running"]; }
  torch::nn::Linear fc;
  torch::nn::ReLU act;
};
TORCH_MODULE(Block);

struct NetImpl : torch::nn::Module {
  NetImpl() : layers(register_module("layers", torch::nn::Sequential(Block(), torch::nn::Linear(4, 2)))) {}
  torch::Tensor forward(torch::Tensor x) { return layers->forward(x); }
  torch::nn::Sequential layers;
};
TORCH_MODULE(Net);

std::string temp_path(const char* name) { return ::testing::TempDir() + name; }

TEST(ModuleSerialize, RoundTripThroughFileKeepsOutputs) {
  torch::manual_seed(0);
  Net a;
  {
    torch::NoGradGuard g;
    a->named_buffers()["layers.0.running"].fill_(0.25);
  }
  const std::string path = temp_path("ember_module.safetensors");
  torch::save(a, path);

  torch::manual_seed(1);  // different initial weights
  Net b;
  const Tensor w_handle = b->named_parameters()["layers.1.weight"];
  torch::load(b, path);
  Tensor x = torch::randn({5, 3});
  EXPECT_TENSOR_EQ(b(x), a(x));
  // load() copies into the existing parameters: handles stay valid.
  EXPECT_TENSOR_EQ(w_handle, a->named_parameters()["layers.1.weight"]);
  EXPECT_TRUE(w_handle.requires_grad());
  std::remove(path.c_str());
}

TEST(ModuleSerialize, FileUsesStateDictNames) {
  torch::manual_seed(0);
  Net a;
  const std::string path = temp_path("ember_module_names.safetensors");
  torch::save(a, path);
  auto entries = serialize::load_safetensors(path);
  std::vector<std::string> names;
  for (const auto& e : entries) names.push_back(e.first);
  std::sort(names.begin(), names.end());
  const std::vector<std::string> expected = {"layers.0.fc.bias", "layers.0.fc.weight", "layers.0.running",
                                             "layers.1.bias", "layers.1.weight"};
  EXPECT_EQ(names, expected);
  std::remove(path.c_str());
}

TEST(ModuleSerialize, ShapeMismatchIsAnError) {
  torch::nn::Linear small(3, 4), big(5, 4);
  const std::string path = temp_path("ember_module_mismatch.safetensors");
  torch::save(small, path);
  EXPECT_EMBER_ERROR(torch::load(big, path), "InputArchive::read", "'weight' has shape [4, 3]",
                     "destination has shape [4, 5]");
  std::remove(path.c_str());
}

TEST(ModuleSerialize, MissingSubmoduleIsAnError) {
  torch::nn::Linear lin(3, 4);
  torch::nn::Sequential seq(torch::nn::Linear(3, 4));
  const std::string path = temp_path("ember_module_missing.safetensors");
  torch::save(lin, path);  // keys "weight", "bias": no "0." entries
  EXPECT_EMBER_ERROR(torch::load(seq, path), "Module::load", "submodule '0'");
  std::remove(path.c_str());
}

TEST(ModuleSerialize, NullHolderIsAnError) {
  torch::nn::Linear empty{nullptr};
  EXPECT_EMBER_ERROR(torch::save(empty, temp_path("ember_null.safetensors")), "torch::save", "nullptr holder");
}

}  // namespace
}  // namespace torch
