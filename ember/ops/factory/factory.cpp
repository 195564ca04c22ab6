#include "ember/ops/factory/factory.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "ember/autograd/autograd_meta.h"
#include "ember/core/checked_arith.h"
#include "ember/core/dispatch.h"
#include "ember/core/parallel.h"
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/convert.h"
#include "ember/ops/elementwise/elementwise.h"
#include "ember/ops/shape/copy.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

namespace {
void check_cpu(const TensorOptions& o, const char* op) {
  EMBER_CHECK(o.device().is_cpu(), op, ": device ", o.device(), " is not available (Ember was built for the CPU only)");
  EMBER_CHECK(o.layout() == kStrided, op, ": layout ", o.layout(), " is not available (Ember's tensors are strided)");
}
// Every factory's last step: the fill that made the tensor is not a write anyone saw.
Tensor finish(Tensor t, const TensorOptions& o) {
  t.unsafeGetTensorImpl()->reset_version();
  if (o.requires_grad()) t.requires_grad_(true);
  return t;
}
}  // namespace

std::ostream& operator<<(std::ostream& os, Layout l) {
  constexpr const char* names[] = {"Strided", "Sparse", "SparseCsr", "Mkldnn", "SparseCsc", "SparseBsr", "SparseBsc"};
  const auto i = static_cast<size_t>(l);
  return os << (i < std::size(names) ? names[i] : "UnknownLayout");
}

// The composite factories call the public factories and ops that PyTorch's
// call, so the profiler shows the same children (zeros -> empty, zero_; full
// -> empty, fill_).
Tensor empty(IntArrayRef size, const TensorOptions& o) {
  EMBER_RECORD_OP("empty");
  check_cpu(o, "empty");
  Tensor t = empty_cpu(size, o.dtype());
  return o.requires_grad() ? finish(t, o) : t;
}

Tensor empty_strided(IntArrayRef size, IntArrayRef stride, const TensorOptions& o) {
  EMBER_RECORD_OP("empty_strided");
  check_cpu(o, "empty_strided");
  EMBER_CHECK(size.size() == stride.size(), "empty_strided: size ", shape_str(size), " and stride ", shape_str(stride),
              " must have the same length");
  const int64_t extent = checked_extent(size, stride, "empty_strided");
  size_t nbytes;
  EMBER_CHECK(!__builtin_mul_overflow(static_cast<size_t>(extent), element_size(o.dtype()), &nbytes),
              "empty_strided: size ", shape_str(size), " overflows the address space");
  Tensor t(make_intrusive<TensorImpl>(StorageImpl::allocate(nbytes), o.dtype(), size, stride, 0));
  return finish(t, o);
}

Tensor zeros(IntArrayRef size, const TensorOptions& o) {
  EMBER_RECORD_OP("zeros");
  Tensor t = empty(size, o.requires_grad(false));
  t.zero_();
  return finish(t, o);
}
namespace {
// full's body: an empty tensor, then fill_ (PyTorch's children of full/ones).
Tensor filled(IntArrayRef size, const Scalar& value, const TensorOptions& o) {
  Tensor t = empty(size, o.requires_grad(false));
  t.fill_(value);
  return finish(t, o);
}
// A *_like factory's body: empty_like, then fill_ or zero_.
Tensor filled_like(const Tensor& t, const std::optional<Scalar>& value, const TensorOptions& o) {
  Tensor r = empty_like(t, o.requires_grad(false));
  if (value)
    r.fill_(*value);
  else
    r.zero_();
  return finish(r, o);
}
}  // namespace

Tensor ones(IntArrayRef size, const TensorOptions& o) {
  EMBER_RECORD_OP("ones");
  return filled(size, 1, o.has_dtype() ? o : o.dtype(get_default_dtype()));
}

Tensor full(IntArrayRef size, const Scalar& value, const TensorOptions& o) {
  EMBER_RECORD_OP("full");
  // Like PyTorch: without a dtype, full() infers it from the fill value.
  TensorOptions opts = o.has_dtype() ? o
                                     : o.dtype(value.isFloatingPoint() ? get_default_dtype()
                                               : value.isComplex()     ? to_complex_type(get_default_dtype())
                                                                       : value.type());
  return filled(size, value, opts);
}

// Unlike full(), the dtype does not follow the value: scalar_tensor(3) is float32, as in PyTorch.
Tensor scalar_tensor(const Scalar& value, const TensorOptions& o) {
  EMBER_RECORD_OP("scalar_tensor");
  TensorOptions opts = o.has_dtype() ? o : o.dtype(get_default_dtype());
  return filled({}, value, opts);
}

Tensor empty_like(const Tensor& t, const TensorOptions& o) {
  EMBER_VMAP_ELEMENTWISE(t, v, empty_like(v, o));
  EMBER_RECORD_OP("empty_like", t);
  return empty(t.sizes(), o.has_dtype() ? o : o.dtype(t.dtype()));
}
Tensor zeros_like(const Tensor& t, const TensorOptions& o) {
  EMBER_VMAP_ELEMENTWISE(t, v, zeros_like(v, o));
  EMBER_RECORD_OP("zeros_like", t);
  return filled_like(t, std::nullopt, o);
}
Tensor ones_like(const Tensor& t, const TensorOptions& o) {
  EMBER_VMAP_ELEMENTWISE(t, v, ones_like(v, o));
  EMBER_RECORD_OP("ones_like", t);
  return filled_like(t, 1, o);
}
Tensor full_like(const Tensor& t, const Scalar& v, const TensorOptions& o) {
  EMBER_VMAP_ELEMENTWISE(t, p, full_like(p, v, o));
  EMBER_RECORD_OP("full_like", t);
  return filled_like(t, v, o);
}

namespace {
TensorOptions new_options(const Tensor& t, const TensorOptions& o) { return o.has_dtype() ? o : o.dtype(t.dtype()); }
}  // namespace

Tensor Tensor::new_empty(IntArrayRef size, const TensorOptions& o) const {
  if (batching::any_batched(*this)) [[unlikely]]
    return batching::new_batched(*this, size, [&](const Tensor& v, IntArrayRef s) { return v.new_empty(s, o); });
  return empty(size, new_options(*this, o));
}
Tensor Tensor::new_zeros(IntArrayRef size, const TensorOptions& o) const {
  if (batching::any_batched(*this)) [[unlikely]]
    return batching::new_batched(*this, size, [&](const Tensor& v, IntArrayRef s) { return v.new_zeros(s, o); });
  return zeros(size, new_options(*this, o));
}
Tensor Tensor::new_ones(IntArrayRef size, const TensorOptions& o) const {
  if (batching::any_batched(*this)) [[unlikely]]
    return batching::new_batched(*this, size, [&](const Tensor& v, IntArrayRef s) { return v.new_ones(s, o); });
  return ones(size, new_options(*this, o));
}
Tensor Tensor::new_full(IntArrayRef size, const Scalar& value, const TensorOptions& o) const {
  if (batching::any_batched(*this)) [[unlikely]]
    return batching::new_batched(*this, size, [&](const Tensor& v, IntArrayRef s) { return v.new_full(s, value, o); });
  return full(size, value, new_options(*this, o));
}

Tensor arange(const Scalar& end, const TensorOptions& o) { return arange(0, end, 1, o); }
Tensor arange(const Scalar& start, const Scalar& end, const TensorOptions& o) { return arange(start, end, 1, o); }

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, const TensorOptions& o) {
  EMBER_RECORD_OP("arange");
  const bool any_float = start.isFloatingPoint() || end.isFloatingPoint() || step.isFloatingPoint();
  const ScalarType dt = o.has_dtype() ? o.dtype() : (any_float ? get_default_dtype() : kLong);
  EMBER_CHECK(!is_complex(dt) && dt != kBool, "arange: not implemented for dtype ", dt);
  const double s = start.toDouble(), e = end.toDouble(), st = step.toDouble();
  EMBER_CHECK(std::isfinite(s) && std::isfinite(e), "arange: unsupported range: ", s, " -> ", e);
  // An integer dtype truncates start, end and step to int64 first, as PyTorch does
  // (arange(0, 5, 1.5, kLong) steps by 1); the length of a non-int64 integer result is
  // still counted from the unrounded values, as in PyTorch.
  const bool integral = is_integral(dt, /*include_bool=*/false);
  const int64_t is = integral ? start.toLong() : 0, ie = integral ? end.toLong() : 0,
                ist = integral ? step.toLong() : 0;
  EMBER_CHECK(integral ? ist != 0 : st != 0, "arange: step must be nonzero");
  const bool consistent =
      integral ? (ist > 0 && ie >= is) || (ist < 0 && ie <= is) : (st > 0 && e >= s) || (st < 0 && e <= s);
  EMBER_CHECK(consistent, "arange: upper bound and larger bound inconsistent with step sign (start=", start,
              ", end=", end, ", step=", step, ")");
  int64_t n;
  if (integral && (!any_float || dt == kLong)) {
    // In 128 bits: end - start of two int64s can need 65 (Note [Checked size arithmetic]).
    const __int128 span = ist > 0 ? __int128(ie) - is : __int128(is) - ie;
    const __int128 stride = ist > 0 ? __int128(ist) : -__int128(ist);
    const __int128 count = (span + stride - 1) / stride;
    EMBER_CHECK(count <= INT64_MAX, "arange: the number of elements from ", is, " to ", ie, " by ", ist,
                " overflows int64");
    n = static_cast<int64_t>(count);
  } else {
    n = checked_double_to_size(std::ceil((e - s) / st), "arange", "number of elements");
  }
  Tensor t = empty({n}, o.dtype(dt).requires_grad(false));
  dispatch_real(dt, "arange", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    T* p = t.data_ptr<T>();
    if constexpr (std::is_integral_v<T>) {
      // Modulo 2^64: i * step may not fit in int64 although start + i * step does.
      for (int64_t i = 0; i < n; ++i)
        p[i] = static_cast<T>(static_cast<int64_t>(uint64_t(is) + uint64_t(i) * uint64_t(ist)));
    } else {
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(s + static_cast<double>(i) * st);
    }
  });
  return finish(t, o);
}

namespace {

// Note [linspace's rounding]
// PyTorch computes a float or double linspace in the element type, and the way its CPU kernel
// is vectorised decides the last bit of each point (Debian's build runs the AVX2 kernel): the
// step is (end - start) / (steps - 1) in T; the range is cut into the chunks at::parallel_for
// gives each thread (grain 32768); within a chunk, pairs of 32-byte vectors start at a base
// computed with one rounding (start + step * i, or end - step * (steps - 1 - i) from the halfway
// point on, contracted to an FMA), each lane adding lane * step rounded separately; the chunk's
// tail is scalar, with the same fused base. torchaudio's filter banks divide differences of
// these points, so one ulp shows as ~1e-4 in a filter weight: reproducing the bits matters.
template <typename T>
void fill_linspace(T* p, int64_t steps, T start, T end) {
  const T step = (end - start) / static_cast<T>(steps - 1);
  const int64_t half = steps / 2;
  const auto fused_at = [&](int64_t i) -> T {
    return i < half ? std::fma(step, static_cast<T>(i), start) : std::fma(-step, static_cast<T>(steps - i - 1), end);
  };
  constexpr int64_t kLanes = 32 / sizeof(T), kGrain = 32768;
  const int64_t threads = steps > kGrain ? std::min<int64_t>(get_num_threads(), (steps + kGrain - 1) / kGrain) : 1;
  const int64_t chunk = (steps + threads - 1) / threads;
  for (int64_t begin = 0; begin < steps; begin += chunk) {
    const int64_t end_i = std::min(steps, begin + chunk);
    const int64_t vector_end = begin + (end_i - begin) / (2 * kLanes) * (2 * kLanes);
    for (int64_t i = begin; i < vector_end; i += kLanes) {
      const T base = fused_at(i);
      for (int64_t j = 0; j < kLanes; ++j) p[i + j] = base + static_cast<T>(j) * step;  // not fused (-ffp-contract=off)
    }
    for (int64_t i = vector_end; i < end_i; ++i) p[i] = fused_at(i);
  }
}

}  // namespace

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, const TensorOptions& o) {
  EMBER_RECORD_OP("linspace");
  EMBER_CHECK(steps >= 0, "linspace: number of steps must be non-negative, got ", steps);
  const ScalarType dt = o.has_dtype() ? o.dtype() : get_default_dtype();
  Tensor t = empty({steps}, o.dtype(dt).requires_grad(false));
  if (steps == 0) return finish(t, o);
  if (steps == 1) {  // the one value is `start` (the fill below would take it from `end`)
    t.fill_(start);
    return finish(t, o);
  }
  dispatch_numeric(dt, "linspace", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    T* p = t.data_ptr<T>();
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      fill_linspace<T>(p, steps, static_cast<T>(start.toDouble()), static_cast<T>(end.toDouble()));
    } else if constexpr (is_complex_v<T>) {
      const complex128 a = start.toComplexDouble(), b = end.toComplexDouble();
      const complex128 step = steps > 1 ? (b - a) / double(steps - 1) : complex128(0);
      for (int64_t i = 0; i < steps; ++i) p[i] = T(a + step * double(i));
    } else {
      const double a = start.toDouble(), b = end.toDouble();
      const double step = steps > 1 ? (b - a) / double(steps - 1) : 0.0;
      // Fill the second half from the end, as PyTorch does, so the last value is exactly `end`.
      const int64_t half = steps / 2;
      for (int64_t i = 0; i < steps; ++i) {
        double v = i < half ? a + step * double(i) : b - step * double(steps - 1 - i);
        if constexpr (std::is_integral_v<T>)
          p[i] = kernels::convert<T>(v);  // saturates where a plain cast would be undefined
        else
          p[i] = static_cast<T>(v);
      }
    }
  });
  return finish(t, o);
}

Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base, const TensorOptions& o) {
  EMBER_RECORD_OP("logspace");
  EMBER_CHECK(steps >= 0, "logspace: number of steps must be non-negative, got ", steps);
  const ScalarType dt = o.has_dtype() ? o.dtype() : get_default_dtype();
  Tensor exps = linspace(start, end, steps, TensorOptions().dtype(kDouble));
  Tensor t = empty({steps}, o.dtype(kDouble).requires_grad(false));
  const double* e = exps.data_ptr<double>();
  double* p = t.data_ptr<double>();
  for (int64_t i = 0; i < steps; ++i) p[i] = std::pow(base, e[i]);
  return finish(t.to(dt), o);
}

Tensor eye(int64_t n, const TensorOptions& o) { return eye(n, n, o); }
Tensor eye(int64_t n, int64_t m, const TensorOptions& o) {
  EMBER_RECORD_OP("eye");
  EMBER_CHECK(n >= 0 && m >= 0, "eye: n and m must be non-negative, got n=", n, ", m=", m);
  Tensor t = zeros({n, m}, o.requires_grad(false));
  Tensor diag = t.as_strided({std::min(n, m)}, {m + 1}, 0);
  diag.fill_(1);
  return finish(t, o);
}

Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& o) {
  return from_blob(
      data, sizes, contiguous_strides(sizes), [](void*) {}, o);
}
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, const TensorOptions& o) {
  return from_blob(
      data, sizes, strides, [](void*) {}, o);
}
Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter, const TensorOptions& o) {
  return from_blob(data, sizes, contiguous_strides(sizes), deleter, o);
}
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, const std::function<void(void*)>& deleter,
                 const TensorOptions& o) {
  check_cpu(o, "from_blob");
  EMBER_CHECK(sizes.size() == strides.size(), "from_blob: sizes ", shape_str(sizes), " and strides ",
              shape_str(strides), " must have the same length");
  const int64_t extent = checked_extent(sizes, strides, "from_blob");
  EMBER_CHECK(data != nullptr || extent == 0, "from_blob: data pointer is null");
  auto storage = make_intrusive<StorageImpl>(DataPtr::with_deleter(data, deleter), extent * element_size(o.dtype()));
  return finish(Tensor(make_intrusive<TensorImpl>(std::move(storage), o.dtype(), sizes, strides, 0)), o);
}

TensorDataContainer::TensorDataContainer(std::initializer_list<TensorDataContainer> list) {
  sizes_ = {static_cast<int64_t>(list.size())};
  if (list.size() == 0) {
    scalar_type_ = get_default_dtype();
    return;
  }
  const TensorDataContainer& first = *list.begin();
  scalar_type_ = first.scalar_type_;
  for (int64_t s : first.sizes_) sizes_.push_back(s);
  // LibTorch's messages: sizes as c10 prints a vector ("2 3"), dtypes by their c10 names.
  const auto plain = [](IntArrayRef sizes) {
    std::string out;
    for (size_t i = 0; i < sizes.size(); ++i) out += (i ? " " : "") + std::to_string(sizes[i]);
    return out;
  };
  for (const auto& c : list) {
    EMBER_CHECK(c.sizes_ == first.sizes_, "tensor: Expected all sub-lists to have sizes: ", plain(first.sizes_),
                " (e.g. ", first, "), but got sub-list ", c, " with sizes: ", plain(c.sizes_));
    EMBER_CHECK(c.scalar_type_ == scalar_type_,
                "tensor: Expected all elements of the tensor to have the same scalar type: ",
                type_name_short(scalar_type_), ", but got element of scalar type: ", type_name_short(c.scalar_type_));
    values_.insert(values_.end(), c.values_.begin(), c.values_.end());
  }
}

std::ostream& operator<<(std::ostream& os, const TensorDataContainer& data) {
  const IntArrayRef sizes = data.sizes();
  const std::vector<Scalar>& values = data.values();
  if (sizes.empty()) return os << values.at(0);
  // Row-major: the sub-list at depth d, position i spans `stride[d]` values.
  std::vector<int64_t> stride(sizes.size(), 1);
  for (size_t d = sizes.size() - 1; d > 0; --d) stride[d - 1] = stride[d] * sizes[d];
  const auto print = [&](const auto& self, size_t depth, int64_t offset) -> void {
    os << "{";
    for (int64_t i = 0; i < sizes[depth]; ++i) {
      if (i) os << ", ";
      if (depth + 1 == sizes.size())
        os << values[static_cast<size_t>(offset + i)];
      else
        self(self, depth + 1, offset + i * stride[depth]);
    }
    os << "}";
  };
  print(print, 0, 0);
  return os;
}

ScalarType TensorDataContainer::dtype() const {
  if (scalar_type_ == kInt || scalar_type_ == kLong) return kLong;
  if (scalar_type_ == kFloat || scalar_type_ == kDouble) return get_default_dtype();
  return scalar_type_;
}

Tensor tensor(const TensorDataContainer& data, const TensorOptions& o) {
  const ScalarType dt = o.has_dtype() ? o.dtype() : data.dtype();
  // As ATen: complex values do not convert to a real dtype (the imaginary part would be lost).
  // c10's checked conversion names the C++ type it refuses.
  const auto cpp_name = [](ScalarType t) -> const char* {
    switch (t) {
      case kFloat:
        return "float";
      case kDouble:
        return "double";
      case kHalf:
        return "c10::Half";
      case kBFloat16:
        return "c10::BFloat16";
      case kInt:
        return "int";
      case kLong:
        return "int64_t";
      case kShort:
        return "int16_t";
      case kChar:
        return "int8_t";
      case kByte:
        return "uint8_t";
      case kBool:
        return "bool";
      default:
        return dtype_name(t);
    }
  };
  EMBER_CHECK(!is_complex(data.scalar_type()) || is_complex(dt), "tensor: value cannot be converted to type ",
              cpp_name(dt), " without overflow (a complex value into a ", dtype_name(dt), " tensor)");
  Tensor t = empty(data.sizes(), o.dtype(dt).requires_grad(false));
  dispatch_all(dt, "tensor", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    T* p = t.data_ptr<T>();
    const auto& v = data.values();
    for (size_t i = 0; i < v.size(); ++i) p[i] = v[i].to<T>();
  });
  return finish(t, o);
}

}  // namespace torch
