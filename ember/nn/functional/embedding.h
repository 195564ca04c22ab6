#pragma once
// nn::functional embedding / embedding_bag, as torch::nn::functional: option
// checks and max_norm renormalization here, the lookups in ember/ops/nn/embedding.h.
#include <optional>

#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/nn/options/embedding.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"

namespace torch::nn::functional {

namespace detail {
// A negative padding_idx counts from the end; none is -1 for the op.
inline int64_t embedding_padding_idx(const std::optional<int64_t>& padding_idx, int64_t num_embeddings,
                                     const char* op) {
  if (!padding_idx.has_value()) return -1;
  int64_t p = *padding_idx;
  EMBER_CHECK(p < num_embeddings && p >= -num_embeddings, op, ": padding_idx must be within num_embeddings (",
              num_embeddings, "), got ", p);
  return p < 0 ? p + num_embeddings : p;
}
}  // namespace detail

inline Tensor embedding(const Tensor& input, const Tensor& weight, const EmbeddingFuncOptions& options = {}) {
  EMBER_CHECK(weight.defined() && weight.dim() == 2, "embedding: weight must be 2-D, got ",
              weight.defined() ? shape_str(weight.sizes()) : std::string("an undefined tensor"));
  const int64_t padding_idx = detail::embedding_padding_idx(options.padding_idx(), weight.size(0), "embedding");
  Tensor indices = input;
  if (options.max_norm().has_value()) {
    indices = indices.contiguous();
    autograd::BelowAutogradGuard no_grad;
    Tensor w = weight;
    embedding_renorm_(w, indices, *options.max_norm(), options.norm_type());
  }
  return ember::embedding(weight, indices, padding_idx, options.scale_grad_by_freq(), options.sparse());
}

inline Tensor embedding_bag(const Tensor& input, const Tensor& weight, const EmbeddingBagFuncOptions& options = {}) {
  Tensor indices = input;
  Tensor offsets = options.offsets();
  Tensor per_sample_weights = options.per_sample_weights();
  EMBER_CHECK(!per_sample_weights.defined() || input.sizes() == per_sample_weights.sizes(),
              "embedding_bag: If per_sample_weights (", shape_str(per_sample_weights.sizes()),
              ") is not null, then it must have the same shape as the input (", shape_str(input.sizes()), ")");
  if (input.dim() == 2) {
    EMBER_CHECK(!offsets.defined(),
                "embedding_bag: if input is 2D, then offsets has to be null, as input is treated is a mini-batch of "
                "fixed length sequences. However, found offsets of type Tensor");
    offsets = arange(0, input.numel(), input.size(1), TensorOptions().dtype(kLong));
    indices = indices.reshape({-1});
    if (per_sample_weights.defined()) per_sample_weights = per_sample_weights.reshape({-1});
  } else {
    EMBER_CHECK(input.dim() == 1, "embedding_bag: input has to be 1D or 2D Tensor, but got Tensor of dimension ",
                input.dim());
    EMBER_CHECK(offsets.defined() && offsets.dim() == 1, "embedding_bag: offsets has to be a 1D Tensor but got ",
                offsets.defined() ? shape_str(offsets.sizes()) : std::string("null"));
  }
  const int64_t mode = std::visit(
      [](auto tag) -> int64_t {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, enumtype::kSum>)
          return 0;
        else if constexpr (std::is_same_v<T, enumtype::kMean>)
          return 1;
        else
          return 2;
      },
      options.mode());
  EMBER_CHECK(!per_sample_weights.defined() || mode == 0,
              "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum' "
              "(got mode='",
              std::visit([](auto tag) { return enum_name(tag); }, options.mode()), "')");
  if (options.max_norm().has_value()) {
    autograd::BelowAutogradGuard no_grad;
    Tensor w = weight;
    embedding_renorm_(w, indices, *options.max_norm(), options.norm_type());
  }
  std::optional<Tensor> psw;
  if (per_sample_weights.defined()) psw = per_sample_weights;
  return std::get<0>(ember::embedding_bag(weight, indices, offsets, options.scale_grad_by_freq(), mode,
                                          options.sparse(), psw, options.include_last_offset(), options.padding_idx()));
}

}  // namespace torch::nn::functional
