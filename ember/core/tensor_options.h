#pragma once
// TensorOptions: dtype / device / requires_grad for factories, built with
// chained setters or implicitly from a dtype or device (as in LibTorch).
#include <optional>

#include "ember/core/device.h"
#include "ember/core/dtype.h"

namespace torch {

// LibTorch's layouts. Ember's tensors are all strided; the others can be named and stored in
// options (programs test for them), and a factory asked for one raises.
enum class Layout : int8_t { Strided = 0, Sparse, SparseCsr, Mkldnn, SparseCsc, SparseBsr, SparseBsc };
constexpr Layout kStrided = Layout::Strided;
constexpr Layout kSparse = Layout::Sparse;
constexpr Layout kSparseCsr = Layout::SparseCsr;
constexpr Layout kMkldnn = Layout::Mkldnn;
constexpr Layout kSparseCsc = Layout::SparseCsc;
constexpr Layout kSparseBsr = Layout::SparseBsr;
constexpr Layout kSparseBsc = Layout::SparseBsc;
std::ostream& operator<<(std::ostream& os, Layout l);  // "Strided", "Sparse", ... (ops/factory/factory.cpp)

enum class MemoryFormat : int8_t { Contiguous, Preserve };

class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(ScalarType t) : dtype_(t) {}   // NOLINT
  TensorOptions(Device d) : device_(d) {}      // NOLINT
  TensorOptions(DeviceType d) : device_(d) {}  // NOLINT
  TensorOptions(Layout l) : layout_(l) {}      // NOLINT

  TensorOptions dtype(ScalarType t) const {
    auto o = *this;
    o.dtype_ = t;
    return o;
  }
  TensorOptions dtype(std::optional<ScalarType> t) const {
    auto o = *this;
    o.dtype_ = t;
    return o;
  }
  template <typename T>
  TensorOptions dtype() const {
    return dtype(scalar_type_of<T>);
  }
  TensorOptions device(Device d) const {
    auto o = *this;
    o.device_ = d;
    return o;
  }
  TensorOptions device(DeviceType t, int8_t index) const { return device(Device(t, index)); }
  // A device index alone means a CUDA device, as LibTorch's device_index().
  TensorOptions device_index(int8_t index) const { return device(Device(kCUDA, index)); }
  TensorOptions layout(Layout l) const {
    auto o = *this;
    o.layout_ = l;
    return o;
  }
  TensorOptions layout(std::optional<Layout> l) const { return layout(l.value_or(kStrided)); }
  TensorOptions requires_grad(bool r) const {
    auto o = *this;
    o.requires_grad_ = r;
    return o;
  }
  TensorOptions pinned_memory(bool = true) const { return *this; }
  TensorOptions memory_format(MemoryFormat) const { return *this; }

  ScalarType dtype() const { return dtype_.value_or(get_default_dtype()); }
  bool has_dtype() const { return dtype_.has_value(); }
  std::optional<ScalarType> dtype_opt() const { return dtype_; }
  Device device() const { return device_; }
  bool requires_grad() const { return requires_grad_; }
  Layout layout() const { return layout_; }

 private:
  std::optional<ScalarType> dtype_;
  Device device_ = kCPU;
  bool requires_grad_ = false;
  Layout layout_ = kStrided;
};

inline TensorOptions dtype(ScalarType t) { return TensorOptions().dtype(t); }
template <typename T>
inline TensorOptions dtype() {
  return TensorOptions().dtype(scalar_type_of<T>);
}
inline TensorOptions device(Device d) { return TensorOptions().device(d); }
inline TensorOptions requires_grad(bool r = true) { return TensorOptions().requires_grad(r); }
inline TensorOptions layout(Layout l) { return TensorOptions().layout(l); }
inline TensorOptions device_index(int8_t index) { return TensorOptions().device_index(index); }

}  // namespace torch
