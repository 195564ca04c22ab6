#pragma once
// Embedding and EmbeddingBag, as torch/nn/modules/embedding.h, including
// Embedding::from_pretrained / EmbeddingBag::from_pretrained.
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/options/embedding.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

class EmbeddingImpl : public Cloneable<EmbeddingImpl> {
 public:
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim)
      : EmbeddingImpl(EmbeddingOptions(num_embeddings, embedding_dim)) {}
  explicit EmbeddingImpl(EmbeddingOptions options_);
  void reset() override;
  // weight ~ N(0, 1), the padding row zeroed.
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& indices);

  EmbeddingOptions options;
  Tensor weight;
};

class Embedding : public ModuleHolder<EmbeddingImpl> {
 public:
  using ModuleHolder<EmbeddingImpl>::ModuleHolder;
  using ModuleHolder<EmbeddingImpl>::get;
  // An Embedding holding `embeddings` [V, D]; frozen (no gradient) unless freeze(false).
  static Embedding from_pretrained(const Tensor& embeddings, const EmbeddingFromPretrainedOptions& options = {});
};
EMBER_NN_CLONEABLE_INSTANCE(EmbeddingImpl);

class EmbeddingBagImpl : public Cloneable<EmbeddingBagImpl> {
 public:
  EmbeddingBagImpl(int64_t num_embeddings, int64_t embedding_dim)
      : EmbeddingBagImpl(EmbeddingBagOptions(num_embeddings, embedding_dim)) {}
  explicit EmbeddingBagImpl(EmbeddingBagOptions options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& offsets = {}, const Tensor& per_sample_weights = {});

  EmbeddingBagOptions options;
  Tensor weight;

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())}, {2, AnyValue(Tensor())})
};

class EmbeddingBag : public ModuleHolder<EmbeddingBagImpl> {
 public:
  using ModuleHolder<EmbeddingBagImpl>::ModuleHolder;
  using ModuleHolder<EmbeddingBagImpl>::get;
  static EmbeddingBag from_pretrained(const Tensor& embeddings, const EmbeddingBagFromPretrainedOptions& options = {});
};
EMBER_NN_CLONEABLE_INSTANCE(EmbeddingBagImpl);

}  // namespace torch::nn
