#include <sstream>

#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/torch.h"

namespace nn_module_test {

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

// A cloneable composite: reset() creates everything.
struct BlockImpl : Cloneable<BlockImpl> {
  BlockImpl() { reset(); }
  void reset() override {
    conv = register_module("inner", Linear(2, 2));
    gamma = register_parameter("gamma", torch::ones({2}));
    stat = register_buffer("stat", torch::zeros({2}));
  }
  torch::Tensor forward(const torch::Tensor& x) { return inner_forward(x) * gamma; }
  torch::Tensor inner_forward(const torch::Tensor& x) { return conv(x); }
  Linear conv{nullptr};
  torch::Tensor gamma, stat;
};
TORCH_MODULE(Block);

TEST(NNModule, NamedParametersAreDotted) {
  Net net;
  std::vector<std::string> names;
  for (auto& p : net->named_parameters()) names.push_back(p.key());
  EXPECT_EQ(names, (std::vector<std::string>{"scale", "fc.weight", "fc.bias", "seq.0.weight", "seq.0.bias"}));
  EXPECT_EQ(net->parameters().size(), 5u);
  EXPECT_EQ(net->parameters(/*recurse=*/false).size(), 1u);
  EXPECT_EQ(net->named_buffers().keys(), std::vector<std::string>{"running"});
  EXPECT_EQ(net->buffers().size(), 1u);
  for (auto& p : net->parameters()) EXPECT_TRUE(p.requires_grad() && p.is_leaf());
  // The stored handle and the member are the same tensor.
  EXPECT_TRUE(net->named_parameters()["fc.weight"].is_same(net->fc->weight));
  auto p = *net->named_parameters().find("seq.0.bias");
  EXPECT_EQ(p.sizes(), (std::vector<int64_t>{2}));
}

TEST(NNModule, DeeplyNestedNames) {
  auto layer = Sequential(Block(), Block());
  auto outer = std::make_shared<Module>();
  outer->register_module("layer1", layer);
  auto names = outer->named_parameters().keys();
  EXPECT_EQ(names, (std::vector<std::string>{"layer1.0.gamma", "layer1.0.inner.weight", "layer1.0.inner.bias",
                                             "layer1.1.gamma", "layer1.1.inner.weight", "layer1.1.inner.bias"}));
  EXPECT_EQ(outer->named_buffers().keys(), (std::vector<std::string>{"layer1.0.stat", "layer1.1.stat"}));
  auto mods = outer->named_modules();
  EXPECT_EQ(mods.keys(),
            (std::vector<std::string>{"", "layer1", "layer1.0", "layer1.0.inner", "layer1.1", "layer1.1.inner"}));
  EXPECT_EQ(outer->named_modules("pre", false).keys().front(), "pre.layer1");
  EXPECT_EQ(outer->modules().size(), 6u);
  EXPECT_EQ(outer->modules(false).size(), 5u);
  EXPECT_EQ(outer->children().size(), 1u);
  EXPECT_EQ(outer->named_children().keys(), std::vector<std::string>{"layer1"});
}

TEST(NNModule, ForwardThroughHolder) {
  Net net;
  auto y = net(torch::randn({5, 3}));
  EXPECT_EQ(y.sizes(), (std::vector<int64_t>{5, 2}));
  y.sum().backward();
  EXPECT_TRUE(net->fc->weight.grad().defined());
  EXPECT_TRUE(net->scale.grad().defined());
}

TEST(NNModule, TrainEvalRecurse) {
  Net net;
  EXPECT_TRUE(net->is_training());
  net->eval();
  for (auto& m : net->modules()) EXPECT_FALSE(m->is_training());
  net->train();
  for (auto& m : net->modules()) EXPECT_TRUE(m->is_training());
  net->train(false);
  EXPECT_FALSE(net->seq[1]->is_training());
}

TEST(NNModule, ToDoubleInPlaceKeepsLeaves) {
  Net net;
  torch::Tensor w = net->fc->weight;  // a handle taken before the conversion
  auto before = w.clone();
  net->to(torch::kDouble);
  for (auto& p : net->parameters()) {
    EXPECT_EQ(p.dtype(), torch::kDouble);
    EXPECT_TRUE(p.requires_grad());
    EXPECT_TRUE(p.is_leaf());
  }
  EXPECT_EQ(net->running.dtype(), torch::kDouble);
  EXPECT_EQ(w.dtype(), torch::kDouble);  // every handle sees the new data
  EXPECT_TENSOR_CLOSE(w, before.to(torch::kDouble));
  auto y = net(torch::randn({2, 3}, torch::kDouble));
  EXPECT_EQ(y.dtype(), torch::kDouble);
  y.sum().backward();
  EXPECT_EQ(net->fc->weight.grad().dtype(), torch::kDouble);
  net->to(torch::kCPU);
  net->to(torch::Device(torch::kCPU), torch::kFloat);
  EXPECT_EQ(net->fc->weight.dtype(), torch::kFloat);
}

TEST(NNModule, ZeroGrad) {
  Net net;
  // Through fc only, so the gradient cannot vanish behind the ReLU.
  net->fc(torch::randn({2, 3})).sum().backward();
  auto grad = net->fc->weight.grad();
  EXPECT_TRUE(grad.abs().sum().item<float>() > 0);
  net->zero_grad();
  ASSERT_TRUE(net->fc->weight.grad().defined());  // 1.13: zero-filled, not reset
  EXPECT_EQ(net->fc->weight.grad().abs().sum().item<float>(), 0.0f);
  net->zero_grad(/*set_to_none=*/true);
  EXPECT_FALSE(net->fc->weight.grad().defined());
  net->zero_grad();  // no grads: nothing to do
}

TEST(NNModule, CloneIsIndependent) {
  Block block;
  block->stat.fill_(3);
  auto copy = std::dynamic_pointer_cast<BlockImpl>(block->clone());
  ASSERT_TRUE(copy);
  // The copy's member holders point into the copy, with equal values.
  EXPECT_TRUE(copy->conv.ptr() == copy->named_children()["inner"]);
  EXPECT_FALSE(copy->conv.ptr() == block->conv.ptr());
  EXPECT_TENSOR_EQ(copy->conv->weight, block->conv->weight);
  EXPECT_TENSOR_EQ(copy->stat, block->stat);
  EXPECT_TRUE(copy->conv->weight.requires_grad());
  EXPECT_TRUE(copy->named_parameters()["inner.weight"].is_same(copy->conv->weight));
  {
    torch::NoGradGuard g;
    copy->conv->weight.fill_(7);
    copy->stat.fill_(0);
  }
  EXPECT_NE(block->conv->weight.sum().item<float>(), 7.0f * 4);
  EXPECT_EQ(block->stat.sum().item<float>(), 6.0f);
  auto x = torch::randn({3, 2});
  EXPECT_EQ(copy->forward(x).sizes(), block->forward(x).sizes());

  auto seq = Sequential({{"a", Linear(2, 3)}, {"b", ReLU()}});
  auto seq_copy = std::dynamic_pointer_cast<SequentialImpl>(seq->clone());
  EXPECT_EQ(seq_copy->named_children().keys(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TENSOR_EQ(seq_copy->at<LinearImpl>(0).weight, seq->at<LinearImpl>(0).weight);
  EXPECT_FALSE(seq_copy->at<LinearImpl>(0).weight.is_same(seq->at<LinearImpl>(0).weight));
  EXPECT_TENSOR_EQ(seq_copy->forward(x), seq->forward(x));

  // A plain Module cannot be cloned.
  Net net;
  EXPECT_EMBER_ERROR(net->clone(), "clone", "Cloneable");
}

TEST(NNModule, CloneToDeviceAndNamedModule) {
  Block block;
  auto copy = std::dynamic_pointer_cast<BlockImpl>(block->clone(torch::Device(torch::kCPU)));
  ASSERT_TRUE(copy);
  EXPECT_TENSOR_EQ(copy->conv->weight, block->conv->weight);
  EXPECT_FALSE(copy->conv->weight.is_same(block->conv->weight));
  EXPECT_NE(copy->conv->weight.data_ptr(), block->conv->weight.data_ptr());
  Module named("MyModel");
  EXPECT_EQ(named.name(), "MyModel");
  std::ostringstream os;
  os << named;
  EXPECT_EQ(os.str(), "MyModel");
}

TEST(NNModule, ApplyOverloads) {
  Net net;
  int count = 0;
  net->apply([&](Module& m) { ++count; });
  EXPECT_EQ(count, 5);
  std::vector<std::string> names;
  net->apply([&](const std::string& name, Module&) { names.push_back(name); }, "root");
  EXPECT_EQ(names, (std::vector<std::string>{"root", "root.fc", "root.seq", "root.seq.0", "root.seq.1"}));
  count = 0;
  net->apply([&](const std::shared_ptr<Module>& m) { ++count; });
  EXPECT_EQ(count, 5);
  const NetImpl& cnet = *net;
  count = 0;
  cnet.apply([&](const Module&) { ++count; });
  EXPECT_EQ(count, 5);
  // Re-initialise every Linear through apply, as programs do.
  net->apply([](Module& m) {
    if (auto* lin = m.as<Linear>()) torch::nn::init::zeros_(lin->weight);
  });
  EXPECT_EQ(net->fc->weight.abs().sum().item<float>(), 0.0f);
}

// The holder owns through a type-erased pointer beside a typed one (Note
// [Type-erased module holder]): ptr() shares the ownership, the module lives
// while any holder or ptr() copy does, and a moved-from holder is empty.
TEST(NNModule, HolderOwnershipAndMoves) {
  Linear a(LinearOptions(3, 2));
  std::weak_ptr<LinearImpl> watch = a.ptr();
  EXPECT_EQ(a.ptr().use_count(), 2);  // the holder and the temporary
  std::shared_ptr<LinearImpl> kept = a.ptr();
  Linear b = std::move(a);
  EXPECT_TRUE(a.is_empty());
  EXPECT_EQ(a.ptr(), nullptr);
  EXPECT_EMBER_ERROR(a->forward(torch::ones({1, 3})), "empty ModuleHolder");
  EXPECT_EQ(b.ptr(), kept);
  Linear c{nullptr};
  c = std::move(b);
  EXPECT_TRUE(b.is_empty());
  EXPECT_EQ(c.get(), kept.get());
  c = nullptr;
  EXPECT_TRUE(c.is_empty());
  EXPECT_FALSE(watch.expired());  // `kept` still owns it
  kept.reset();
  EXPECT_TRUE(watch.expired());
}

TEST(NNModule, AsAndHolders) {
  Net net;
  std::shared_ptr<Module> fc = net->named_children()["fc"];
  EXPECT_NE(fc->as<Linear>(), nullptr);
  EXPECT_NE(fc->as<LinearImpl>(), nullptr);
  EXPECT_EQ(fc->as<ReLU>(), nullptr);
  EXPECT_EQ(fc->as<Linear>()->options.out_features(), 4);

  Linear empty{nullptr};
  EXPECT_TRUE(empty.is_empty());
  EXPECT_FALSE(static_cast<bool>(empty));
  EXPECT_EMBER_ERROR(empty->forward(torch::ones({1, 3})), "empty ModuleHolder");
  empty = Linear(LinearOptions(3, 2).bias(false));
  EXPECT_FALSE(empty.is_empty());
  EXPECT_FALSE(empty->bias.defined());
  EXPECT_EQ(empty->parameters().size(), 1u);
  Linear alias = empty;  // reference semantics
  EXPECT_EQ(alias.ptr(), empty.ptr());
  EXPECT_EQ(alias.get(), empty.ptr().get());
  EXPECT_EQ((*alias).options.in_features(), 3);
  EXPECT_TRUE(Functional(torch::relu)->is_serializable() == false);
  EXPECT_TRUE(empty->is_serializable());
}

TEST(NNModule, RegistrationErrors) {
  auto m = std::make_shared<Module>();
  m->register_parameter("w", torch::ones({2}));
  EXPECT_EMBER_ERROR(m->register_parameter("w", torch::ones({2})), "Parameter 'w' already defined");
  EXPECT_EMBER_ERROR(m->register_parameter("a.b", torch::ones({2})), "dot");
  EXPECT_EMBER_ERROR(m->register_parameter("", torch::ones({2})), "empty");
  EXPECT_EMBER_ERROR(m->register_buffer("x.y", torch::ones({2})), "dot");
  EXPECT_EMBER_ERROR(m->register_module("a.b", Linear(1, 1)), "dot");
  EXPECT_EMBER_ERROR(m->register_module("l", Linear(nullptr)), "null");
  m->register_module("l", Linear(1, 1));
  EXPECT_EMBER_ERROR(m->register_module("l", Linear(1, 1)), "Submodule 'l' already defined");
  m->replace_module("l", Linear(2, 2));
  EXPECT_EQ(m->named_parameters()["l.weight"].sizes(), (std::vector<int64_t>{2, 2}));
  m->unregister_module("l");
  EXPECT_EQ(m->children().size(), 0u);
  EXPECT_EMBER_ERROR(m->replace_module("zz", Linear(2, 2)), "Submodule 'zz' is not defined");
  // requires_grad = false registers a frozen parameter.
  auto& frozen = m->register_parameter("frozen", torch::ones({2}), /*requires_grad=*/false);
  EXPECT_FALSE(frozen.requires_grad());
  // Stack-allocated modules cannot hand out shared_ptrs to themselves.
  NetImpl on_stack;
  EXPECT_EMBER_ERROR(on_stack.modules(), "shared_ptr");
  EXPECT_EQ(on_stack.modules(/*include_self=*/false).size(), 4u);
}

TEST(NNModule, OrderedDictBasics) {
  torch::OrderedDict<std::string, int> d;
  d.insert("b", 1);
  d.insert("a", 2);
  EXPECT_EQ(d.keys(), (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(d["a"], 2);
  EXPECT_EQ(d[0].key(), "b");
  EXPECT_EQ(*d[1], 2);
  EXPECT_EMBER_ERROR(d.insert("a", 3), "already defined");
  EXPECT_EMBER_ERROR(d["zz"], "not defined");
  EXPECT_EQ(d.pop("b"), 1);
  EXPECT_EQ(d.size(), 1u);
  EXPECT_EQ(d["a"], 2);
  EXPECT_EMBER_ERROR(d.update(torch::OrderedDict<std::string, int>{{"a", 5}}), "Key 'a' already defined");
  d.update(torch::OrderedDict<std::string, int>{{"c", 6}});
  EXPECT_EQ(d.values(), (std::vector<int>{2, 6}));
  EXPECT_TRUE(d.contains("c"));
  EXPECT_EQ(d.find("q"), nullptr);
}

TEST(NNModule, ExpandingArray) {
  torch::ExpandingArray<2> a(3);
  EXPECT_EQ((*a)[0], 3);
  EXPECT_EQ((*a)[1], 3);
  torch::ExpandingArray<2> b({1, 2});
  torch::IntArrayRef ref = b;
  EXPECT_EQ(ref.vec(), (std::vector<int64_t>{1, 2}));
  EXPECT_EMBER_ERROR(torch::ExpandingArray<3>({1, 2}), "Expected 3 values");
  std::ostringstream os;
  os << b;
  EXPECT_EQ(os.str(), "[1, 2]");
}

}  // namespace nn_module_test
