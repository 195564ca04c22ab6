// OpInfo entries for torchtext's RoBERTa encoder stack
// (ember/text/models/roberta_modules.cpp): gradients reach the token table (post-norm)
// and the positional table (pre-norm) through the learned positions, the embedding
// LayerNorm, the masked self-attention (a pad ends one row; the output at it is left out) and the GELU
// feed-forward block, post-norm and pre-norm. The other weights are fixed (the
// generator's deterministic values) and the size is minimal: gradgradcheck's
// cost grows with the square of the input count.
#include "autograd/opinfo.h"
#include "ember/text/models/roberta_modules.h"
#include "models_roberta_util.h"

namespace torch::testing {
namespace {

namespace mods = text::models::roberta::modules;

Tensor encode(const variable_list& x, bool normalize_before) {
  mods::TransformerEncoder enc(mods::TransformerEncoderOptions(5, 4, 1, 6, 1, 2)
                                   .ffn_dimension(4)
                                   .dropout(0.0)
                                   .normalize_before(normalize_before));
  enc->to(x[0].scalar_type());
  text_models_test::fill_deterministic(*enc);
  for (Tensor& p : enc->parameters()) p.set_requires_grad(false);
  enc->eval();
  // The tables under test replace the module's own (forward reads these members).
  if (normalize_before) {
    enc->positional_embedding->embedding->weight = x[0];
  } else {
    enc->token_embedding->weight = x[0];
  }
  // Pads end the second row only, so the inference path (no gradients) keeps every position.
  const Tensor out = enc->forward(tensor({{2, 3, 4}, {4, 2, 1}}, kLong));  // [T, B, C]
  // Only unpadded positions: the pad rows of both tables feed the pad positions'
  // outputs but get no gradient (padding_idx, as in PyTorch).
  // Each position's features are read through one fixed direction (fewer outputs, a cheaper gradgradcheck).
  const Tensor direction = sin(arange(4, out.options()) * 0.7 + 0.3);
  return stack({out.select(0, 0).select(0, 0), out.select(0, 1).select(0, 0), out.select(0, 2).select(0, 0),
                out.select(0, 0).select(0, 1), out.select(0, 1).select(0, 1)})
      .matmul(direction);
}

RegisterOps reg({
    single_output_op(
        "text::models::roberta::modules::TransformerEncoder(token table)",
        [](const variable_list& x) { return encode(x, false); }, {{5, 4}}, -1, 1, 3803),
    single_output_op(
        "text::models::roberta::modules::TransformerEncoder(normalize_before, positional table)",
        [](const variable_list& x) { return encode(x, true); }, {{6, 4}}, -1, 1, 3809),
});

}  // namespace
}  // namespace torch::testing
