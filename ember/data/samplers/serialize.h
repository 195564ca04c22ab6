#pragma once
// `archive << sampler` and `archive >> sampler` (LibTorch's torch/data/samplers/serialize.h), so
// torch::save(sampler, path) and torch::load(sampler, path) keep a sampler's position.
#include "ember/data/samplers/base.h"
#include "ember/serialize/archive.h"

namespace torch::serialize {

template <typename BatchRequest>
OutputArchive& operator<<(OutputArchive& archive, const data::samplers::Sampler<BatchRequest>& sampler) {
  sampler.save(archive);
  return archive;
}
template <typename BatchRequest>
InputArchive& operator>>(InputArchive& archive, data::samplers::Sampler<BatchRequest>& sampler) {
  sampler.load(archive);
  return archive;
}

}  // namespace torch::serialize
