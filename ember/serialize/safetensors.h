#pragma once
// safetensors: Ember's own tensor file format (see Note [safetensors layout]).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::serialize {

// Named tensors in the order they were written; names are unique.
using NamedTensors = std::vector<std::pair<std::string, Tensor>>;
using Metadata = std::map<std::string, std::string>;

struct SafetensorsContents {
  NamedTensors tensors;
  Metadata metadata;  // the optional "__metadata__" string map
};

// Note [safetensors layout]
// Bytes 0..7: N, the header length, little-endian uint64. Bytes 8..8+N: a JSON
// object {"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [b, e]}, ...,
// "__metadata__": {"k": "v"}}. Then the data buffer; [b, e) are offsets into it.
// Each tensor is stored contiguous, row-major, little-endian. dtypes are the
// safetensors names F64 F32 F16 BF16 I64 I32 I16 I8 U8 BOOL, plus two Ember
// extensions that other safetensors readers do not know: C64 (complex64) and
// C128 (complex128), stored as interleaved (real, imag) pairs. The writer pads
// the header with spaces to a multiple of 8 bytes and lays tensors out in
// insertion order; the reader keeps the header's order.
//
// Files are untrusted input: the reader checks the header length against the
// file size, the JSON, every dtype/shape/offset, shape-product overflow, that
// each tensor's byte range is exactly numel * itemsize, that ranges do not
// overlap and cover the buffer without holes (as the safetensors spec
// requires), and duplicate names. Any violation raises ember::Error naming the
// source (file name or "<buffer>") and the problem.

// Serialises to bytes / to a file (written atomically, see AtomicFile).
std::string save_safetensors_to_buffer(const NamedTensors& tensors, const Metadata& metadata = {});
void save_safetensors(const std::string& path, const NamedTensors& tensors, const Metadata& metadata = {});

// Parses bytes; `source` names them in error messages.
SafetensorsContents load_safetensors_from_buffer(std::string_view bytes, const std::string& source = "<buffer>");
SafetensorsContents load_safetensors_with_metadata(const std::string& path);
NamedTensors load_safetensors(const std::string& path);

// "F32" <-> kFloat; the name throws for dtypes without one.
const char* safetensors_dtype_name(ScalarType t);

}  // namespace torch::serialize
