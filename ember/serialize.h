#pragma once
// Serialization: torch::save / torch::load, archives, safetensors, and
// reading PyTorch checkpoints (ember/serialize/*).
#include <utility>
#include <vector>

#include "ember/serialize/archive.h"
#include "ember/serialize/atomic_file.h"
#include "ember/serialize/pt_reader.h"
#include "ember/serialize/safetensors.h"

namespace torch {
namespace serialize {

// A lone tensor is stored under "0", as LibTorch does. Modules and optimizers
// plug into torch::save/load by defining these two operators for their types.
inline OutputArchive& operator<<(OutputArchive& archive, const Tensor& tensor) {
  archive.write("0", tensor);
  return archive;
}
inline InputArchive& operator>>(InputArchive& archive, Tensor& tensor) {
  archive.read("0", tensor);
  return archive;
}

}  // namespace serialize

// torch::save(value, filename | std::ostream& | writer function).
template <class Value, class... SaveToArgs>
void save(const Value& value, SaveToArgs&&... args) {
  serialize::OutputArchive archive;
  archive << value;
  archive.save_to(std::forward<SaveToArgs>(args)...);
}

// Tensors of a vector are stored under "0", "1", ...
template <class... SaveToArgs>
void save(const std::vector<Tensor>& tensors, SaveToArgs&&... args) {
  serialize::OutputArchive archive;
  for (size_t i = 0; i < tensors.size(); ++i) archive.write(std::to_string(i), tensors[i]);
  archive.save_to(std::forward<SaveToArgs>(args)...);
}

// torch::load(value, filename | std::istream&).
template <class Value, class... LoadFromArgs>
void load(Value& value, LoadFromArgs&&... args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
  archive >> value;
}

// Appends the tensors stored under "0", "1", ... (LibTorch appends too).
template <class... LoadFromArgs>
void load(std::vector<Tensor>& tensors, LoadFromArgs&&... args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
  for (size_t i = 0;; ++i) {
    Tensor t;
    if (!archive.try_read(std::to_string(i), t)) break;
    tensors.push_back(std::move(t));
  }
}

}  // namespace torch
