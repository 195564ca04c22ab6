#pragma once
// The HuBERT pre-training parts of torchaudio.models.wav2vec2.components:
// span masking (_compute_mask_indices), the MaskGenerator that applies it and
// the LogitGenerator scoring masked/unmasked frames against label embeddings.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models::wav2vec2::components {

// A random span mask of shape [batch, frame] (true = masked), every row with the
// same number of masked positions; padding_mask [batch, frame] excludes padded
// frames. mask_type: "static", "uniform" or "normal". Draws from Ember's default generator.
Tensor compute_mask_indices(std::tuple<int64_t, int64_t> shape, const std::optional<Tensor>& padding_mask,
                            double mask_prob, int64_t mask_length, const std::string& mask_type = "static",
                            double mask_other = 0.0, int64_t min_masks = 0, bool no_overlap = false,
                            int64_t min_space = 0);

// Cosine-similarity logits (temperature 0.1) of proj_x [N, F] against the target's
// embedding (column 0) and every label embedding (columns 1..C; -inf where equal to the target's).
Tensor compute_logits(const Tensor& proj_x, const Tensor& target, const Tensor& label_embeddings);

class MaskGeneratorImpl : public nn::Module {
 public:
  MaskGeneratorImpl(int64_t encoder_embed_dim, double mask_prob, std::string mask_selection, double mask_other,
                    int64_t mask_length, bool no_mask_overlap, int64_t mask_min_space, double mask_channel_prob,
                    std::string mask_channel_selection, double mask_channel_other, int64_t mask_channel_length,
                    bool no_mask_channel_overlap, int64_t mask_channel_min_space);
  // x [B, T, C] -> (x with masked frames replaced by mask_embedding and masked channels
  // zeroed, the frame mask [B, T] when mask_prob > 0)
  std::tuple<Tensor, std::optional<Tensor>> forward(const Tensor& x, const std::optional<Tensor>& padding_mask);

  double mask_prob, mask_other, mask_channel_prob, mask_channel_other;
  std::string mask_selection, mask_channel_selection;
  int64_t mask_length, mask_min_space, mask_channel_length, mask_channel_min_space;
  bool no_mask_overlap, no_mask_channel_overlap;
  Tensor mask_embedding;
};
TORCH_MODULE(MaskGenerator);

class LogitGeneratorImpl : public nn::Module {
 public:
  LogitGeneratorImpl(int64_t encoder_embed_dim, int64_t num_classes, int64_t final_dim, bool skip_masked,
                     bool skip_nomask);
  // x [B, T, D], label [B, T], masks [B, T] -> (logits of masked frames, of unmasked frames),
  // each [frames, num_classes + 1] unless skipped.
  std::tuple<std::optional<Tensor>, std::optional<Tensor>> forward(const Tensor& x, const Tensor& label,
                                                                   const Tensor& mask_m, const Tensor& mask_u);
  bool skip_masked, skip_nomask;
  Tensor label_embeddings;
  nn::Linear final_proj{nullptr};
};
TORCH_MODULE(LogitGenerator);

}  // namespace torch::audio::models::wav2vec2::components
