#include "ember/nn/modules/embedding.h"

#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/nn/functional/embedding.h"
#include "ember/nn/init.h"
#include "ember/ops/factory/factory.h"

namespace torch::nn {
namespace F = functional;

namespace {
// Registers `given` as the weight (checking its shape) or a fresh [V, D] one.
Tensor make_weight(Module& m, const Tensor& given, int64_t num_embeddings, int64_t embedding_dim, const char* name) {
  EMBER_CHECK(num_embeddings >= 0 && embedding_dim >= 0, name,
              ": num_embeddings and embedding_dim must be non-negative, got ", num_embeddings, " and ", embedding_dim);
  if (!given.defined()) return m.register_parameter("weight", empty({num_embeddings, embedding_dim}));
  EMBER_CHECK(given.dim() == 2 && given.size(0) == num_embeddings && given.size(1) == embedding_dim, name,
              ": Shape of _weight ", shape_str(given.sizes()), " does not match num_embeddings and embedding_dim (",
              num_embeddings, ", ", embedding_dim, ")");
  return m.register_parameter("weight", given);
}

// LibTorch prints the options that differ from their defaults.
template <typename Options>
void print_common(std::ostream& stream, const Options& o) {
  if (o.max_norm().has_value()) stream << ", max_norm=" << *o.max_norm();
  if (o.norm_type() != 2) stream << ", norm_type=" << o.norm_type();
  if (o.scale_grad_by_freq()) stream << ", scale_grad_by_freq=" << std::boolalpha << o.scale_grad_by_freq();
  if (o.sparse()) stream << ", sparse=" << std::boolalpha << o.sparse();
}
}  // namespace

EmbeddingImpl::EmbeddingImpl(EmbeddingOptions options_) : options(std::move(options_)) { reset(); }

void EmbeddingImpl::reset() {
  if (options.padding_idx().has_value()) {
    options.padding_idx(F::detail::embedding_padding_idx(options.padding_idx(), options.num_embeddings(), "Embedding"));
  }
  const bool fresh = !options._weight().defined();
  weight = make_weight(*this, options._weight(), options.num_embeddings(), options.embedding_dim(), "Embedding");
  if (fresh) reset_parameters();
}

void EmbeddingImpl::reset_parameters() {
  init::normal_(weight);
  if (options.padding_idx().has_value()) {
    autograd::BelowAutogradGuard no_grad;
    weight[*options.padding_idx()].fill_(0);
  }
}

void EmbeddingImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Embedding(num_embeddings=" << options.num_embeddings()
         << ", embedding_dim=" << options.embedding_dim();
  if (options.padding_idx().has_value()) stream << ", padding_idx=" << *options.padding_idx();
  print_common(stream, options);
  stream << ")";
}

Tensor EmbeddingImpl::forward(const Tensor& indices) {
  return F::embedding(indices, weight,
                      F::EmbeddingFuncOptions()
                          .padding_idx(options.padding_idx())
                          .max_norm(options.max_norm())
                          .norm_type(options.norm_type())
                          .scale_grad_by_freq(options.scale_grad_by_freq())
                          .sparse(options.sparse()));
}

Embedding Embedding::from_pretrained(const Tensor& embeddings, const EmbeddingFromPretrainedOptions& options) {
  EMBER_CHECK(embeddings.dim() == 2,
              "Embedding::from_pretrained: Embeddings parameter is expected to be 2-dimensional, got ",
              shape_str(embeddings.sizes()));
  Embedding embedding(EmbeddingOptions(embeddings.size(0), embeddings.size(1))
                          ._weight(embeddings)
                          .padding_idx(options.padding_idx())
                          .max_norm(options.max_norm())
                          .norm_type(options.norm_type())
                          .scale_grad_by_freq(options.scale_grad_by_freq())
                          .sparse(options.sparse()));
  embedding->weight.set_requires_grad(!options.freeze());
  return embedding;
}

EmbeddingBagImpl::EmbeddingBagImpl(EmbeddingBagOptions options_) : options(std::move(options_)) { reset(); }

void EmbeddingBagImpl::reset() {
  if (options.padding_idx().has_value()) {
    options.padding_idx(
        F::detail::embedding_padding_idx(options.padding_idx(), options.num_embeddings(), "EmbeddingBag"));
  }
  const bool fresh = !options._weight().defined();
  weight = make_weight(*this, options._weight(), options.num_embeddings(), options.embedding_dim(), "EmbeddingBag");
  if (fresh) reset_parameters();
}

void EmbeddingBagImpl::reset_parameters() {
  init::normal_(weight);
  if (options.padding_idx().has_value()) {
    autograd::BelowAutogradGuard no_grad;
    weight[*options.padding_idx()].fill_(0);
  }
}

void EmbeddingBagImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::EmbeddingBag(num_embeddings=" << options.num_embeddings()
         << ", embedding_dim=" << options.embedding_dim();
  print_common(stream, options);
  if (!std::holds_alternative<enumtype::kMean>(options.mode())) {
    stream << ", mode=" << std::visit([](auto tag) { return enum_name(tag); }, options.mode());
  }
  if (options.include_last_offset()) stream << ", include_last_offset=" << std::boolalpha << true;
  if (options.padding_idx().has_value()) stream << ", padding_idx=" << *options.padding_idx();
  stream << ")";
}

Tensor EmbeddingBagImpl::forward(const Tensor& input, const Tensor& offsets, const Tensor& per_sample_weights) {
  return F::embedding_bag(input, weight,
                          F::EmbeddingBagFuncOptions()
                              .offsets(offsets)
                              .max_norm(options.max_norm())
                              .norm_type(options.norm_type())
                              .scale_grad_by_freq(options.scale_grad_by_freq())
                              .mode(options.mode())
                              .sparse(options.sparse())
                              .per_sample_weights(per_sample_weights)
                              .include_last_offset(options.include_last_offset())
                              .padding_idx(options.padding_idx()));
}

EmbeddingBag EmbeddingBag::from_pretrained(const Tensor& embeddings, const EmbeddingBagFromPretrainedOptions& options) {
  EMBER_CHECK(embeddings.dim() == 2,
              "EmbeddingBag::from_pretrained: Embeddings parameter is expected to be 2-dimensional, got ",
              shape_str(embeddings.sizes()));
  EmbeddingBag bag(EmbeddingBagOptions(embeddings.size(0), embeddings.size(1))
                       ._weight(embeddings)
                       .max_norm(options.max_norm())
                       .norm_type(options.norm_type())
                       .scale_grad_by_freq(options.scale_grad_by_freq())
                       .mode(options.mode())
                       .sparse(options.sparse())
                       .include_last_offset(options.include_last_offset())
                       .padding_idx(options.padding_idx()));
  bag->weight.set_requires_grad(!options.freeze());
  return bag;
}

}  // namespace torch::nn
