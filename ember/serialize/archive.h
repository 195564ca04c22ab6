#pragma once
// OutputArchive / InputArchive with LibTorch's API (torch::serialize::*),
// stored as safetensors (see Note [Archives as safetensors]).
#include <cstddef>
#include <functional>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ember/core/device.h"
#include "ember/core/ivalue.h"
#include "ember/core/tensor.h"
#include "ember/serialize/safetensors.h"

namespace torch::serialize {

// Note [Archives as safetensors]
// An archive is a flat list of named tensors plus a string map, written as one
// safetensors file. A nested archive written under key "k" contributes its
// entries as "k.<name>", so a module written recursively gets exactly
// PyTorch's state_dict names ("0.weight", "1.running_mean", ...), and the file
// can be read by any safetensors reader. Departure from LibTorch: LibTorch
// archives are TorchScript zip files; Ember neither reads nor writes those.
//
// Non-tensor IValues (None, bool, int, double, string, int and double lists)
// go into __metadata__ under "ember.ivalue.<key>" as "<type>:<text>" (doubles
// printed to round-trip exactly); tensor IValues are stored as tensors.
class OutputArchive {
 public:
  // is_buffer is accepted for LibTorch compatibility; parameters and buffers
  // are stored alike. Writing a key twice is an error.
  void write(const std::string& key, const Tensor& tensor, bool is_buffer = false);
  void write(const std::string& key, OutputArchive& nested);
  void write(const std::string& key, const IValue& value);

  void save_to(const std::string& filename) const;  // atomic replace, see AtomicFile
  void save_to(std::ostream& stream) const;
  void save_to(const std::function<size_t(const void*, size_t)>& func) const;
  std::string save_to_buffer() const;

  const NamedTensors& tensors() const { return tensors_; }
  const Metadata& metadata() const { return metadata_; }

 private:
  // Raises when `key` was written before; records it (a set: writes stay O(log n)).
  void check_new_key(const std::string& key, const char* what);

  NamedTensors tensors_;
  Metadata metadata_;
  std::unordered_set<std::string> keys_;  // every key written, tensor or value
};

class InputArchive {
 public:
  // `device` is LibTorch's map location; Ember is CPU-only, so only CPU is accepted.
  void load_from(const std::string& filename, std::optional<Device> device = std::nullopt);
  void load_from(std::istream& stream, std::optional<Device> device = std::nullopt);
  void load_from(const char* data, size_t size, std::optional<Device> device = std::nullopt);

  // Like LibTorch: an undefined `tensor` is bound to the stored tensor; a
  // defined one keeps its storage and receives a copy (under NoGradGuard, so
  // parameters can be filled in place). Its shape must match; the dtype is
  // converted as copy_ does. read throws when the key is missing.
  void read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  bool try_read(const std::string& key, Tensor& tensor, bool is_buffer = false);
  // The entries stored under "key." (throws / returns false when there are none).
  void read(const std::string& key, InputArchive& nested);
  bool try_read(const std::string& key, InputArchive& nested);
  void read(const std::string& key, IValue& value);
  bool try_read(const std::string& key, IValue& value);

  // Every key in this archive, nested ones dotted: tensors in file order, then values sorted.
  std::vector<std::string> keys() const;
  // `key` as seen from the outermost archive ("a.b.key" inside the archive read as "a.b").
  std::string full_key(const std::string& key) const { return prefix_ + key; }

 private:
  void set(NamedTensors tensors, Metadata metadata);

  NamedTensors tensors_;
  Metadata metadata_;
  std::unordered_map<std::string, size_t> index_;
  std::string source_ = "<archive>";
  std::string prefix_;  // "a.b." for the archive read as "b" from the archive read as "a", for messages
};

}  // namespace torch::serialize
