#include "ember/distributed/object.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace torch::distributed {
namespace {

enum Tag : uint8_t { kNone = 0, kBool, kInt, kDouble, kString, kTensor, kList, kDict };
constexpr int kMaxDepth = 64;
constexpr int64_t kMaxDims = 64;

template <typename T>
void put(std::vector<uint8_t>& out, T v) {
  auto* p = reinterpret_cast<const uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

void put_bytes(std::vector<uint8_t>& out, const void* data, size_t n) {
  put<uint64_t>(out, n);
  auto* p = static_cast<const uint8_t*>(data);
  out.insert(out.end(), p, p + n);
}

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  size_t left() const { return size_ - at_; }
  void need(uint64_t n) const {
    EMBER_CHECK(n <= left(), "decode_object: truncated object (", n, " bytes wanted at offset ", at_, " of ", size_,
                ")");
  }
  template <typename T>
  T get() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, data_ + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  const uint8_t* take(uint64_t n) {
    need(n);
    const uint8_t* p = data_ + at_;
    at_ += n;
    return p;
  }
  std::string get_string() {
    auto n = get<uint64_t>();
    return {reinterpret_cast<const char*>(take(n)), static_cast<size_t>(n)};
  }

  Object read(int depth) {
    EMBER_CHECK(depth < kMaxDepth, "decode_object: nesting deeper than ", kMaxDepth);
    auto tag = get<uint8_t>();
    switch (tag) {
      case kNone:
        return {};
      case kBool:
        return Object(get<uint8_t>() != 0);
      case kInt:
        return Object(get<int64_t>());
      case kDouble:
        return Object(get<double>());
      case kString:
        return Object(get_string());
      case kTensor:
        return Object(read_tensor());
      case kList: {
        auto n = get<uint64_t>();
        need(n);  // every element takes at least its tag byte
        Object::List list;
        list.reserve(static_cast<size_t>(n));
        for (uint64_t i = 0; i < n; ++i) list.push_back(read(depth + 1));
        return Object(std::move(list));
      }
      case kDict: {
        auto n = get<uint64_t>();
        EMBER_CHECK(n <= left() / 9, "decode_object: a dict of ", n, " entries in ", left(), " bytes");
        Object::Dict dict;
        for (uint64_t i = 0; i < n; ++i) {
          std::string key = get_string();
          dict[key] = read(depth + 1);
        }
        return Object(std::move(dict));
      }
      default:
        EMBER_ERROR("decode_object: unknown tag ", int(tag), " at offset ", at_ - 1);
    }
  }

  Tensor read_tensor() {
    auto code = get<int32_t>();
    EMBER_CHECK(code >= 0 && code < kNumScalarTypes, "decode_object: bad dtype code ", code);
    auto dtype = static_cast<ScalarType>(code);
    auto dim = get<int64_t>();
    EMBER_CHECK(dim >= 0 && dim <= kMaxDims, "decode_object: bad tensor rank ", dim);
    std::vector<int64_t> sizes(static_cast<size_t>(dim));
    uint64_t numel = 1;
    for (auto& s : sizes) {
      s = get<int64_t>();
      EMBER_CHECK(s >= 0, "decode_object: negative tensor size ", s);
      EMBER_CHECK(s == 0 || numel <= std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(s),
                  "decode_object: tensor size overflows");
      numel *= static_cast<uint64_t>(s);
    }
    auto n = get<uint64_t>();
    uint64_t item = element_size(dtype);
    EMBER_CHECK(numel <= n && n == numel * item, "decode_object: a tensor of ", numel, " ", dtype_name(dtype),
                " elements carries ", n, " bytes");
    const uint8_t* p = take(n);  // checked against the bytes before allocating
    Tensor t = empty(sizes, TensorOptions().dtype(dtype));
    if (n) std::memcpy(t.data_ptr(), p, static_cast<size_t>(n));
    return t;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t at_ = 0;
};

}  // namespace

const char* Object::kind() const {
  static constexpr const char* kNames[] = {"None", "bool", "int", "float", "str", "Tensor", "list", "dict"};
  return kNames[v_.index()];
}

#define EMBER_OBJECT_GET(T, check, name)                                            \
  EMBER_CHECK(check, "Object: expected " name ", but the object holds a ", kind()); \
  return std::get<T>(v_)

bool Object::to_bool() const { EMBER_OBJECT_GET(bool, is_bool(), "a bool"); }
int64_t Object::to_int() const { EMBER_OBJECT_GET(int64_t, is_int(), "an int"); }
double Object::to_double() const {
  if (is_int()) return static_cast<double>(std::get<int64_t>(v_));
  EMBER_OBJECT_GET(double, is_double(), "a float");
}
const std::string& Object::to_string() const { EMBER_OBJECT_GET(std::string, is_string(), "a str"); }
const Tensor& Object::to_tensor() const { EMBER_OBJECT_GET(Tensor, is_tensor(), "a Tensor"); }
const Object::List& Object::to_list() const { EMBER_OBJECT_GET(List, is_list(), "a list"); }
const Object::Dict& Object::to_dict() const { EMBER_OBJECT_GET(Dict, is_dict(), "a dict"); }
#undef EMBER_OBJECT_GET

bool operator==(const Object& a, const Object& b) {
  if (a.v_.index() != b.v_.index()) return false;
  if (a.is_tensor()) {
    const Tensor &x = a.to_tensor(), &y = b.to_tensor();
    if (!x.defined() || !y.defined()) return x.defined() == y.defined();
    return x.scalar_type() == y.scalar_type() && x.sizes() == y.sizes() && x.equal(y);
  }
  if (a.is_list()) {
    const auto &x = a.to_list(), &y = b.to_list();
    return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin());
  }
  if (a.is_dict()) {
    const auto &x = a.to_dict(), &y = b.to_dict();
    if (x.size() != y.size()) return false;
    for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
      if (i->first != j->first || i->second != j->second) return false;
    return true;
  }
  if (a.is_none()) return true;
  if (a.is_bool()) return a.to_bool() == b.to_bool();
  if (a.is_int()) return a.to_int() == b.to_int();
  if (a.is_double()) return a.to_double() == b.to_double();
  return a.to_string() == b.to_string();
}

void encode_object(const Object& obj, std::vector<uint8_t>& out) {
  if (obj.is_none()) {
    put<uint8_t>(out, kNone);
  } else if (obj.is_bool()) {
    put<uint8_t>(out, kBool);
    put<uint8_t>(out, obj.to_bool() ? 1 : 0);
  } else if (obj.is_int()) {
    put<uint8_t>(out, kInt);
    put(out, obj.to_int());
  } else if (obj.is_double()) {
    put<uint8_t>(out, kDouble);
    put(out, obj.to_double());
  } else if (obj.is_string()) {
    put<uint8_t>(out, kString);
    put_bytes(out, obj.to_string().data(), obj.to_string().size());
  } else if (obj.is_tensor()) {
    const Tensor& t = obj.to_tensor();
    EMBER_CHECK(t.defined(), "encode_object: an undefined tensor cannot be sent");
    Tensor c = t.contiguous();
    put<uint8_t>(out, kTensor);
    put(out, static_cast<int32_t>(c.scalar_type()));
    put<int64_t>(out, c.dim());
    for (int64_t s : c.sizes()) put(out, s);
    put_bytes(out, c.data_ptr(), static_cast<size_t>(c.numel()) * c.element_size());
  } else if (obj.is_list()) {
    put<uint8_t>(out, kList);
    put<uint64_t>(out, obj.to_list().size());
    for (const auto& o : obj.to_list()) encode_object(o, out);
  } else {
    put<uint8_t>(out, kDict);
    put<uint64_t>(out, obj.to_dict().size());
    for (const auto& [k, v] : obj.to_dict()) {
      put_bytes(out, k.data(), k.size());
      encode_object(v, out);
    }
  }
}

std::vector<uint8_t> encode_object(const Object& obj) {
  std::vector<uint8_t> out;
  encode_object(obj, out);
  return out;
}

Object decode_object(const uint8_t* data, size_t size) {
  EMBER_CHECK(data != nullptr || size == 0, "decode_object: null buffer");
  Reader r(data, size);
  Object obj = r.read(0);
  EMBER_CHECK(r.left() == 0, "decode_object: ", r.left(), " bytes after the object");
  return obj;
}

}  // namespace torch::distributed
