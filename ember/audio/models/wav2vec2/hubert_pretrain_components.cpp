#include "ember/audio/models/wav2vec2/hubert_pretrain_components.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models::wav2vec2::components {
namespace {

// int(a + torch.rand(1)): torchaudio adds a float32 draw, then truncates.
int64_t randomly_rounded(double a) { return static_cast<int64_t>(static_cast<float>(a) + rand({1}).item<float>()); }

std::vector<int64_t> draw_span_lengths(const std::string& type, int64_t num_mask, int64_t mask_length,
                                       double mask_other) {
  std::vector<int64_t> lengths(static_cast<size_t>(num_mask), mask_length);
  if (type == "uniform") {
    Tensor l = randint(static_cast<int64_t>(mask_other), mask_length * 2 + 1, {num_mask}, TensorOptions(kInt64));
    for (int64_t j = 0; j < num_mask; ++j) lengths[j] = l[j].item<int64_t>();
  } else if (type == "normal") {
    Tensor l = normal(static_cast<double>(mask_length), mask_other, {num_mask}).round().clamp_min(1.0);
    for (int64_t j = 0; j < num_mask; ++j) lengths[j] = static_cast<int64_t>(l[j].item<double>());
  }
  return lengths;
}

// Non-overlapping spans: repeatedly splits a free interval chosen with probability
// proportional to its usable length (torchaudio's arrange()).
std::vector<int64_t> no_overlap_spans(int64_t sz, std::vector<int64_t> lengths, int64_t min_space) {
  std::vector<int64_t> idc;
  std::vector<std::pair<int64_t, int64_t>> parts{{0, sz}};
  const int64_t min_length = *std::min_element(lengths.begin(), lengths.end());
  std::sort(lengths.begin(), lengths.end(), std::greater<>());
  for (int64_t length : lengths) {
    std::vector<double> lens;
    double l_sum = 0;
    for (auto [s, e] : parts) {
      const int64_t l = e - s < length + min_space ? 0 : e - s;
      lens.push_back(static_cast<double>(l));
      l_sum += static_cast<double>(l);
    }
    if (l_sum == 0) break;
    Tensor probs = tensor(lens) / l_sum;
    const auto c = static_cast<size_t>(multinomial(probs, 1).item<int64_t>());
    auto [s, e] = parts[c];
    parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(c));
    const int64_t span_start = randint(s, e - length, {1}, TensorOptions(kInt64)).item<int64_t>();
    for (int64_t i = 0; i < length; ++i) idc.push_back(span_start + i);
    if (span_start - s - min_space >= min_length) parts.emplace_back(s, span_start - min_space + 1);
    if (e - span_start - min_length - min_space > min_length) parts.emplace_back(span_start + length + min_space, e);
  }
  return idc;
}

}  // namespace

Tensor compute_mask_indices(std::tuple<int64_t, int64_t> shape, const std::optional<Tensor>& padding_mask,
                            double mask_prob, int64_t mask_length, const std::string& mask_type, double mask_other,
                            int64_t min_masks, bool no_overlap, int64_t min_space) {
  const auto [batch, frame] = shape;
  EMBER_CHECK(mask_type == "static" || mask_type == "uniform" || mask_type == "normal",
              "HuBERTPretrainModel: unknown mask selection \"", mask_type,
              "\" (expected \"static\", \"uniform\" or \"normal\")");
  EMBER_CHECK(mask_length > 0, "HuBERTPretrainModel: mask_length must be positive, got ", mask_length);
  if (padding_mask) {
    EMBER_CHECK(padding_mask->dim() == 2 && padding_mask->size(0) == batch && padding_mask->size(1) == frame,
                "HuBERTPretrainModel: padding mask must be [", batch, ", ", frame, "], got ", padding_mask->sizes());
  }
  const int64_t all_num_mask =
      std::max(min_masks, randomly_rounded(mask_prob * static_cast<double>(frame) / static_cast<double>(mask_length)));
  std::vector<std::vector<int64_t>> mask_idcs;
  for (int64_t i = 0; i < batch; ++i) {
    int64_t sz = frame, num_mask = all_num_mask;
    if (padding_mask) {
      sz = frame - (*padding_mask)[i].to(kInt64).sum().item<int64_t>();
      num_mask =
          std::max(min_masks, randomly_rounded(mask_prob * static_cast<double>(sz) / static_cast<double>(mask_length)));
    }
    std::vector<int64_t> lengths = draw_span_lengths(mask_type, num_mask, mask_length, mask_other);
    std::vector<int64_t> idc;
    if (!lengths.empty()) {
      int64_t total = 0;
      for (int64_t l : lengths) total += l;
      if (total == 0) lengths[0] = std::min(mask_length, sz - 1);
      if (no_overlap) {
        idc = no_overlap_spans(sz, lengths, min_space);
      } else {
        int64_t min_len = *std::min_element(lengths.begin(), lengths.end());
        if (sz - min_len <= num_mask) min_len = sz - num_mask - 1;
        EMBER_CHECK(sz - min_len >= 0, "HuBERTPretrainModel: ", num_mask, " masks do not fit in ", sz, " frames");
        Tensor starts = randperm(sz - min_len, TensorOptions(kInt64));
        const int64_t n = std::min<int64_t>(num_mask, starts.numel());
        for (int64_t j = 0; j < n; ++j) {
          const int64_t start = starts[j].item<int64_t>();
          for (int64_t off = 0; off < lengths[j]; ++off) idc.push_back(start + off);
        }
      }
    }
    std::set<int64_t> unique;
    for (int64_t v : idc)
      if (v < sz) unique.insert(v);
    mask_idcs.emplace_back(unique.begin(), unique.end());
  }
  size_t min_len = std::numeric_limits<size_t>::max();
  for (const auto& m : mask_idcs) min_len = std::min(min_len, m.size());
  Tensor mask = zeros({batch, frame}, TensorOptions(kBool));
  bool* out = mask.data_ptr<bool>();
  for (int64_t i = 0; i < batch; ++i) {
    std::vector<int64_t> idc = mask_idcs[static_cast<size_t>(i)];
    if (idc.size() > min_len) {
      // Keep a random min_len of them so every row masks equally many frames.
      Tensor keep = randperm(static_cast<int64_t>(idc.size()), TensorOptions(kInt64));
      std::vector<int64_t> kept;
      for (size_t j = 0; j < min_len; ++j) kept.push_back(idc[static_cast<size_t>(keep[j].item<int64_t>())]);
      idc = std::move(kept);
    }
    for (int64_t v : idc) out[i * frame + v] = true;
  }
  return mask;
}

Tensor compute_logits(const Tensor& proj_x, const Tensor& target, const Tensor& label_embeddings) {
  const int64_t n = proj_x.size(0);
  Tensor pos = label_embeddings.index_select(0, target.to(kInt64));
  Tensor negs = label_embeddings.unsqueeze(1).expand({-1, n, -1});
  Tensor neg_is_pos = (pos == negs).all(-1);
  Tensor targets = cat({pos.unsqueeze(0), negs}, 0);
  Tensor logits = cosine_similarity(proj_x.to(kFloat), targets.to(kFloat), -1, 1e-8).to(proj_x.scalar_type()) / 0.1;
  // A negative equal to the positive is no negative.
  Tensor blocked = cat({zeros({1, n}, TensorOptions(kBool)), neg_is_pos}, 0);
  logits = logits.masked_fill(blocked, -std::numeric_limits<double>::infinity());
  return logits.transpose(0, 1);
}

MaskGeneratorImpl::MaskGeneratorImpl(int64_t encoder_embed_dim, double mask_prob_, std::string mask_selection_,
                                     double mask_other_, int64_t mask_length_, bool no_mask_overlap_,
                                     int64_t mask_min_space_, double mask_channel_prob_,
                                     std::string mask_channel_selection_, double mask_channel_other_,
                                     int64_t mask_channel_length_, bool no_mask_channel_overlap_,
                                     int64_t mask_channel_min_space_)
    : mask_prob(mask_prob_),
      mask_other(mask_other_),
      mask_channel_prob(mask_channel_prob_),
      mask_channel_other(mask_channel_other_),
      mask_selection(std::move(mask_selection_)),
      mask_channel_selection(std::move(mask_channel_selection_)),
      mask_length(mask_length_),
      mask_min_space(mask_min_space_),
      mask_channel_length(mask_channel_length_),
      mask_channel_min_space(mask_channel_min_space_),
      no_mask_overlap(no_mask_overlap_),
      no_mask_channel_overlap(no_mask_channel_overlap_) {
  mask_embedding = register_parameter("mask_embedding", rand({encoder_embed_dim}));
}

std::tuple<Tensor, std::optional<Tensor>> MaskGeneratorImpl::forward(const Tensor& input,
                                                                     const std::optional<Tensor>& padding_mask) {
  EMBER_CHECK(input.dim() == 3 && input.size(2) == mask_embedding.size(0),
              "HuBERTPretrainModel: expected features [batch, frame, ", mask_embedding.size(0), "], got ",
              input.sizes());
  const int64_t B = input.size(0), T = input.size(1), C = input.size(2);
  Tensor x = input;
  std::optional<Tensor> mask_indices;
  if (mask_prob > 0) {
    mask_indices = compute_mask_indices({B, T}, padding_mask, mask_prob, mask_length, mask_selection, mask_other, 2,
                                        no_mask_overlap, mask_min_space);
    x = where(mask_indices->unsqueeze(-1), mask_embedding.to(x.scalar_type()), x);
  }
  if (mask_channel_prob > 0) {
    Tensor channels =
        compute_mask_indices({B, C}, std::nullopt, mask_channel_prob, mask_channel_length, mask_channel_selection,
                             mask_channel_other, 0, no_mask_channel_overlap, mask_channel_min_space);
    x = x.masked_fill(channels.unsqueeze(1).expand({-1, T, -1}), 0.0);
  }
  return {x, mask_indices};
}

LogitGeneratorImpl::LogitGeneratorImpl(int64_t encoder_embed_dim, int64_t num_classes, int64_t final_dim,
                                       bool skip_masked_, bool skip_nomask_)
    : skip_masked(skip_masked_), skip_nomask(skip_nomask_) {
  EMBER_CHECK(num_classes > 0 && final_dim > 0, "HuBERTPretrainModel: num_classes and final_dim must be positive");
  label_embeddings = register_parameter("label_embeddings", rand({num_classes, final_dim}));
  final_proj = register_module("final_proj", nn::Linear(encoder_embed_dim, final_dim));
}

std::tuple<std::optional<Tensor>, std::optional<Tensor>> LogitGeneratorImpl::forward(const Tensor& x,
                                                                                     const Tensor& label,
                                                                                     const Tensor& mask_m,
                                                                                     const Tensor& mask_u) {
  Tensor proj_x = final_proj->forward(x);
  const int64_t F = proj_x.size(-1);
  Tensor flat = proj_x.reshape({-1, F}), flat_label = label.reshape({-1});
  auto select = [&](const Tensor& mask) {
    Tensor idx = mask.reshape({-1}).nonzero().reshape({-1});
    return compute_logits(flat.index_select(0, idx), flat_label.index_select(0, idx), label_embeddings);
  };
  std::optional<Tensor> logit_m, logit_u;
  if (!skip_masked) logit_m = select(mask_m);
  if (!skip_nomask) logit_u = select(mask_u);
  return {logit_m, logit_u};
}

}  // namespace torch::audio::models::wav2vec2::components
