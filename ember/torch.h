#pragma once
// LibTorch-compatible spelling: `torch::` (and `at::`, `c10::`) name Ember.
#include <optional>
#include <type_traits>

#include "ember/core/irange.h"
#include "ember/core/warning.h"
#include "ember/ember.h"

// LibTorch's torch/types.h brings c10::optional into torch:: (Dataset::size() returns
// torch::optional<size_t>); Ember's optional is std::optional, so c10::optional works too.
namespace torch {
using std::enable_if_t;  // torch::enable_if_t, from LibTorch's headers
using std::make_unique;  // torch::make_unique, from LibTorch's headers
using std::nullopt;
using std::optional;
namespace detail {
using ::torch::TensorDataContainer;  // LibTorch keeps it in torch::detail
}  // namespace detail
}  // namespace torch

// LibTorch names a dtype by a caffe2::TypeMeta, Ember by its ScalarType; this TypeMeta is a
// ScalarType with TypeMeta's spelling (Make<T>(), name(), itemsize()), converting both ways.
namespace caffe2 {
class TypeMeta {
 public:
  constexpr TypeMeta() = default;
  constexpr TypeMeta(::torch::ScalarType t) : t_(t) {}           // NOLINT
  constexpr operator ::torch::ScalarType() const { return t_; }  // NOLINT
  constexpr ::torch::ScalarType toScalarType() const { return t_; }
  template <class T>
  static constexpr TypeMeta Make() {
    return TypeMeta(::torch::scalar_type_of<T>);
  }
  std::string_view name() const { return ::torch::dtype_name(t_); }
  size_t itemsize() const { return ::torch::element_size(t_); }

 private:
  ::torch::ScalarType t_ = ::torch::ScalarType::Float;
};
}  // namespace caffe2

namespace torch {
inline ScalarType typeMetaToScalarType(caffe2::TypeMeta t) { return t; }
inline caffe2::TypeMeta scalarTypeToTypeMeta(ScalarType t) { return t; }
}  // namespace torch

// c10's assertion and warning macros, as LibTorch code uses them. Ember's
// internal asserts throw (never abort), like c10's.
#define TORCH_INTERNAL_ASSERT(cond, ...) EMBER_INTERNAL_ASSERT(cond, ##__VA_ARGS__)
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(cond, ...) EMBER_INTERNAL_ASSERT(cond, ##__VA_ARGS__)
#define TORCH_CHECK_EQ(a, b) TORCH_CHECK((a) == (b), "Check failed: " #a " == " #b)
#define TORCH_CHECK_NE(a, b) TORCH_CHECK((a) != (b), "Check failed: " #a " != " #b)
#define TORCH_CHECK_LE(a, b) TORCH_CHECK((a) <= (b), "Check failed: " #a " <= " #b)
#define TORCH_CHECK_LT(a, b) TORCH_CHECK((a) < (b), "Check failed: " #a " < " #b)
#define TORCH_CHECK_GE(a, b) TORCH_CHECK((a) >= (b), "Check failed: " #a " >= " #b)
#define TORCH_CHECK_GT(a, b) TORCH_CHECK((a) > (b), "Check failed: " #a " > " #b)
// A warning on stderr; _ONCE prints at most once per call site (a thread-safe static).
#define TORCH_WARN(...) ::ember::detail::warn(__FILE__, __LINE__, ::ember::str(__VA_ARGS__))
#define TORCH_WARN_ONCE(...)                                                                   \
  do {                                                                                         \
    if (::ember::Warning::get_warnAlways()) {                                                  \
      TORCH_WARN(__VA_ARGS__);                                                                 \
    } else {                                                                                   \
      [[maybe_unused]] static const bool ember_warned_once_ = (TORCH_WARN(__VA_ARGS__), true); \
    }                                                                                          \
  } while (0)

// `torch` is Ember's own namespace (Note [One namespace, two spellings]); `at` and `c10` are
// real namespaces that see all of it, so LibTorch code may reopen them too.
namespace at {
using namespace ::torch;

// ATen's at::tensor, which differs from torch::tensor: the C++ element type decides the dtype
// (int -> Int, double -> Double, not Long and the default dtype) and a single value makes a
// one-element 1-D tensor. Declared in at itself, so that at::tensor finds these first.
template <typename T, typename = decltype(::torch::scalar_type_of<T>)>
Tensor tensor(::torch::ArrayRef<T> values, const ::torch::TensorOptions& options = {}) {
  const ::torch::ScalarType natural = ::torch::scalar_type_of<T>;
  const ::torch::ScalarType dt = options.has_dtype() ? options.dtype() : natural;
  TORCH_CHECK(!::torch::is_complex(natural) || ::torch::is_complex(dt), "\"tensor_cpu\" not implemented for '",
              ::torch::dtype_name(dt), "': at::tensor cannot cast complex values to a real dtype");
  return ::torch::tensor(::torch::TensorDataContainer(values.vec()), options.dtype(natural)).to(dt);
}
template <typename T, typename = decltype(::torch::scalar_type_of<T>)>
Tensor tensor(std::initializer_list<T> values, const ::torch::TensorOptions& options = {}) {
  return at::tensor(::torch::ArrayRef<T>(values), options);
}
template <typename T, typename = decltype(::torch::scalar_type_of<T>)>
Tensor tensor(const std::vector<T>& values, const ::torch::TensorOptions& options = {}) {
  return at::tensor(::torch::ArrayRef<T>(values), options);
}
template <typename T, typename = decltype(::torch::scalar_type_of<T>)>
Tensor tensor(T value, const ::torch::TensorOptions& options = {}) {
  return at::tensor(::torch::ArrayRef<T>(&value, 1), options);
}
}  // namespace at
namespace c10 {
using namespace ::torch;
// c10::guts: the pre-C++17 helpers LibTorch code still calls.
namespace guts {
using std::apply;
using std::make_unique;
template <class T>
std::string to_string(const T& value) {
  return ::torch::str(value);
}
}  // namespace guts
using guts::to_string;
// c10::complex: Ember's complex dtypes are std::complex. Declared in c10 itself, where it hides
// the tensor function torch::complex(real, imag) as in LibTorch, whose at::complex is apart.
template <class T>
using complex = std::complex<T>;
using std::get;  // c10::variant and its helpers are std's
using std::get_if;
using std::holds_alternative;
using std::variant;
using std::visit;
}  // namespace c10
