#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/torch.h"

namespace nn_container_test {

using namespace torch::nn;

// A module whose forward takes two arguments and returns a non-Tensor.
struct PairImpl : Module {
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& a, const torch::Tensor& b) { return {a, b}; }
};
TORCH_MODULE(Pair);

struct SumPairImpl : Module {
  torch::Tensor forward(std::pair<torch::Tensor, torch::Tensor> p) { return p.first + p.second; }
};
TORCH_MODULE(SumPair);

// forward() with a trailing default argument, declared for AnyModule.
struct ScaleImpl : Module {
  torch::Tensor forward(const torch::Tensor& x, double factor = 2.0) { return x * factor; }

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(2.0)})
};
TORCH_MODULE(Scale);

// Subclassing SequentialImpl and filling it in the constructor, as programs do.
struct MlpImpl : SequentialImpl {
  MlpImpl() {
    push_back(Linear(3, 5));
    push_back(Functional(torch::relu));
    push_back("out", Linear(5, 2));
  }
};
TORCH_MODULE(Mlp);

TEST(NNSequential, ConstructionForms) {
  Sequential variadic(Linear(3, 4), ReLU(), Linear(4, 2));
  EXPECT_EQ(variadic->size(), 3u);
  Sequential braced{Linear(3, 4), ReLU()};
  EXPECT_EQ(braced->size(), 2u);
  Sequential named({{"fc", Linear(3, 4)}, {"act", ReLU()}});
  EXPECT_EQ(named->named_children().keys(), (std::vector<std::string>{"fc", "act"}));
  Sequential from_impls(LinearImpl(3, 4), ReLUImpl());
  EXPECT_EQ(from_impls->size(), 2u);
  Sequential from_ptrs(std::make_shared<LinearImpl>(3, 4));
  EXPECT_EQ(from_ptrs->size(), 1u);
  Sequential empty;
  EXPECT_TRUE(empty->is_empty());
  EXPECT_EMBER_ERROR(empty->forward(torch::ones({1})), "empty Sequential");
  Sequential null_seq{nullptr};
  EXPECT_TRUE(null_seq.is_empty());
}

TEST(NNSequential, ForwardChainsAndIndexes) {
  Sequential seq(Linear(3, 4), ReLU(), Linear(4, 2));
  auto x = torch::randn({5, 3});
  auto expected = seq->at<LinearImpl>(2).forward(torch::relu(seq->at<LinearImpl>(0).forward(x)));
  EXPECT_TENSOR_CLOSE(seq->forward(x), expected);
  EXPECT_TENSOR_CLOSE(seq(x), expected);
  EXPECT_TENSOR_CLOSE(seq->forward<torch::Tensor>(x), expected);
  EXPECT_EMBER_ERROR(seq->forward<int>(x), "return value", "int");
  EXPECT_NE(seq[0]->as<Linear>(), nullptr);
  EXPECT_NE(seq->ptr(1)->as<ReLU>(), nullptr);
  EXPECT_EQ(seq->ptr<LinearImpl>(2)->options.out_features(), 2);
  EXPECT_EMBER_ERROR(seq->ptr<ReLUImpl>(0), "Attempted to cast");
  EXPECT_EMBER_ERROR(seq->ptr(3), "out of range");
  size_t n = 0;
  for (auto& m : *seq) {
    EXPECT_FALSE(m.is_empty());
    ++n;
  }
  EXPECT_EQ(n, 3u);
  seq->push_back(Tanh());
  seq->push_back("last", Sigmoid());
  EXPECT_EQ(seq->named_children().keys(), (std::vector<std::string>{"0", "1", "2", "3", "last"}));
  EXPECT_EQ(seq->parameters().size(), 4u);
}

TEST(NNSequential, MultiArgumentAndNonTensorValues) {
  Sequential seq{Pair(), SumPair()};
  auto a = torch::ones({2}), b = torch::full({2}, 2.0);
  EXPECT_TENSOR_CLOSE(seq->forward(a, b), torch::full({2}, 3.0));
  Sequential bad(Linear(2, 2));
  EXPECT_EMBER_ERROR(bad->forward(a, b), "expects 1 argument(s), but received 2");
  EXPECT_EMBER_ERROR(bad->forward(3), "Expected argument #0 to be of type");
}

TEST(NNSequential, DefaultForwardArguments) {
  auto x = torch::ones({2});
  Sequential seq{Scale()};
  EXPECT_TENSOR_CLOSE(seq->forward(x), torch::full({2}, 2.0));
  AnyModule any(Scale{});
  EXPECT_TENSOR_CLOSE(any.forward(x, 3.0), torch::full({2}, 3.0));
  EXPECT_TENSOR_CLOSE(any.forward(x), torch::full({2}, 2.0));
  EXPECT_EMBER_ERROR(any.forward(), "at least 1 argument(s)");
}

TEST(NNSequential, NestedSequential) {
  // An Ember extension: LibTorch cannot nest a Sequential (its forward is a template).
  Sequential inner(Linear(4, 2), Tanh());
  Sequential outer(Linear(3, 4), ReLU(), inner, Mlp());
  auto x = torch::randn({5, 3});
  auto expected = torch::relu(outer->at<LinearImpl>(0).forward(x));
  expected = inner->forward(expected);
  EXPECT_EQ(outer->named_parameters().keys().size(), 2u + 2u + 4u);
  EXPECT_EQ(outer->named_parameters().keys()[2], "2.0.weight");
  Sequential pair_seq{Pair(), SumPair()};
  auto wrapped = std::make_shared<SequentialImpl>(pair_seq);  // one child: pair_seq itself
  EXPECT_EQ(wrapped->size(), 1u);
  EXPECT_TENSOR_CLOSE(wrapped->forward(torch::ones({2}), torch::ones({2})), torch::full({2}, 2.0));
  Sequential chain(Linear(3, 4), ReLU(), inner);
  EXPECT_TENSOR_CLOSE(chain->forward(x), inner->forward(torch::relu(chain->at<LinearImpl>(0).forward(x))));
  auto copy = std::dynamic_pointer_cast<SequentialImpl>(chain->clone());
  EXPECT_TENSOR_CLOSE(copy->forward(x), chain->forward(x));
}

TEST(NNSequential, Subclass) {
  Mlp mlp;
  EXPECT_EQ(mlp->size(), 3u);
  EXPECT_EQ(mlp->named_parameters().keys(), (std::vector<std::string>{"0.weight", "0.bias", "out.weight", "out.bias"}));
  auto y = mlp->forward(torch::randn({4, 3}));
  EXPECT_EQ(y.sizes(), (std::vector<int64_t>{4, 2}));
}

TEST(NNFunctional, FreeFunctionsBoundArgsAndLambdas) {
  auto x = torch::tensor({-2.0f, -0.5f, 0.0f, 1.5f});
  Functional relu(torch::relu);
  EXPECT_TENSOR_EQ(relu(x), torch::relu(x));
  Functional tanh(torch::tanh);
  EXPECT_TENSOR_EQ(tanh(x), torch::tanh(x));
  Functional leaky(torch::leaky_relu, 0.2);
  EXPECT_TENSOR_EQ(leaky(x), torch::leaky_relu(x, 0.2));
  std::vector<int64_t> shape{2, 2};
  Functional reshape(torch::reshape, shape);
  EXPECT_EQ(reshape(x).sizes(), (std::vector<int64_t>{2, 2}));
  torch::ExpandingArray<2> unflat({2, 2});
  Functional unflatten(torch::unflatten, 0, unflat);  // ExpandingArray bound where an IntArrayRef is expected
  EXPECT_EQ(unflatten(x).sizes(), (std::vector<int64_t>{2, 2}));
  Functional twice([](torch::Tensor t) { return t * 2; });
  EXPECT_TENSOR_EQ(twice(x), x * 2);
  Sequential seq(Functional(torch::relu), Functional([](torch::Tensor t) { return t + 1; }));
  EXPECT_TENSOR_EQ(seq->forward(x), torch::relu(x) + 1);
  auto copy = std::dynamic_pointer_cast<FunctionalImpl>(leaky->clone());
  ASSERT_TRUE(copy);
  EXPECT_TENSOR_EQ(copy->forward(x), leaky(x));
}

TEST(NNModuleList, Behaviour) {
  ModuleList list(Linear(3, 4), ReLU());
  list->push_back(Linear(4, 2));
  EXPECT_EQ(list->size(), 3u);
  EXPECT_EQ(list->named_parameters().keys(), (std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"}));
  auto x = torch::randn({2, 3});
  for (const auto& m : *list) {
    if (auto* lin = m->as<Linear>())
      x = lin->forward(x);
    else
      x = m->as<ReLU>()->forward(x);
  }
  EXPECT_EQ(x.sizes(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(list->at<LinearImpl>(2).options.in_features(), 4);
  EXPECT_EMBER_ERROR(list->at<LinearImpl>(1), "unable to cast");
  EXPECT_EQ(list->ptr<ReLUImpl>(1) != nullptr, true);
  EXPECT_EMBER_ERROR(list[5], "out of range");
  list->insert(0, Tanh());
  EXPECT_NE(list[0]->as<Tanh>(), nullptr);
  EXPECT_EQ(list->named_parameters().keys(), (std::vector<std::string>{"1.weight", "1.bias", "3.weight", "3.bias"}));
  ModuleList other{Sigmoid()};
  list->extend(*other);
  EXPECT_EQ(list->size(), 5u);
  auto copy = std::dynamic_pointer_cast<ModuleListImpl>(list->clone());
  EXPECT_EQ(copy->size(), 5u);
  EXPECT_FALSE(copy->at<LinearImpl>(1).weight.is_same(list->at<LinearImpl>(1).weight));
  EXPECT_TENSOR_EQ(copy->at<LinearImpl>(1).weight, list->at<LinearImpl>(1).weight);
}

TEST(NNModuleDict, Behaviour) {
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> items{{"fc", Linear(3, 4).ptr()}, {"act", ReLU().ptr()}};
  ModuleDict dict(items);
  EXPECT_EQ(dict->size(), 2u);
  EXPECT_EQ(dict->keys(), (std::vector<std::string>{"fc", "act"}));
  EXPECT_TRUE(dict->contains("fc"));
  EXPECT_EQ(dict->at<LinearImpl>("fc").options.out_features(), 4);
  EXPECT_NE(dict["act"]->as<ReLU>(), nullptr);
  EXPECT_EMBER_ERROR(dict["nope"], "Module 'nope' is not defined");
  dict->insert("out", Linear(4, 1));
  EXPECT_EQ(dict->named_parameters().keys(),
            (std::vector<std::string>{"fc.weight", "fc.bias", "out.weight", "out.bias"}));
  dict->insert("fc", Linear(3, 8));  // replaces in place
  EXPECT_EQ(dict->keys(), (std::vector<std::string>{"fc", "act", "out"}));
  EXPECT_EQ(dict->named_parameters()["fc.weight"].size(0), 8);
  auto popped = dict->pop("act");
  EXPECT_NE(popped->as<ReLU>(), nullptr);
  EXPECT_EQ(dict->named_children().keys(), (std::vector<std::string>{"fc", "out"}));
  int n = 0;
  for (const auto& item : *dict) n += item.key().size() > 0;
  EXPECT_EQ(n, 2);
  dict->clear();
  EXPECT_TRUE(dict->empty());
  EXPECT_EQ(dict->children().size(), 0u);
}

}  // namespace nn_container_test
