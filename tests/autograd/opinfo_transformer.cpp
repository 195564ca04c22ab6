// OpInfo entries for multi-head attention, the transformer layers (float64 modules in
// eval mode, differentiated w.r.t. their inputs; parameter gradients are checked in
// tests/nn/transformer_test.cpp), the interpolate modes and pixel (un)shuffle.
#include "ember/ops/nn/attention.h"
#include "opinfo.h"

namespace torch::testing {
namespace {

namespace F = nn::functional;
using Shapes = std::vector<std::vector<int64_t>>;

OpInfo op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes) {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x)}; };
  o.samples = [shapes] {
    variable_list in;
    uint64_t seed = 301;
    for (const auto& s : shapes) in.push_back(sample(s, -1, 1, seed++));
    return std::vector<variable_list>{in};
  };
  return o;
}

// Attention output and averaged weights in one tensor, so both are differentiated.
// The projection parameters are x[p .. p + 3].
Tensor mha(const variable_list& x, size_t p, const Tensor& q, const Tensor& k, const Tensor& v,
           const std::function<void(F::MultiheadAttentionForwardFuncOptions&)>& extra = {}) {
  F::MultiheadAttentionForwardFuncOptions o(4, 2, x[p], x[p + 1], {}, {}, false, 0.0, x[p + 2], x[p + 3]);
  if (extra) extra(o);
  auto [out, w] = F::multi_head_attention_forward(q, k, v, o);
  return cat({out.reshape({-1}), w.reshape({-1})});
}

// Projection parameters of an E = 4, 2-head attention: in_proj_weight/bias, out_proj weight/bias.
const Shapes kProj = {{12, 4}, {12}, {4, 4}, {4}};
Shapes with_proj(Shapes s) {
  s.insert(s.end(), kProj.begin(), kProj.end());
  return s;
}

template <typename M>
M eval_double(M m) {
  m->to(kDouble);
  m->eval();
  return m;
}

RegisterOps reg({
    op(
        "multi_head_attention_forward(self)", [](const variable_list& x) { return mha(x, 1, x[0], x[0], x[0]); },
        with_proj({{2, 2, 4}})),
    op(
        "multi_head_attention_forward(masks)",
        [](const variable_list& x) {
          Tensor am = tensor({0, 1, 0, 0, 0, 0}).to(kBool).view({2, 3});
          Tensor kpm = tensor({0, 0, 0, 0, 0, 1}).to(kBool).view({2, 3});
          return mha(x, 3, x[0], x[1], x[2], [&](auto& o) { o.attn_mask(am).key_padding_mask(kpm); });
        },
        with_proj({{2, 2, 4}, {3, 2, 4}, {3, 2, 4}})),
    op(
        "multi_head_attention_forward(bias_kv,zero_attn,float mask)",
        [](const variable_list& x) {
          return mha(x, 3, x[0], x[1], x[1],
                     [&](auto& o) { o.bias_k(x[7]).bias_v(x[8]).add_zero_attn(true).attn_mask(x[2]); });
        },
        [] {
          Shapes s = with_proj({{2, 2, 4}, {3, 2, 4}, {2, 3}});
          s.push_back({1, 1, 4});
          s.push_back({1, 1, 4});
          return s;
        }()),
    op("multi_head_attention_forward(separate proj)",
       [](const variable_list& x) {
         F::MultiheadAttentionForwardFuncOptions o(4, 2, {}, x[3], {}, {}, false, 0.0, x[4], x[5]);
         o.use_separate_proj_weight(true).q_proj_weight(x[6]).k_proj_weight(x[7]).v_proj_weight(x[8]);
         o.average_attn_weights(false);
         auto [out, w] = F::multi_head_attention_forward(x[0], x[1], x[2], o);
         return cat({out.reshape({-1}), w.reshape({-1})});
       },
       {{2, 2, 4}, {3, 2, 3}, {3, 2, 5}, {12}, {4, 4}, {4}, {4, 4}, {4, 3}, {4, 5}}),
    [] {
      OpInfo o = op("scaled_dot_product_attention",
                    [](const variable_list& x) { return scaled_dot_product_attention(x[0], x[1], x[2]); },
                    {{2, 3, 4}, {2, 5, 4}, {2, 5, 3}});
      o.grad_fn_name = "ScaledDotProductAttentionBackward0";
      return o;
    }(),
    op("scaled_dot_product_attention(mask, scale, broadcast)",
       [](const variable_list& x) {
         Tensor mask = tensor({0.5, -1.0, 0.0, 2.0, -0.5, 1.0}).to(kDouble).view({2, 3});
         return scaled_dot_product_attention(x[0], x[1], x[2], mask, 0.0, false, 0.7);
       },
       {{2, 1, 2, 4}, {3, 3, 4}, {1, 3, 3, 2}}),
    op("scaled_dot_product_attention(causal)",
       [](const variable_list& x) { return scaled_dot_product_attention(x[0], x[1], x[2], {}, 0.0, true); },
       {{2, 4, 3}, {2, 3, 3}, {2, 3, 2}}),
    op("scaled_dot_product_attention(dropout, seeded)",
       [](const variable_list& x) {
         manual_seed(0);
         return scaled_dot_product_attention(x[0], x[1], x[2], {}, 0.3);
       },
       {{2, 3, 4}, {2, 5, 4}, {2, 5, 3}}),
    op(
        "multi_head_attention_forward(self, dropout, no weights)",
        [](const variable_list& x) {
          manual_seed(0);
          F::MultiheadAttentionForwardFuncOptions o(4, 2, x[1], x[2], {}, {}, false, 0.25, x[3], x[4]);
          o.training(true).need_weights(false);
          return std::get<0>(F::multi_head_attention_forward(x[0], x[0], x[0], o));
        },
        with_proj({{3, 2, 4}})),
    op("TransformerEncoderLayer",
       [](const variable_list& x) {
         static auto m = eval_double(nn::TransformerEncoderLayer(
             nn::TransformerEncoderLayerOptions(4, 2).dim_feedforward(6).activation(ember::kGELU)));
         return m(x[0], nn::TransformerImpl::generate_square_subsequent_mask(3).to(kDouble));
       },
       {{3, 2, 4}}),
    op("TransformerDecoderLayer(norm_first)",
       [](const variable_list& x) {
         static auto m = eval_double(nn::TransformerDecoderLayer(
             nn::TransformerDecoderLayerOptions(4, 2).dim_feedforward(6).norm_first(true).batch_first(true)));
         return m(x[0], x[1]);
       },
       {{2, 2, 4}, {2, 3, 4}}),
    op("interpolate(linear)",
       [](const variable_list& x) {
         return F::interpolate(x[0], F::InterpolateFuncOptions().size(std::vector<int64_t>{7}).mode(ember::kLinear));
       },
       {{1, 2, 4}}),
    op("interpolate(trilinear,align_corners)",
       [](const variable_list& x) {
         return F::interpolate(x[0], F::InterpolateFuncOptions()
                                         .size(std::vector<int64_t>{3, 4, 3})
                                         .mode(ember::kTrilinear)
                                         .align_corners(true));
       },
       {{1, 1, 2, 3, 2}}),
    op("interpolate(nearest3d)",
       [](const variable_list& x) {
         return F::interpolate(x[0], F::InterpolateFuncOptions().scale_factor(std::vector<double>{2, 1.5, 2}));
       },
       {{1, 1, 2, 2, 2}}),
    op("interpolate(nearest-exact)",
       [](const variable_list& x) {
         return F::interpolate(x[0],
                               F::InterpolateFuncOptions().size(std::vector<int64_t>{5, 3}).mode(ember::kNearestExact));
       },
       {{1, 2, 3, 4}}),
    op("interpolate(bicubic)",
       [](const variable_list& x) {
         return F::interpolate(
             x[0], F::InterpolateFuncOptions().scale_factor(std::vector<double>{1.5, 2}).mode(ember::kBicubic));
       },
       {{1, 1, 3, 3}}),
    op("interpolate(area)",
       [](const variable_list& x) {
         return F::interpolate(x[0], F::InterpolateFuncOptions().size(std::vector<int64_t>{2, 3}).mode(ember::kArea));
       },
       {{1, 2, 5, 5}}),
    op("interpolate(bilinear,antialias,down)",
       [](const variable_list& x) {
         return F::interpolate(
             x[0], F::InterpolateFuncOptions().size(std::vector<int64_t>{3, 2}).mode(ember::kBilinear).antialias(true));
       },
       {{1, 2, 7, 5}}),
    op("interpolate(bicubic,antialias,align_corners)",
       [](const variable_list& x) {
         return F::interpolate(x[0], F::InterpolateFuncOptions()
                                         .scale_factor(std::vector<double>{0.4, 1.5})
                                         .mode(ember::kBicubic)
                                         .align_corners(true)
                                         .antialias(true));
       },
       {{1, 1, 8, 3}}),
    op("pixel_unshuffle", [](const variable_list& x) { return pixel_unshuffle(x[0], 2); }, {{1, 2, 4, 6}}),
    op("PixelShuffle(batched 5-D)", [](const variable_list& x) { return nn::PixelShuffle(3)(x[0]); },
       {{2, 1, 9, 2, 1}}),
});

}  // namespace
}  // namespace torch::testing
