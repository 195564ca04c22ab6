#include "ember/serialize/safetensors.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/serialize/atomic_file.h"

namespace torch::serialize {

static_assert(std::endian::native == std::endian::little,
              "safetensors I/O copies tensor bytes as they are in memory; big-endian hosts need byte swapping");

namespace {

using ordered_json = nlohmann::ordered_json;  // what save writes: the header in insertion order
using json = nlohmann::json;                  // what load parses

// Headers above this are rejected before parsing (the reference reader uses 100 MB).
constexpr uint64_t kMaxHeaderBytes = 100ull << 20;
// nlohmann's parser recurses per nesting level; a valid header nests 3 deep.
constexpr int kMaxJsonDepth = 16;

struct DtypeName {
  ScalarType type;
  const char* name;
};
constexpr DtypeName kDtypeNames[] = {
    {kDouble, "F64"},         {kFloat, "F32"},        {kHalf, "F16"},
    {kBFloat16, "BF16"},      {kLong, "I64"},         {kInt, "I32"},
    {kShort, "I16"},          {kChar, "I8"},          {kByte, "U8"},
    {kBool, "BOOL"},          {kComplexFloat, "C64"},  // Ember extension
    {kComplexDouble, "C128"},                          // Ember extension
};

std::optional<ScalarType> dtype_from_name(const std::string& name) {
  for (const auto& d : kDtypeNames)
    if (name == d.name) return d.type;
  return std::nullopt;
}

// Deepest bracket nesting outside strings; lets us refuse hostile nesting
// before handing the text to the recursive parser.
int json_depth(std::string_view s) {
  int depth = 0, max_depth = 0;
  bool in_string = false, escaped = false;
  for (char c : s) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      max_depth = std::max(max_depth, ++depth);
      if (max_depth > kMaxJsonDepth) return max_depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return max_depth;
}

uint64_t read_u64_le(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

struct Entry {
  std::string name;
  ScalarType dtype;
  std::vector<int64_t> shape;
  uint64_t begin, end;
};

// A SAX handler that only looks for a key repeated inside one object.
struct DuplicateKeyFinder : nlohmann::json_sax<json> {
  std::vector<std::set<std::string>> open_objects;  // one key set per object still open
  std::optional<std::string> duplicate;
  size_t duplicate_depth = 0;  // 1: a tensor name

  bool start_object(std::size_t) override {
    open_objects.emplace_back();
    return true;
  }
  bool end_object() override {
    open_objects.pop_back();
    return true;
  }
  bool key(string_t& k) override {
    if (!open_objects.back().insert(k).second && !duplicate) {
      duplicate = k;
      duplicate_depth = open_objects.size();
    }
    return true;
  }
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

}  // namespace

const char* safetensors_dtype_name(ScalarType t) {
  for (const auto& d : kDtypeNames)
    if (d.type == t) return d.name;
  EMBER_ERROR("safetensors: dtype ", t, " has no safetensors name");
}

std::string save_safetensors_to_buffer(const NamedTensors& tensors, const Metadata& metadata) {
  ordered_json header = ordered_json::object();
  if (!metadata.empty()) {
    ordered_json meta = ordered_json::object();
    for (const auto& [k, v] : metadata) meta[k] = v;
    header["__metadata__"] = std::move(meta);
  }
  std::set<std::string> seen;
  std::vector<Tensor> data;
  data.reserve(tensors.size());
  uint64_t offset = 0;
  for (const auto& [name, t] : tensors) {
    EMBER_CHECK(name != "__metadata__", "save_safetensors: the name '__metadata__' is reserved");
    EMBER_CHECK(seen.insert(name).second, "save_safetensors: duplicate tensor name '", name, "'");
    EMBER_CHECK(t.defined(), "save_safetensors: tensor '", name, "' is undefined");
    Tensor c = t.detach().contiguous();
    const uint64_t nbytes = c.nbytes();
    ordered_json e = ordered_json::object();
    e["dtype"] = safetensors_dtype_name(c.dtype());
    e["shape"] = c.sizes().vec();
    e["data_offsets"] = {offset, offset + nbytes};
    // Names are unique (seen above): appended without ordered_json's linear key search.
    header.get_ref<ordered_json::object_t&>().emplace_back(name, std::move(e));
    offset += nbytes;
    data.push_back(std::move(c));
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  std::string out;
  out.reserve(8 + text.size() + offset);
  const uint64_t n = text.size();
  out.append(reinterpret_cast<const char*>(&n), 8);
  out += text;
  for (const Tensor& c : data) out.append(static_cast<const char*>(c.data_ptr()), c.nbytes());
  return out;
}

void save_safetensors(const std::string& path, const NamedTensors& tensors, const Metadata& metadata) {
  write_file_atomic(path, save_safetensors_to_buffer(tensors, metadata));
}

SafetensorsContents load_safetensors_from_buffer(std::string_view bytes, const std::string& source) {
  auto fail = [&](const auto&... what) { EMBER_ERROR("load_safetensors: '", source, "': ", what...); };
  if (bytes.size() < 8) fail("file too short (", bytes.size(), " bytes) for the 8-byte header length");
  const uint64_t header_len = read_u64_le(bytes.data());
  if (header_len > kMaxHeaderBytes) fail("header length ", header_len, " exceeds the limit of ", kMaxHeaderBytes);
  if (header_len > bytes.size() - 8)
    fail("header length ", header_len, " exceeds the file size ", bytes.size(), " minus 8");
  const std::string_view text = bytes.substr(8, header_len);
  const std::string_view buffer = bytes.substr(8 + header_len);

  if (json_depth(text) > kMaxJsonDepth) fail("header JSON nests deeper than ", kMaxJsonDepth, " levels");
  // Duplicate keys would silently overwrite each other in the parsed object (a
  // second "dtype" in an entry, a second tensor name), so a first SAX pass
  // records them, in every object: one key set per object still open. The
  // second pass builds std::map-backed objects. Both are O(n log n): a parser
  // callback (nlohmann's end_object rescans the parent object) and ordered_json
  // (its objects insert by linear search) were each quadratic in the number of
  // tensors (200,000 entries took minutes). The tensors come out in data-offset
  // order, which is the order they were saved in.
  DuplicateKeyFinder keys;
  if (!json::sax_parse(text.begin(), text.end(), &keys)) fail("header is not well-formed JSON");
  if (keys.duplicate && keys.duplicate_depth == 1) fail("duplicate tensor name '", *keys.duplicate, "'");
  if (keys.duplicate) fail("duplicate key '", *keys.duplicate, "' inside an entry or __metadata__");
  json header = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (header.is_discarded()) fail("header is not well-formed JSON");
  if (!header.is_object()) fail("header is not a JSON object");

  SafetensorsContents out;
  std::vector<Entry> entries;
  for (const auto& [name, value] : header.items()) {
    if (name == "__metadata__") {
      if (!value.is_object()) fail("__metadata__ is not an object");
      for (const auto& [k, v] : value.items()) {
        if (!v.is_string()) fail("__metadata__ value for '", k, "' is not a string");
        out.metadata[k] = v.get<std::string>();
      }
      continue;
    }
    if (!value.is_object()) fail("entry '", name, "' is not an object");
    for (const auto& [k, v] : value.items())
      if (k != "dtype" && k != "shape" && k != "data_offsets") fail("entry '", name, "' has unknown field '", k, "'");
    const auto dt = value.find("dtype");
    const auto sh = value.find("shape");
    const auto off = value.find("data_offsets");
    if (dt == value.end() || sh == value.end() || off == value.end())
      fail("entry '", name, "' needs dtype, shape and data_offsets");
    if (!dt->is_string()) fail("entry '", name, "': dtype is not a string");
    const auto dtype = dtype_from_name(dt->get<std::string>());
    if (!dtype) fail("entry '", name, "': unknown dtype '", dt->get<std::string>(), "'");
    if (!sh->is_array()) fail("entry '", name, "': shape is not an array");
    Entry e{name, *dtype, {}, 0, 0};
    // The product of the non-zero sizes must fit too: a 0 in the shape must not
    // hide sizes whose strides would overflow.
    uint64_t numel = 1, nonzero = 1;
    for (const auto& d : *sh) {
      if (!d.is_number_unsigned()) fail("entry '", name, "': shape holds a value that is not a non-negative integer");
      const uint64_t v = d.get<uint64_t>();
      if (v > uint64_t(INT64_MAX) || __builtin_mul_overflow(nonzero, v == 0 ? 1 : v, &nonzero) ||
          nonzero > uint64_t(INT64_MAX))
        fail("entry '", name, "': shape product overflows");
      numel *= v;
      e.shape.push_back(int64_t(v));
    }
    uint64_t nbytes;
    if (__builtin_mul_overflow(numel, uint64_t(element_size(*dtype)), &nbytes))
      fail("entry '", name, "': byte size overflows");
    if (!off->is_array() || off->size() != 2 || !(*off)[0].is_number_unsigned() || !(*off)[1].is_number_unsigned())
      fail("entry '", name, "': data_offsets is not a pair of non-negative integers");
    e.begin = (*off)[0].get<uint64_t>();
    e.end = (*off)[1].get<uint64_t>();
    if (e.begin > e.end || e.end > buffer.size())
      fail("entry '", name, "': data_offsets [", e.begin, ", ", e.end, "] outside the data buffer of ", buffer.size(),
           " bytes");
    if (e.end - e.begin != nbytes)
      fail("entry '", name, "': data_offsets span ", e.end - e.begin, " bytes but shape and dtype need ", nbytes);
    entries.push_back(std::move(e));
  }

  std::vector<const Entry*> by_offset;
  for (const Entry& e : entries) by_offset.push_back(&e);
  std::stable_sort(by_offset.begin(), by_offset.end(), [](const Entry* a, const Entry* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  uint64_t pos = 0;
  for (const Entry* e : by_offset) {
    if (e->begin < pos) fail("tensors overlap in the data buffer ('", e->name, "' starts at ", e->begin, ")");
    if (e->begin > pos) fail("the data buffer has a hole before '", e->name, "' (bytes ", pos, " to ", e->begin, ")");
    pos = e->end;
  }
  if (pos != buffer.size()) fail("the data buffer has ", buffer.size() - pos, " trailing bytes no tensor uses");

  out.tensors.reserve(entries.size());
  for (const Entry* e : by_offset) {
    Tensor t = empty(e->shape, TensorOptions().dtype(e->dtype));
    if (e->end > e->begin) std::memcpy(t.data_ptr(), buffer.data() + e->begin, e->end - e->begin);
    out.tensors.emplace_back(e->name, std::move(t));
  }
  return out;
}

SafetensorsContents load_safetensors_with_metadata(const std::string& path) {
  return load_safetensors_from_buffer(read_file(path), path);
}

NamedTensors load_safetensors(const std::string& path) { return load_safetensors_with_metadata(path).tensors; }

}  // namespace torch::serialize
