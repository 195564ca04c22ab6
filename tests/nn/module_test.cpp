#include <sstream>

#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/torch.h"

namespace {

using namespace torch::nn;

struct NetImpl : Module {
  NetImpl() {
    fc = register_module("fc", Linear(3, 4));
    seq = register_module("seq", Sequential(Linear(4, 2), ReLU()));
    scale = register_parameter("scale", torch::ones({2}));
    running = register_buffer("running", torch::zeros({2}));
  }
  torch::Tensor forward(torch::Tensor x) { return seq->forward(fc(x)) * scale; }
  Linear fc{nullptr};
  Sequential seq{nullptr};
  torch::Tensor scale, running;
};
TORCH_MODULE(Net);

TEST(NNModule, NamedParametersAreDotted) {
  Net net;
  std::vector<std::string> names;
  for (auto& p : net->named_parameters()) names.push_back(p.key());
  EXPECT_EQ(names, (std::vector<std::string>{"scale", "fc.weight", "fc.bias", "seq.0.weight", "seq.0.bias"}));
  EXPECT_EQ(net->parameters().size(), 5u);
  EXPECT_EQ(net->parameters(/*recurse=*/false).size(), 1u);
  EXPECT_EQ(net->named_buffers().keys(), std::vector<std::string>{"running"});
  for (auto& p : net->parameters()) EXPECT_TRUE(p.requires_grad() && p.is_leaf());
}

TEST(NNModule, ForwardThroughHolder) {
  Net net;
  auto y = net(torch::randn({5, 3}));
  EXPECT_EQ(y.sizes(), (std::vector<int64_t>{5, 2}));
  y.sum().backward();
  EXPECT_TRUE(net->fc->weight.grad().defined());
}

}  // namespace
