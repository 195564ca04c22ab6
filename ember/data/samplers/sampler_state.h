#pragma once
// How the built-in samplers write their position into an archive: each count as a one-element
// int64 buffer under LibTorch's key ("index", "sample_index_", "epoch_", ...), so that archives
// of samplers are LibTorch's.
#include <cstdint>
#include <string>

#include "ember/ops/factory/factory.h"
#include "ember/serialize/archive.h"

namespace torch::data::samplers::detail {

inline void write_count(serialize::OutputArchive& archive, const std::string& key, size_t value) {
  archive.write(key, tensor({static_cast<int64_t>(value)}), /*is_buffer=*/true);
}
inline size_t read_count(serialize::InputArchive& archive, const std::string& key) {
  Tensor t;
  archive.read(key, t, /*is_buffer=*/true);
  EMBER_CHECK(t.numel() == 1 && t.item<int64_t>() >= 0, "Sampler::load: '", key,
              "' must hold one non-negative count, got a tensor of shape ", t.sizes());
  return static_cast<size_t>(t.item<int64_t>());
}

}  // namespace torch::data::samplers::detail
