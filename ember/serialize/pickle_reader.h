#pragma once
// A restricted unpickler for PyTorch checkpoints: it understands the opcodes
// torch.save emits and a short allow-list of globals, and never runs code
// (see Note [Restricted unpickler]).
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/serialize/safetensors.h"

namespace torch::serialize {

// Note [Restricted unpickler]
// Python's pickle can call any importable function (GLOBAL + REDUCE), which is
// how a malicious checkpoint runs `os.system`. This reader instead builds a
// plain object graph: GLOBAL is accepted only for
//   collections.OrderedDict, torch._utils._rebuild_tensor_v2,
//   torch._utils._rebuild_parameter, torch.<X>Storage (dtype of a storage)
// and REDUCE only "calls" those, implemented here in C++. Anything else raises
// ember::Error ("unpickler: global 'os system' is not allowed"). Persistent ids
// ('storage', <X>Storage, key, location, numel[, view]) are resolved through a
// caller-supplied StorageLoader. Tensors are rebuilt as views of their storage
// after checking that offset/sizes/strides stay inside it, so tensors that
// shared a storage in Python share it here too. Every read is bounds-checked;
// objects live in an arena owned by the graph, so reference cycles built via
// the memo cannot leak, and flattening refuses nesting deeper than 64.

enum class PickleKind : uint8_t { None, Bool, Int, Float, String, Bytes, Tuple, List, Dict, Global, Storage, Tensor };

struct PickleObject {
  PickleKind kind = PickleKind::None;
  int64_t i = 0;                // Bool, Int
  double f = 0;                 // Float
  std::string s;                // String, Bytes (also LONG1 wider than 64 bits); Global: "module name"
  std::vector<uint32_t> items;  // Tuple, List; Dict: key0, value0, key1, value1, ...
  Tensor tensor;                // Tensor; Storage: a 1-D tensor over the storage's elements
};

struct PickleGraph {
  std::vector<PickleObject> objects;
  uint32_t root = 0;
  size_t consumed = 0;  // bytes read up to and including STOP
  const PickleObject& at(uint32_t id) const { return objects.at(id); }
};

// Returns a 1-D tensor of `numel` elements of `dtype` for the storage `key`
// (validating that the bytes exist), or throws ember::Error.
using StorageLoader = std::function<Tensor(const std::string& key, ScalarType dtype, int64_t numel)>;

// Unpickles one pickle from the start of `bytes`. `source` names the input in
// error messages. A null loader rejects persistent ids.
PickleGraph unpickle(std::string_view bytes, const StorageLoader& load_storage, const std::string& source);

// Flattens the tensors reachable from the root: dict keys and list indices
// join with '.', like state_dict names; non-tensor leaves are skipped and a
// lone root tensor gets the empty name.
NamedTensors flatten_tensors(const PickleGraph& graph, const std::string& source);

// dtype of a storage class name ("FloatStorage" -> kFloat); throws if unknown.
ScalarType storage_type_dtype(const std::string& name);

}  // namespace torch::serialize
