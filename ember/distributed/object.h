#pragma once
// Object: what the *_object collectives and RPC carry where Python carries any
// picklable object. Pickle can run code on load; an Object is only data —
// None, bool, int, float, str, bytes-free tensors, lists and string-keyed
// dicts of these — and its wire form (encode/decode) is bounds-checked, so a
// peer's bytes can fail a call but never execute anything or read past a buffer.
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::distributed {

class Object {
 public:
  using List = std::vector<Object>;
  using Dict = std::map<std::string, Object>;

  Object() = default;                            // None
  Object(std::nullptr_t) {}                      // NOLINT: implicit, as Python's None
  Object(bool v) : v_(v) {}                      // NOLINT
  Object(int v) : v_(int64_t{v}) {}              // NOLINT
  Object(int64_t v) : v_(v) {}                   // NOLINT
  Object(double v) : v_(v) {}                    // NOLINT
  Object(const char* v) : v_(std::string(v)) {}  // NOLINT
  Object(std::string v) : v_(std::move(v)) {}    // NOLINT
  Object(Tensor v) : v_(std::move(v)) {}         // NOLINT
  Object(List v) : v_(std::move(v)) {}           // NOLINT
  Object(Dict v) : v_(std::move(v)) {}           // NOLINT

  bool is_none() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_bool() const { return std::holds_alternative<bool>(v_); }
  bool is_int() const { return std::holds_alternative<int64_t>(v_); }
  bool is_double() const { return std::holds_alternative<double>(v_); }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }
  bool is_tensor() const { return std::holds_alternative<Tensor>(v_); }
  bool is_list() const { return std::holds_alternative<List>(v_); }
  bool is_dict() const { return std::holds_alternative<Dict>(v_); }

  // Each raises naming the kind held when it is another.
  bool to_bool() const;
  int64_t to_int() const;
  double to_double() const;  // an int converts, as in Python arithmetic
  const std::string& to_string() const;
  const Tensor& to_tensor() const;
  const List& to_list() const;
  const Dict& to_dict() const;
  const char* kind() const;

  // Python ==: tensors compare by equal() (same shape, dtype and values).
  friend bool operator==(const Object& a, const Object& b);
  friend bool operator!=(const Object& a, const Object& b) { return !(a == b); }

 private:
  std::variant<std::monostate, bool, int64_t, double, std::string, Tensor, List, Dict> v_;
};

// The wire form: appended to out / read from bytes. decode raises ember::Error
// on anything malformed (truncation, unknown tags, sizes beyond the bytes,
// nesting deeper than 64).
void encode_object(const Object& obj, std::vector<uint8_t>& out);
std::vector<uint8_t> encode_object(const Object& obj);
Object decode_object(const uint8_t* data, size_t size);
inline Object decode_object(const std::vector<uint8_t>& bytes) { return decode_object(bytes.data(), bytes.size()); }

}  // namespace torch::distributed
