#include "ember/serialize/archive.h"

#include <charconv>
#include <iterator>
#include <sstream>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/serialize/atomic_file.h"

namespace torch::serialize {
namespace {

constexpr const char* kIValuePrefix = "ember.ivalue.";

std::string format_double(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);  // shortest text that round-trips
  return std::string(buf, r.ptr);
}

template <typename T>
std::string join(const std::vector<T>& v, std::string (*fmt)(T)) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    out += fmt(v[i]);
  }
  return out;
}
std::string fmt_int(int64_t v) { return std::to_string(v); }

std::string encode(const IValue& v) {
  if (v.isNone()) return "none:";
  if (v.isBool()) return v.toBool() ? "bool:1" : "bool:0";
  if (v.isInt()) return "int:" + std::to_string(v.toInt());
  if (v.isDouble()) return "double:" + format_double(v.toDouble());
  if (v.isString()) return "string:" + v.toStringRef();
  if (v.isIntList()) return "ints:" + join<int64_t>(v.toIntVector(), fmt_int);
  if (v.isDoubleList()) return "doubles:" + join<double>(v.toDoubleVector(), format_double);
  EMBER_ERROR("OutputArchive::write: unsupported IValue kind");
}

template <typename T>
T parse_number(std::string_view s, const std::string& key) {
  T v{};
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  EMBER_CHECK(r.ec == std::errc() && r.ptr == s.data() + s.size(), "InputArchive::read: value '", key,
              "' holds a malformed number '", s, "'");
  return v;
}

template <typename T>
std::vector<T> parse_list(std::string_view s, const std::string& key) {
  std::vector<T> out;
  if (s.empty()) return out;
  size_t start = 0;
  while (true) {
    const size_t comma = s.find(',', start);
    out.push_back(parse_number<T>(s.substr(start, comma - start), key));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

IValue decode(const std::string& text, const std::string& key) {
  const size_t colon = text.find(':');
  EMBER_CHECK(colon != std::string::npos, "InputArchive::read: value '", key, "' is malformed");
  const std::string type = text.substr(0, colon);
  const std::string_view body = std::string_view(text).substr(colon + 1);
  if (type == "none") return IValue();
  if (type == "bool") {
    EMBER_CHECK(body == "0" || body == "1", "InputArchive::read: value '", key, "' holds a malformed bool '", body,
                "' (expected 0 or 1)");
    return IValue(body == "1");
  }
  if (type == "int") return IValue(parse_number<int64_t>(body, key));
  if (type == "double") return IValue(parse_number<double>(body, key));
  if (type == "string") return IValue(std::string(body));
  if (type == "ints") return IValue(parse_list<int64_t>(body, key));
  if (type == "doubles") return IValue(parse_list<double>(body, key));
  EMBER_ERROR("InputArchive::read: value '", key, "' has unknown type '", type, "'");
}

}  // namespace

void OutputArchive::check_new_key(const std::string& key, const char* what) {
  EMBER_CHECK(!key.empty(), "OutputArchive::write: empty key for ", what);
  EMBER_CHECK(keys_.insert(key).second, "OutputArchive::write: key '", key, "' written twice");
}

void OutputArchive::write(const std::string& key, const Tensor& tensor, bool /*is_buffer*/) {
  check_new_key(key, "a tensor");
  EMBER_CHECK(tensor.defined(), "OutputArchive::write: tensor '", key, "' is undefined");
  tensors_.emplace_back(key, tensor);
}

void OutputArchive::write(const std::string& key, OutputArchive& nested) {
  for (const auto& [k, t] : nested.tensors_) write(key + "." + k, t);
  for (const auto& [k, v] : nested.metadata_) {
    if (k.rfind(kIValuePrefix, 0) == 0) {
      const std::string full = key + "." + k.substr(std::char_traits<char>::length(kIValuePrefix));
      check_new_key(full, "a value");
      metadata_[kIValuePrefix + full] = v;
    }
  }
}

void OutputArchive::write(const std::string& key, const IValue& value) {
  if (value.isTensor()) return write(key, value.toTensor());
  check_new_key(key, "a value");
  metadata_[kIValuePrefix + key] = encode(value);
}

std::string OutputArchive::save_to_buffer() const { return save_safetensors_to_buffer(tensors_, metadata_); }

void OutputArchive::save_to(const std::string& filename) const { write_file_atomic(filename, save_to_buffer()); }

void OutputArchive::save_to(std::ostream& stream) const {
  const std::string bytes = save_to_buffer();
  stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  EMBER_CHECK(stream.good(), "OutputArchive::save_to: writing to the stream failed");
}

void OutputArchive::save_to(const std::function<size_t(const void*, size_t)>& func) const {
  const std::string bytes = save_to_buffer();
  EMBER_CHECK(func(bytes.data(), bytes.size()) == bytes.size(), "OutputArchive::save_to: the writer function ",
              "accepted fewer bytes than given");
}

void InputArchive::set(NamedTensors tensors, Metadata metadata) {
  tensors_ = std::move(tensors);
  metadata_ = std::move(metadata);
  index_.clear();
  for (size_t i = 0; i < tensors_.size(); ++i) index_.emplace(tensors_[i].first, i);
}

static void check_device(const std::optional<Device>& device) {
  EMBER_CHECK(!device || device->is_cpu(), "InputArchive::load_from: cannot load to ", *device,
              "; Ember tensors live on the CPU");
}

void InputArchive::load_from(const std::string& filename, std::optional<Device> device) {
  check_device(device);
  SafetensorsContents c = load_safetensors_with_metadata(filename);
  source_ = filename;
  set(std::move(c.tensors), std::move(c.metadata));
}

void InputArchive::load_from(std::istream& stream, std::optional<Device> device) {
  check_device(device);
  const std::string bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
  EMBER_CHECK(!stream.bad(), "InputArchive::load_from: reading the stream failed");
  load_from(bytes.data(), bytes.size());
}

void InputArchive::load_from(const char* data, size_t size, std::optional<Device> device) {
  check_device(device);
  SafetensorsContents c = load_safetensors_from_buffer(std::string_view(data, size), "<stream>");
  source_ = "<stream>";
  set(std::move(c.tensors), std::move(c.metadata));
}

bool InputArchive::try_read(const std::string& key, Tensor& tensor, bool /*is_buffer*/) {
  const auto it = index_.find(key);
  if (it == index_.end()) return false;
  const Tensor& stored = tensors_[it->second].second;
  if (!tensor.defined()) {
    tensor = stored;
    return true;
  }
  EMBER_CHECK(tensor.sizes().vec() == stored.sizes().vec(), "InputArchive::read: '", key, "' has shape ",
              shape_str(stored.sizes()), " in '", source_, "' but the destination has shape ",
              shape_str(tensor.sizes()));
  NoGradGuard no_grad;
  tensor.copy_(stored);
  return true;
}

void InputArchive::read(const std::string& key, Tensor& tensor, bool is_buffer) {
  EMBER_CHECK(try_read(key, tensor, is_buffer), "InputArchive::read: No such serialized tensor '", prefix_, key,
              "' in '", source_, "'");
}

bool InputArchive::try_read(const std::string& key, InputArchive& nested) {
  const std::string prefix = key + ".";
  NamedTensors tensors;
  Metadata metadata;
  for (const auto& [k, t] : tensors_)
    if (k.rfind(prefix, 0) == 0) tensors.emplace_back(k.substr(prefix.size()), t);
  const std::string meta_prefix = kIValuePrefix + prefix;
  for (const auto& [k, v] : metadata_)
    if (k.rfind(meta_prefix, 0) == 0) metadata[kIValuePrefix + k.substr(meta_prefix.size())] = v;
  if (tensors.empty() && metadata.empty()) return false;
  nested.set(std::move(tensors), std::move(metadata));
  nested.source_ = source_;
  nested.prefix_ = prefix_ + key + ".";
  return true;
}

void InputArchive::read(const std::string& key, InputArchive& nested) {
  EMBER_CHECK(try_read(key, nested), "InputArchive::read: No such serialized submodule: '", prefix_, key, "' in '",
              source_, "'");
}

bool InputArchive::try_read(const std::string& key, IValue& value) {
  if (const auto it = metadata_.find(kIValuePrefix + key); it != metadata_.end()) {
    value = decode(it->second, key);
    return true;
  }
  if (const auto it = index_.find(key); it != index_.end()) {
    value = IValue(tensors_[it->second].second);
    return true;
  }
  return false;
}

void InputArchive::read(const std::string& key, IValue& value) {
  EMBER_CHECK(try_read(key, value), "InputArchive::read: the archive does not have a field with name '", prefix_, key,
              "' in '", source_, "'");
}

std::vector<std::string> InputArchive::keys() const {
  std::vector<std::string> out;
  for (const auto& [k, t] : tensors_) out.push_back(k);
  const size_t n = std::char_traits<char>::length(kIValuePrefix);
  for (const auto& [k, v] : metadata_)
    if (k.rfind(kIValuePrefix, 0) == 0) out.push_back(k.substr(n));
  return out;
}

}  // namespace torch::serialize
