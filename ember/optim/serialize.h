#pragma once
// torch::save(optimizer, file) / torch::load(optimizer, file): the archive
// operators torch::save/load use (ember/serialize.h), as LibTorch defines them.
#include "ember/optim/optimizer.h"
#include "ember/serialize/archive.h"

namespace torch::optim {

inline serialize::OutputArchive& operator<<(serialize::OutputArchive& archive, const Optimizer& optimizer) {
  optimizer.save(archive);
  return archive;
}
inline serialize::InputArchive& operator>>(serialize::InputArchive& archive, Optimizer& optimizer) {
  optimizer.load(archive);
  return archive;
}

}  // namespace torch::optim
