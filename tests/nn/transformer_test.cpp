// MultiheadAttention, Transformer{Encoder,Decoder}Layer, Transformer{Encoder,Decoder} and
// Transformer against PyTorch (tools/golden/gen_transformer.py): PyTorch's parameters are
// loaded by their state_dict names (so the names must match), outputs are compared in
// eval mode, then the gradients of (y * gy).sum() (+ (w * gw).sum()) w.r.t. the inputs
// and every parameter. Also: default init, parameter finite differences in float64, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace transformer_test {

using namespace torch::nn;
using ember::testing::Golden;
using torch::Tensor;

const Golden& golden() {
  static const Golden g("transformer.golden");
  return g;
}

#define EXPECT_CLOSE(actual, expected) EXPECT_TENSOR_CLOSE_TOL(actual, expected, 1e-4, 2e-5)

// Copies PyTorch's parameters into m by name; every name must exist on both sides.
void load(Module& m, const std::string& name) {
  torch::NoGradGuard no_grad;
  const auto params = m.named_parameters();
  EXPECT_EQ(golden().names_with_prefix(name + ".p.").size(), params.size()) << name;
  for (const auto& p : params) {
    ASSERT_TRUE(golden().has(name + ".p." + p.key())) << name << ": PyTorch has no parameter " << p.key();
    Tensor param = p.value();
    param.copy_(golden()[name + ".p." + p.key()]);
  }
}

Tensor leaf(const std::string& key) { return golden()[key].clone().requires_grad_(true); }

// Backward of (y * gy).sum() (+ (w * gw).sum()), then every parameter gradient vs PyTorch.
void backward_and_check(Module& m, const std::string& name, const Tensor& y, const Tensor& w = {}) {
  EXPECT_CLOSE(y, golden()[name + ".y"]);
  Tensor loss = (y * golden()[name + ".gy"]).sum();
  if (w.defined()) {
    EXPECT_CLOSE(w, golden()[name + ".w"]);
    loss = loss + (w * golden()[name + ".gw"]).sum();
  }
  loss.backward();
  for (const auto& p : m.named_parameters()) {
    SCOPED_TRACE(name + " grad of " + p.key());
    ASSERT_TRUE(p.value().grad().defined());
    EXPECT_CLOSE(p.value().grad(), golden()[name + ".g." + p.key()]);
  }
}

void expect_input_grad(const Tensor& t, const std::string& key) {
  SCOPED_TRACE(key);
  ASSERT_TRUE(t.grad().defined());
  EXPECT_CLOSE(t.grad(), golden()[key]);
}

TEST(NNMultiheadAttention, SelfAttentionGolden) {
  MultiheadAttention m(8, 2);
  m->eval();
  load(*m, "mha_self");
  Tensor x = leaf("mha_self.x");
  auto [y, w] = m(x, x, x);
  EXPECT_EQ(w.sizes().vec(), (std::vector<int64_t>{2, 3, 3}));
  backward_and_check(*m, "mha_self", y, w);
  expect_input_grad(x, "mha_self.grad_x");
}

// Without need_weights the heads go through scaled_dot_product_attention (Note [Fused
// attention]); in training, after the same seed, it drops the same weights as the path
// that returns them: same output and gradients, packed or separate projections.
TEST(NNMultiheadAttention, NoWeightsPathEqualsWeightsPath) {
  torch::manual_seed(8);
  MultiheadAttention m(MultiheadAttentionOptions(8, 2).dropout(0.3));
  m->to(torch::kDouble);
  m->train();
  Tensor x = torch::randn({5, 3, 8}, torch::kDouble).requires_grad_();
  Tensor kv = torch::randn({4, 3, 8}, torch::kDouble).requires_grad_();
  Tensor mask = torch::randn({5, 4}, torch::kDouble);
  for (bool self : {true, false}) {
    SCOPED_TRACE(self ? "self-attention" : "separate key/value");
    const Tensor& k = self ? x : kv;
    std::vector<Tensor> inputs = m->parameters();
    inputs.push_back(x);
    if (!self) inputs.push_back(kv);
    torch::manual_seed(4);
    Tensor a = std::get<0>(m(x, k, k, Tensor(), true, self ? Tensor() : mask));
    torch::manual_seed(4);
    Tensor b = std::get<0>(m(x, k, k, Tensor(), false, self ? Tensor() : mask));
    EXPECT_TENSOR_CLOSE_TOL(b, a, 1e-12, 1e-12);
    Tensor g = torch::randn(a.sizes(), torch::kDouble);
    auto ga = torch::autograd::grad({a}, inputs, {g}, true, false, true);
    auto gb = torch::autograd::grad({b}, inputs, {g}, true, false, true);
    for (size_t i = 0; i < inputs.size(); ++i) EXPECT_TENSOR_CLOSE_TOL(gb[i], ga[i], 1e-12, 1e-12);
  }
}

TEST(NNMultiheadAttention, BoolMasksPerHeadWeightsGolden) {
  const auto& g = golden();
  MultiheadAttention m(8, 2);
  m->eval();
  load(*m, "mha_cross");
  Tensor q = leaf("mha_cross.q"), kv = leaf("mha_cross.kv");
  auto [y, w] = m(q, kv, kv, g["mha_cross.key_padding_mask"], true, g["mha_cross.attn_mask"], false);
  EXPECT_EQ(w.sizes().vec(), (std::vector<int64_t>{2, 2, 3, 4}));
  backward_and_check(*m, "mha_cross", y, w);
  expect_input_grad(q, "mha_cross.grad_q");
  expect_input_grad(kv, "mha_cross.grad_kv");
}

TEST(NNMultiheadAttention, Float3dMaskNoWeightsGolden) {
  MultiheadAttention m(8, 2);
  m->eval();
  load(*m, "mha_float3d");
  Tensor q = leaf("mha_float3d.q"), k = leaf("mha_float3d.k"), v = leaf("mha_float3d.v");
  auto [y, w] = m(q, k, v, Tensor(), false, golden()["mha_float3d.attn_mask"]);
  EXPECT_FALSE(w.defined());
  backward_and_check(*m, "mha_float3d", y);
  for (const char* n : {"q", "k", "v"})
    expect_input_grad(n[0] == 'q' ? q : n[0] == 'k' ? k : v, std::string("mha_float3d.grad_") + n);
}

TEST(NNMultiheadAttention, KdimVdimBiasKvZeroAttnGolden) {
  const auto& g = golden();
  MultiheadAttention m(MultiheadAttentionOptions(8, 2).kdim(5).vdim(7).add_bias_kv(true).add_zero_attn(true));
  EXPECT_FALSE(m->_qkv_same_embed_dim);
  EXPECT_FALSE(m->in_proj_weight.defined());
  m->eval();
  load(*m, "mha_kvdim");
  Tensor q = leaf("mha_kvdim.q"), k = leaf("mha_kvdim.k"), v = leaf("mha_kvdim.v");
  auto [y, w] = m(q, k, v, g["mha_kvdim.key_padding_mask"], true, g["mha_kvdim.attn_mask"]);
  EXPECT_EQ(w.sizes().vec(), (std::vector<int64_t>{2, 3, 6}));  // S + bias_kv + zero_attn
  backward_and_check(*m, "mha_kvdim", y, w);
  expect_input_grad(q, "mha_kvdim.grad_q");
  expect_input_grad(k, "mha_kvdim.grad_k");
  expect_input_grad(v, "mha_kvdim.grad_v");
}

TEST(NNMultiheadAttention, NoBiasUnbatchedGolden) {
  MultiheadAttention m(MultiheadAttentionOptions(8, 4).bias(false));
  EXPECT_EQ(m->parameters().size(), 2u);
  m->eval();
  load(*m, "mha_nobias_unbatched");
  Tensor x = leaf("mha_nobias_unbatched.x");
  auto [y, w] = m(x, x, x);
  EXPECT_EQ(y.sizes().vec(), (std::vector<int64_t>{3, 8}));
  EXPECT_EQ(w.sizes().vec(), (std::vector<int64_t>{3, 3}));
  backward_and_check(*m, "mha_nobias_unbatched", y, w);
  expect_input_grad(x, "mha_nobias_unbatched.grad_x");
}

TEST(NNMultiheadAttention, BatchFirstFloatPaddingGolden) {
  MultiheadAttention m(MultiheadAttentionOptions(8, 2).batch_first(true));
  m->eval();
  load(*m, "mha_batch_first");
  Tensor q = leaf("mha_batch_first.q"), kv = leaf("mha_batch_first.kv");
  auto [y, w] = m(q, kv, kv, golden()["mha_batch_first.key_padding_mask"]);
  backward_and_check(*m, "mha_batch_first", y, w);
  expect_input_grad(q, "mha_batch_first.grad_q");
  expect_input_grad(kv, "mha_batch_first.grad_kv");
}

TEST(NNMultiheadAttention, ParameterNamesAndDefaultInit) {
  MultiheadAttention m(MultiheadAttentionOptions(16, 4).add_bias_kv(true));
  std::vector<std::string> names;
  for (const auto& p : m->named_parameters()) names.push_back(p.key());
  EXPECT_EQ(names, (std::vector<std::string>{"in_proj_weight", "in_proj_bias", "bias_k", "bias_v", "out_proj.weight",
                                             "out_proj.bias"}));
  // xavier_uniform_ on [48, 16]: bound sqrt(6 / (16 + 48)).
  const double bound = std::sqrt(6.0 / 64.0);
  EXPECT_LE(m->in_proj_weight.abs().max().item<float>(), bound);
  EXPECT_GT(m->in_proj_weight.abs().max().item<float>(), 0.8 * bound);
  EXPECT_EQ(m->in_proj_bias.abs().sum().item<float>(), 0.0f);
  EXPECT_EQ(m->out_proj->bias.abs().sum().item<float>(), 0.0f);
  EXPECT_LE(m->out_proj->weight.abs().max().item<float>(), 1.0 / std::sqrt(16.0));  // Linear's default

  MultiheadAttention sep(MultiheadAttentionOptions(8, 2).kdim(3).vdim(3));
  names.clear();
  for (const auto& p : sep->named_parameters()) names.push_back(p.key());
  EXPECT_EQ(names, (std::vector<std::string>{"q_proj_weight", "k_proj_weight", "v_proj_weight", "in_proj_bias",
                                             "out_proj.weight", "out_proj.bias"}));
  EXPECT_EQ(sep->k_proj_weight.sizes().vec(), (std::vector<int64_t>{8, 3}));
}

TEST(NNMultiheadAttention, Errors) {
  EXPECT_EMBER_ERROR(MultiheadAttention(10, 3), "MultiheadAttention", "divisible by num_heads");
  MultiheadAttention m(8, 2);
  Tensor x = torch::randn({3, 2, 8}), kv = torch::randn({4, 2, 8});
  EXPECT_EMBER_ERROR(m(x, kv, kv, Tensor(), true, torch::zeros({3, 3}, torch::kBool)), "multi_head_attention_forward",
                     "2D attn_mask", "[3, 4]");
  EXPECT_EMBER_ERROR(m(x, kv, kv, Tensor(), true, torch::zeros({2, 3, 4})), "multi_head_attention_forward",
                     "3D attn_mask");
  EXPECT_EMBER_ERROR(m(x, kv, kv, torch::zeros({2, 5}, torch::kBool)), "multi_head_attention_forward",
                     "key_padding_mask shape");
  EXPECT_EMBER_ERROR(m(x, kv, kv, torch::zeros({2, 4}, torch::kLong)), "key_padding_mask");
  EXPECT_EMBER_ERROR(m(x, kv, kv, Tensor(), true, torch::zeros({3, 4}, torch::kInt)), "attn_mask", "int32");
  EXPECT_EMBER_ERROR(m(torch::randn({3, 2, 6}), kv, kv), "multi_head_attention_forward", "embedding dimension of 8");
  EXPECT_EMBER_ERROR(m(x, kv, torch::randn({5, 2, 8})), "multi_head_attention_forward", "does not match value");
  EXPECT_EMBER_ERROR(m(torch::randn({2, 3, 2, 8}), kv, kv), "multi_head_attention_forward", "4-D");
  EXPECT_EMBER_ERROR(m(x, kv, kv, torch::randn({2, 4}), true, torch::randn({3, 4})), "float key_padding_mask");
}

// Fully masked rows give NaN, as in PyTorch (softmax over only -inf).
TEST(NNMultiheadAttention, FullyMaskedRowIsNaN) {
  MultiheadAttention m(4, 1);
  Tensor x = torch::randn({2, 1, 4});
  Tensor mask = torch::tensor({1, 1, 0, 0}).to(torch::kBool).view({2, 2});
  auto [y, w] = m(x, x, x, Tensor(), true, mask);
  EXPECT_TRUE(std::isnan(w[0][0][0].item<float>()));
  EXPECT_FALSE(std::isnan(w[0][1][0].item<float>()));
}

TEST(NNTransformerLayers, EncoderLayerGolden) {
  const auto& g = golden();
  TransformerEncoderLayer m(TransformerEncoderLayerOptions(8, 2).dim_feedforward(16));
  m->eval();
  load(*m, "enc");
  Tensor src = leaf("enc.src");
  Tensor y = m(src, g["enc.src_mask"], g["enc.src_key_padding_mask"]);
  backward_and_check(*m, "enc", y);
  expect_input_grad(src, "enc.grad_src");
}

TEST(NNTransformerLayers, EncoderLayerNormFirstGeluBatchFirstGolden) {
  TransformerEncoderLayer m(TransformerEncoderLayerOptions(8, 2)
                                .dim_feedforward(16)
                                .activation(torch::kGELU)
                                .norm_first(true)
                                .batch_first(true)
                                .layer_norm_eps(1e-6));
  m->eval();
  load(*m, "enc_nf");
  Tensor src = leaf("enc_nf.src");
  Tensor y = m(src, golden()["enc_nf.src_mask"]);
  backward_and_check(*m, "enc_nf", y);
  expect_input_grad(src, "enc_nf.grad_src");
}

TEST(NNTransformerLayers, DecoderLayerGolden) {
  const auto& g = golden();
  TransformerDecoderLayer m(TransformerDecoderLayerOptions(8, 2).dim_feedforward(16));
  m->eval();
  load(*m, "dec");
  Tensor tgt = leaf("dec.tgt"), mem = leaf("dec.memory");
  Tensor y = m(tgt, mem, g["dec.tgt_mask"], Tensor(), Tensor(), g["dec.memory_key_padding_mask"]);
  backward_and_check(*m, "dec", y);
  expect_input_grad(tgt, "dec.grad_tgt");
  expect_input_grad(mem, "dec.grad_memory");
}

TEST(NNTransformerLayers, DecoderLayerNormFirstGolden) {
  TransformerDecoderLayer m(TransformerDecoderLayerOptions(8, 2)
                                .dim_feedforward(16)
                                .activation(torch::kGELU)
                                .norm_first(true)
                                .batch_first(true));
  m->eval();
  load(*m, "dec_nf");
  Tensor tgt = leaf("dec_nf.tgt"), mem = leaf("dec_nf.memory");
  Tensor y = m(tgt, mem, Tensor(), Tensor(), golden()["dec_nf.tgt_key_padding_mask"]);
  backward_and_check(*m, "dec_nf", y);
  expect_input_grad(tgt, "dec_nf.grad_tgt");
  expect_input_grad(mem, "dec_nf.grad_memory");
}

TEST(NNTransformerLayers, CallableActivation) {
  TransformerEncoderLayer relu_layer(TransformerEncoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.0));
  auto custom_layer = std::dynamic_pointer_cast<TransformerEncoderLayerImpl>(relu_layer->clone());
  custom_layer->options.activation([](const Tensor& t) { return torch::relu(t); });
  Tensor x = torch::randn({3, 2, 8});
  EXPECT_TENSOR_EQ(custom_layer->forward(x), relu_layer(x));
}

TEST(NNTransformer, EncoderStackTwoArgCallGolden) {
  TransformerEncoder m(TransformerEncoderOptions(TransformerEncoderLayerOptions(8, 2).dim_feedforward(16), 2)
                           .norm(AnyModule(LayerNorm(LayerNormOptions({8})))));
  m->eval();
  load(*m, "encoder");
  Tensor src = leaf("encoder.src");
  Tensor y = m(src, golden()["encoder.mask"]);  // LibTorch_API: transformer_encoder(src, src_mask)
  backward_and_check(*m, "encoder", y);
  expect_input_grad(src, "encoder.grad_src");
}

TEST(NNTransformer, DecoderStackGolden) {
  TransformerDecoder m(TransformerDecoderLayer(TransformerDecoderLayerOptions(8, 2).dim_feedforward(16)), 2);
  m->eval();
  load(*m, "decoder");
  Tensor tgt = leaf("decoder.tgt"), mem = leaf("decoder.memory");
  Tensor y = m(tgt, mem, golden()["decoder.tgt_mask"]);
  backward_and_check(*m, "decoder", y);
  expect_input_grad(tgt, "decoder.grad_tgt");
  expect_input_grad(mem, "decoder.grad_memory");
}

TEST(NNTransformer, FullModelGolden) {
  const auto& g = golden();
  Transformer m(TransformerOptions(8, 2, 2, 2).dim_feedforward(16));
  m->eval();
  load(*m, "transformer");
  Tensor src = leaf("transformer.src"), tgt = leaf("transformer.tgt");
  Tensor y = m(src, tgt, Tensor(), g["transformer.tgt_mask"], Tensor(), g["transformer.src_key_padding_mask"]);
  backward_and_check(*m, "transformer", y);
  expect_input_grad(src, "transformer.grad_src");
  expect_input_grad(tgt, "transformer.grad_tgt");
}

TEST(NNTransformer, SquareSubsequentMask) {
  EXPECT_TENSOR_EQ(TransformerImpl::generate_square_subsequent_mask(4), golden()["square_mask4"]);
  EXPECT_EQ(TransformerImpl::generate_square_subsequent_mask(0).numel(), 0);
  EXPECT_EMBER_ERROR(TransformerImpl::generate_square_subsequent_mask(-1), "generate_square_subsequent_mask");
}

TEST(NNTransformer, StateDictNamesAndClonedLayers) {
  TransformerEncoderLayer layer(TransformerEncoderLayerOptions(8, 2).dim_feedforward(16));
  TransformerEncoder enc(layer, 3);
  const auto params = enc->named_parameters();
  EXPECT_EQ(params.size(), 3 * layer->parameters().size());
  EXPECT_TRUE(params.contains("layers.2.self_attn.out_proj.weight"));
  EXPECT_TRUE(params.contains("layers.0.norm2.bias"));
  // Layers start as copies of the given one (PyTorch deep-copies it) but own their parameters.
  EXPECT_TENSOR_EQ(params["layers.1.linear1.weight"], layer->linear1->weight);
  EXPECT_FALSE(params["layers.1.linear1.weight"].is_same(layer->linear1->weight));

  // The full model: xavier_uniform_ on every matrix, LayerNorms and biases untouched.
  Transformer t(TransformerOptions(8, 2, 1, 1).dim_feedforward(16));
  const auto tp = t->named_parameters();
  EXPECT_TRUE(tp.contains("encoder.norm.weight"));
  EXPECT_TRUE(tp.contains("decoder.layers.0.multihead_attn.in_proj_weight"));
  EXPECT_LE(tp["decoder.layers.0.linear1.weight"].abs().max().item<float>(), std::sqrt(6.0 / 24.0));
  EXPECT_EQ(tp["encoder.layers.0.norm1.weight"].sum().item<float>(), 8.0f);
}

TEST(NNTransformer, Errors) {
  EXPECT_EMBER_ERROR(TransformerEncoderLayer(10, 4), "TransformerEncoderLayer", "divisible");
  EXPECT_EMBER_ERROR(TransformerDecoderLayer(6, 4), "TransformerDecoderLayer", "divisible");
  Transformer t(TransformerOptions(8, 2, 1, 1).dim_feedforward(16));
  EXPECT_EMBER_ERROR(t(torch::randn({5, 2, 8}), torch::randn({4, 3, 8})), "Transformer", "equal batch size");
  EXPECT_EMBER_ERROR(t(torch::randn({5, 2, 6}), torch::randn({4, 2, 6})), "Transformer", "d_model");
  TransformerEncoderLayer layer(TransformerEncoderLayerOptions(8, 2).dim_feedforward(16));
  EXPECT_EMBER_ERROR(layer(torch::randn({5, 2, 8}), torch::zeros({4, 4}, torch::kBool)), "2D attn_mask");
}

// Train mode: dropout is active (outputs differ between calls), eval is deterministic.
TEST(NNTransformer, TrainModeDropout) {
  TransformerEncoderLayer layer(TransformerEncoderLayerOptions(8, 2).dim_feedforward(16).dropout(0.5));
  Tensor x = torch::randn({4, 2, 8});
  EXPECT_FALSE(torch::allclose(layer(x), layer(x)));
  layer->eval();
  EXPECT_TENSOR_EQ(layer(x), layer(x));
}

// Central differences of a float64 scalar loss w.r.t. every parameter element.
void expect_param_grads_match_finite_differences(Module& m, const std::function<Tensor()>& loss_fn) {
  m.zero_grad();
  loss_fn().backward();
  const double eps = 1e-6;
  for (const auto& p : m.named_parameters()) {
    SCOPED_TRACE(p.key());
    Tensor data = p.value().detach();
    Tensor flat = data.view({-1});
    Tensor grad = p.value().grad().reshape({-1});
    for (int64_t i = 0; i < flat.numel(); ++i) {
      double plus, minus;
      {
        torch::NoGradGuard no_grad;
        const double orig = flat[i].item<double>();
        flat[i].fill_(orig + eps);
        plus = loss_fn().item<double>();
        flat[i].fill_(orig - eps);
        minus = loss_fn().item<double>();
        flat[i].fill_(orig);
      }
      const double numeric = (plus - minus) / (2 * eps), analytic = grad[i].item<double>();
      EXPECT_NEAR(analytic, numeric, 1e-5 + 1e-3 * std::abs(numeric)) << "element " << i;
    }
  }
}

TEST(NNTransformerGradcheck, MultiheadAttentionParameters) {
  MultiheadAttention m(MultiheadAttentionOptions(4, 2).add_bias_kv(true));
  m->to(torch::kDouble);
  Tensor q = torch::randn({2, 2, 4}, torch::kDouble), kv = torch::randn({3, 2, 4}, torch::kDouble);
  Tensor gy = torch::randn({2, 2, 4}, torch::kDouble);
  expect_param_grads_match_finite_differences(*m, [&] {
    auto [y, w] = m(q, kv, kv);
    return (y * gy).sum() + (w * w).sum();
  });
}

TEST(NNTransformerGradcheck, EncoderLayerParameters) {
  TransformerEncoderLayer m(TransformerEncoderLayerOptions(4, 2).dim_feedforward(6));
  m->to(torch::kDouble);
  m->eval();
  Tensor x = torch::randn({3, 2, 4}, torch::kDouble), gy = torch::randn({3, 2, 4}, torch::kDouble);
  Tensor kpm = torch::tensor({0, 0, 0, 0, 0, 1}).to(torch::kBool).view({2, 3});
  expect_param_grads_match_finite_differences(*m, [&] { return (m(x, Tensor(), kpm) * gy).sum(); });
}

TEST(NNTransformerGradcheck, DecoderLayerParameters) {
  TransformerDecoderLayer m(TransformerDecoderLayerOptions(4, 2).dim_feedforward(6).activation(torch::kGELU));
  m->to(torch::kDouble);
  m->eval();
  Tensor t = torch::randn({2, 2, 4}, torch::kDouble), mem = torch::randn({3, 2, 4}, torch::kDouble);
  Tensor gy = torch::randn({2, 2, 4}, torch::kDouble);
  Tensor mask = TransformerImpl::generate_square_subsequent_mask(2).to(torch::kDouble);
  expect_param_grads_match_finite_differences(*m, [&] { return (m(t, mem, mask) * gy).sum(); });
}

}  // namespace transformer_test
