// Expected strings were printed by Debian's libtorch 1.13.1 for the same
// modules (a C++ program built against /usr/include/torch/csrc/api/include).
#include <sstream>

#include <gtest/gtest.h>

#include "ember/torch.h"

namespace nn_print_test {

using namespace torch::nn;

struct NetImpl : Module {
  NetImpl() {
    fc = register_module("fc", Linear(3, 4));
    seq = register_module("seq", Sequential(Linear(4, 2), ReLU()));
  }
  torch::Tensor forward(torch::Tensor x) { return x; }
  Linear fc{nullptr};
  Sequential seq{nullptr};
};
TORCH_MODULE(Net);

template <typename M>
std::string str(const M& m) {
  std::ostringstream os;
  os << m;
  return os.str();
}

TEST(NNPrettyPrint, Layers) {
  EXPECT_EQ(str(Linear(3, 4)), "torch::nn::Linear(in_features=3, out_features=4, bias=true)");
  EXPECT_EQ(str(Linear(LinearOptions(3, 4).bias(false))),
            "torch::nn::Linear(in_features=3, out_features=4, bias=false)");
  EXPECT_EQ(str(Identity()), "torch::nn::Identity()");
  EXPECT_EQ(str(Flatten()), "torch::nn::Flatten(start_dim=1, end_dim=-1)");
  EXPECT_EQ(str(Flatten(FlattenOptions().start_dim(2).end_dim(3))), "torch::nn::Flatten(start_dim=2, end_dim=3)");
  EXPECT_EQ(str(Unflatten(UnflattenOptions(1, {2, 3}))), "torch::nn::Unflatten(dim=1, unflattened_size={2, 3})");
  EXPECT_EQ(str(Functional(torch::relu)), "torch::nn::Functional()");
}

TEST(NNPrettyPrint, Activations) {
  EXPECT_EQ(str(ReLU()), "torch::nn::ReLU()");
  EXPECT_EQ(str(ReLU(true)), "torch::nn::ReLU(inplace=true)");
  EXPECT_EQ(str(Sigmoid()), "torch::nn::Sigmoid()");
  EXPECT_EQ(str(Tanh()), "torch::nn::Tanh()");
  EXPECT_EQ(str(SiLU()), "torch::nn::SiLU()");
  EXPECT_EQ(str(Mish()), "torch::nn::Mish()");
  EXPECT_EQ(str(GELU()), "torch::nn::GELU()");
  EXPECT_EQ(str(GELU(GELUOptions().approximate("tanh"))), "torch::nn::GELU()");
  EXPECT_EQ(str(ELU()), "torch::nn::ELU(alpha=1)");
  EXPECT_EQ(str(ELU(ELUOptions().alpha(0.5).inplace(true))), "torch::nn::ELU(alpha=0.5, inplace=true)");
  EXPECT_EQ(str(SELU()), "torch::nn::SELU()");
  EXPECT_EQ(str(SELU(true)), "torch::nn::SELU(inplace=true)");
  EXPECT_EQ(str(LeakyReLU()), "torch::nn::LeakyReLU(negative_slope=0.01)");
  EXPECT_EQ(str(LeakyReLU(LeakyReLUOptions().negative_slope(0.2).inplace(true))),
            "torch::nn::LeakyReLU(negative_slope=0.2, inplace=true)");
  EXPECT_EQ(str(Softplus()), "torch::nn::Softplus(beta=1, threshold=20)");
  EXPECT_EQ(str(Softplus(SoftplusOptions().beta(0.5).threshold(3))), "torch::nn::Softplus(beta=0.5, threshold=3)");
}

TEST(NNPrettyPrint, Containers) {
  EXPECT_EQ(str(Sequential(Linear(3, 4), ReLU(), Net())),
            "torch::nn::Sequential(\n"
            "  (0): torch::nn::Linear(in_features=3, out_features=4, bias=true)\n"
            "  (1): torch::nn::ReLU()\n"
            "  (2): nn_print_test::NetImpl(\n"
            "    (fc): torch::nn::Linear(in_features=3, out_features=4, bias=true)\n"
            "    (seq): torch::nn::Sequential(\n"
            "      (0): torch::nn::Linear(in_features=4, out_features=2, bias=true)\n"
            "      (1): torch::nn::ReLU()\n"
            "    )\n"
            "  )\n"
            ")");
  EXPECT_EQ(str(Sequential({{"a", Linear(3, 4)}, {"b", ReLU()}})),
            "torch::nn::Sequential(\n"
            "  (a): torch::nn::Linear(in_features=3, out_features=4, bias=true)\n"
            "  (b): torch::nn::ReLU()\n"
            ")");
  EXPECT_EQ(str(Sequential()), "torch::nn::Sequential");
  EXPECT_EQ(str(ModuleList(Linear(3, 4), ReLU())),
            "torch::nn::ModuleList(\n"
            "  (0): torch::nn::Linear(in_features=3, out_features=4, bias=true)\n"
            "  (1): torch::nn::ReLU()\n"
            ")");
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> items{{"x", Linear(3, 4).ptr()}, {"y", ReLU().ptr()}};
  EXPECT_EQ(str(ModuleDict(items)),
            "torch::nn::ModuleDict(\n"
            "  (x): torch::nn::Linear(in_features=3, out_features=4, bias=true)\n"
            "  (y): torch::nn::ReLU()\n"
            ")");
}

TEST(NNPrettyPrint, NamesAndSubclassedSequential) {
  Net net;
  EXPECT_EQ(net->name(), "nn_print_test::NetImpl");
  EXPECT_EQ(Linear(3, 4)->name(), "torch::nn::LinearImpl");
  struct S : SequentialImpl {
    S() {
      push_back(Linear(2, 2));
      push_back("act", ReLU());
    }
  };
  auto s = std::make_shared<S>();
  EXPECT_EQ(str(*s),
            "torch::nn::Sequential(\n"
            "  (0): torch::nn::Linear(in_features=2, out_features=2, bias=true)\n"
            "  (act): torch::nn::ReLU()\n"
            ")");
  EXPECT_EQ(str(*Linear(3, 4)->clone()), "torch::nn::Linear(in_features=3, out_features=4, bias=true)");
}

}  // namespace nn_print_test
