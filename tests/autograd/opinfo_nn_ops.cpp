// OpInfo entries for the nn ops: linear, normalization, dropout, embedding and the
// activations of ops/nn/activation.h (formulas: ember/autograd/derivatives/nn_*_grad.cpp;
// the compositions get theirs from the ops they are built of).
#include "ember/ops/nn/activation.h"
#include "ember/ops/nn/dropout.h"
#include "ember/ops/nn/embedding.h"
#include "ember/ops/nn/linear.h"
#include "ember/ops/nn/normalization.h"
#include "ember/ops/nn/relu_dropout.h"
#include "opinfo.h"

namespace torch::testing {
namespace {

using Shapes = std::vector<std::vector<int64_t>>;

OpInfo op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes, const char* grad_fn = "",
          double lo = -1, double hi = 1) {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x)}; };
  o.samples = [shapes, lo, hi] {
    variable_list in;
    uint64_t seed = 71;
    for (const auto& s : shapes) in.push_back(sample(s, lo, hi, seed++));
    return std::vector<variable_list>{in};
  };
  o.grad_fn_name = grad_fn;
  return o;
}

Tensor longs(std::vector<int64_t> v) {
  Tensor t = empty({static_cast<int64_t>(v.size())}, TensorOptions(kLong));
  std::copy(v.begin(), v.end(), t.data_ptr<int64_t>());
  return t;
}

// Positive per-channel constants for the eval-mode running statistics.
Tensor running(int64_t c, double base) { return arange(c, TensorOptions(kDouble)) * 0.1 + base; }

RegisterOps reg({
    op(
        "linear(2D,bias)", [](const variable_list& x) { return ember::linear(x[0], x[1], x[2]); },
        {{4, 3}, {2, 3}, {2}}, "AddmmBackward0"),
    op("linear(3D,bias)", [](const variable_list& x) { return ember::linear(x[0], x[1], x[2]); },
       {{2, 2, 3}, {2, 3}, {2}}),
    op("linear(no bias)", [](const variable_list& x) { return ember::linear(x[0], x[1]); }, {{2, 2, 3}, {2, 3}}),
    op("bilinear", [](const variable_list& x) { return ember::bilinear(x[0], x[1], x[2], x[3]); },
       {{3, 2}, {3, 3}, {2, 2, 3}, {2}}),
    op(
        "batch_norm(train,NC)",
        [](const variable_list& x) { return ember::batch_norm(x[0], x[1], x[2], {}, {}, true, 0.1, 1e-5, false); },
        {{5, 3}, {3}, {3}}, "NativeBatchNormBackward0"),
    op("batch_norm(train,NCHW)",
       [](const variable_list& x) { return ember::batch_norm(x[0], x[1], x[2], {}, {}, true, 0.1, 1e-5, false); },
       {{2, 3, 2, 2}, {3}, {3}}),
    op("batch_norm(train,no affine)",
       [](const variable_list& x) { return ember::batch_norm(x[0], {}, {}, {}, {}, true, 0.1, 1e-5, false); },
       {{3, 2, 4}}),
    op("batch_norm(eval)",
       [](const variable_list& x) {
         return ember::batch_norm(x[0], x[1], x[2], running(3, -0.2), running(3, 0.5), false, 0.1, 1e-5, false);
       },
       {{4, 3, 2}, {3}, {3}}),
    op(
        "layer_norm",
        [](const variable_list& x) {
          return ember::layer_norm(x[0], {2, 3}, x[1], x[2]);
        },
        {{2, 2, 3}, {2, 3}, {2, 3}}, "NativeLayerNormBackward0"),
    op("layer_norm(no affine)", [](const variable_list& x) { return ember::layer_norm(x[0], {4}); }, {{3, 4}}),
    op("group_norm", [](const variable_list& x) { return ember::group_norm(x[0], 2, x[1], x[2]); },
       {{2, 4, 3}, {4}, {4}}),
    op("instance_norm",
       [](const variable_list& x) { return ember::instance_norm(x[0], x[1], x[2], {}, {}, true, 0.1, 1e-5, false); },
       {{2, 3, 4}, {3}, {3}}),
    op("local_response_norm", [](const variable_list& x) { return ember::local_response_norm(x[0], 3, 0.1, 0.75, 1); },
       {{2, 4, 3}}),
    op("dropout(train, seeded)",
       [](const variable_list& x) {
         manual_seed(0);
         return ember::dropout(x[0], 0.3, true);
       },
       {{4, 5}}),
    op(
        "relu_dropout(train, seeded)",
        [](const variable_list& x) {
          manual_seed(0);
          return ember::relu_dropout(x[0], 0.3, true);
        },
        {{4, 5}}, "ReluDropoutBackward0"),
    op("feature_dropout(seeded)",
       [](const variable_list& x) {
         manual_seed(0);
         return ember::feature_dropout(x[0], 0.5, true);
       },
       {{3, 4, 2}}),
    op("alpha_dropout(seeded)",
       [](const variable_list& x) {
         manual_seed(0);
         return ember::alpha_dropout(x[0], 0.3, true);
       },
       {{4, 5}}),
    op(
        "embedding",
        [](const variable_list& x) {
          return ember::embedding(x[0], longs({1, 3, 1, 0}).view({2, 2}));
        },
        {{5, 3}}, "EmbeddingBackward0"),
    // padding_idx and scale_grad_by_freq deliberately differ from the true gradient
    // (PyTorch's definition), so gradcheck cannot cover them; tests/ops/embedding_test.cpp does.
    op("embedding(int32 indices)",
       [](const variable_list& x) {
         return ember::embedding(x[0], longs({4, 0, 2}).to(kInt));
       },
       {{5, 3}}),
    op("embedding_bag(sum, psw)",
       [](const variable_list& x) {
         return std::get<0>(ember::embedding_bag(x[0], longs({1, 3, 1, 0, 4}), longs({0, 2}), false, 0, false, x[1]));
       },
       {{5, 3}, {5}}),
    op("embedding_bag(mean)",
       [](const variable_list& x) {
         return std::get<0>(ember::embedding_bag(x[0], longs({1, 3, 1, 0, 4}), longs({0, 2, 2}), false, 1));
       },
       {{5, 3}}),
    op("embedding_bag(max)",
       [](const variable_list& x) {
         return std::get<0>(ember::embedding_bag(x[0], longs({1, 3, 1, 0, 4}), longs({0, 2}), false, 2));
       },
       {{5, 3}}),
    op(
        "hardtanh", [](const variable_list& x) { return ember::hardtanh(x[0], -0.5, 0.7); }, {{3, 4}},
        "HardtanhBackward0"),
    op(
        "relu6", [](const variable_list& x) { return ember::relu6(x[0]); }, {{3, 4}}, "HardtanhBackward0", -3, 8),
    op("hardtanh_backward", [](const variable_list& x) { return ember::hardtanh_backward(x[0], x[1], -0.5, 0.7); },
       {{3, 4}, {3, 4}}),
    op(
        "threshold", [](const variable_list& x) { return ember::threshold(x[0], 0.1, 2.0); }, {{3, 4}},
        "ThresholdBackward0"),
    op("prelu(scalar)", [](const variable_list& x) { return ember::prelu(x[0], x[1]); }, {{2, 3, 2}, {1}}),
    op("prelu(channel)", [](const variable_list& x) { return ember::prelu(x[0], x[1]); }, {{2, 3, 2}, {3}}),
    op("celu", [](const variable_list& x) { return ember::celu(x[0], 1.5); }, {{3, 4}}),
    op("rrelu(eval)", [](const variable_list& x) { return ember::rrelu(x[0], 0.1, 0.3, false); }, {{3, 4}}),
    op("rrelu(train, seeded)",
       [](const variable_list& x) { return ember::rrelu(x[0], 0.1, 0.3, true, make_generator(3)); }, {{3, 4}}),
    op("glu", [](const variable_list& x) { return ember::glu(x[0], 0); }, {{4, 3}}),
    op("hardshrink", [](const variable_list& x) { return ember::hardshrink(x[0], 0.3); }, {{3, 4}}),
    op("softshrink", [](const variable_list& x) { return ember::softshrink(x[0], 0.3); }, {{3, 4}}),
    op("tanhshrink", [](const variable_list& x) { return ember::tanhshrink(x[0]); }, {{3, 4}}),
    op(
        "log_sigmoid", [](const variable_list& x) { return ember::log_sigmoid(x[0]); }, {{3, 4}}, "", -4, 4),
});

}  // namespace
}  // namespace torch::testing
