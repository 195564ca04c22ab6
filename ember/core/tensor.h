#pragma once
// Tensor: the cheap, ref-counted handle users hold. Every method here is a
// thin forwarder to a free function in ember/ops (one place per op); the
// sections below say which file implements each family.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "ember/core/scalar.h"
#include "ember/core/tensor_accessor.h"
#include "ember/core/tensor_impl.h"
#include "ember/core/tensor_options.h"

namespace torch {

class Tensor;
using TensorList = ArrayRef<Tensor>;
using OptionalIntArrayRef = OptionalArrayRef<int64_t>;
namespace indexing {
class TensorIndex;
}
namespace autograd {
class Node;
}

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(IntrusivePtr<TensorImpl> impl) : impl_(std::move(impl)) {}
  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) noexcept = default;
  ~Tensor() = default;

  // Assigning to an lvalue rebinds the handle; assigning to a temporary (a
  // view such as x[0] or x.index({...})) copies into it, as in LibTorch.
  Tensor& operator=(const Tensor& o) & = default;
  Tensor& operator=(Tensor&& o) & noexcept = default;
  Tensor& operator=(const Tensor& src) &&;
  Tensor& operator=(Tensor&& src) &&;
  Tensor& operator=(const Scalar& v) &&;

  // ---- metadata (core/tensor.cpp) -----------------------------------------
  bool defined() const { return static_cast<bool>(impl_); }
  void reset() { impl_.reset(); }
  TensorImpl* unsafeGetTensorImpl() const { return impl_.get(); }
  const IntrusivePtr<TensorImpl>& impl() const { return impl_; }
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }
  uint32_t use_count() const { return impl_.use_count(); }

  IntArrayRef sizes() const { return ti()->sizes(); }
  IntArrayRef strides() const { return ti()->strides(); }
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  int64_t dim() const { return ti()->dim(); }
  int64_t ndimension() const { return dim(); }
  int64_t numel() const { return ti()->numel(); }
  int64_t storage_offset() const { return ti()->storage_offset(); }
  const Storage& storage() const { return ti()->storage(); }
  ScalarType scalar_type() const { return ti()->dtype(); }
  ScalarType dtype() const { return ti()->dtype(); }
  Device device() const { return kCPU; }
  Layout layout() const { return kStrided; }
  TensorOptions options() const;
  bool is_contiguous() const { return ti()->is_contiguous(); }
  bool is_floating_point() const { return ember::is_floating_point(dtype()); }
  bool is_complex() const { return ember::is_complex(dtype()); }
  bool is_signed() const;
  bool is_cpu() const { return true; }
  bool is_cuda() const { return false; }
  int64_t get_device() const { return -1; }  // the device index; -1 on the CPU, as LibTorch
  bool is_sparse() const { return false; }
  bool is_nonzero() const;
  size_t element_size() const { return ti()->itemsize(); }
  size_t itemsize() const { return ti()->itemsize(); }
  // numel() * itemsize(); raises when that does not fit (a large expanded view).
  size_t nbytes() const;
  int64_t nelement() const { return numel(); }
  bool is_same_size(const Tensor& other) const { return sizes() == other.sizes(); }
  // Ember conjugates and negates eagerly: no tensor carries a lazy conj or neg
  // bit, so there is never one to resolve.
  bool is_conj() const { return false; }
  bool is_neg() const { return false; }
  Tensor resolve_conj() const { return *this; }
  Tensor resolve_neg() const { return *this; }
  std::string toString() const;  // "CPUFloatType"
  uint32_t _version() const { return ti()->version(); }
  void bump_version() const { ti()->bump_version(); }

  // Inline: TensorIterator takes every operand's pointer through it. A tensor
  // batched by vmap raises (its memory is sample 0's).
  void* data_ptr() const {
    TensorImpl* t = ti();
    if (__builtin_expect(t->batched_meta() != nullptr, 0)) batched_data_ptr_error();
    return t->data();
  }
  template <typename T>
  T* data_ptr() const;
  template <typename T>
  T* mutable_data_ptr() const {
    return data_ptr<T>();
  }
  template <typename T>
  const T* const_data_ptr() const {
    return data_ptr<T>();
  }
  // `t.accessor<float, 2>()[i][j]`: the accessor points into this tensor's sizes
  // and strides, so it is not available on a temporary (as LibTorch).
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() const& {
    static_assert(N > 0, "accessor is used for indexing tensor, for scalars use *data_ptr<T>()");
    EMBER_CHECK(dim() == static_cast<int64_t>(N), "TensorAccessor expected ", N, " dims but tensor has ", dim());
    return TensorAccessor<T, N>(data_ptr<std::remove_const_t<T>>(), sizes().data(), strides().data());
  }
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() && = delete;
  Scalar item() const;
  template <typename T>
  T item() const {
    const Scalar v = item();
    check_fits(v, scalar_type_of<T>, "item");  // c10's checked conversion: 300 is no uint8_t
    return v.to<T>();
  }

  // ---- conversion and copies (ops/shape/copy.cpp) --------------------------------
  Tensor to(ScalarType t, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device d, bool non_blocking = false, bool copy = false) const;
  Tensor to(DeviceType d, bool non_blocking = false, bool copy = false) const {
    return to(Device(d), non_blocking, copy);
  }
  Tensor to(Device d, ScalarType t, bool non_blocking = false, bool copy = false) const;
  Tensor to(const TensorOptions& o, bool non_blocking = false, bool copy = false) const;
  Tensor to(const Tensor& other, bool non_blocking = false, bool copy = false) const;
  Tensor cpu() const { return *this; }
  Tensor cuda() const { return to(kCUDA); }  // raises: Ember runs on the CPU only
  Tensor toType(ScalarType t) const { return to(t); }
  Tensor type_as(const Tensor& other) const { return to(other.dtype()); }
  Tensor& copy_(const Tensor& src, bool non_blocking = false) const;
  Tensor clone() const;
  Tensor contiguous() const;
  Tensor& fill_(const Scalar& v) const;
  Tensor& fill_(const Tensor& v) const;
  Tensor& zero_() const;
  // New tensors with this tensor's dtype unless `options` names one
  // (ops/factory/factory.cpp); under vmap, batched like this tensor.
  Tensor new_empty(IntArrayRef size, const TensorOptions& options = {}) const;
  Tensor new_zeros(IntArrayRef size, const TensorOptions& options = {}) const;
  Tensor new_ones(IntArrayRef size, const TensorOptions& options = {}) const;
  Tensor new_full(IntArrayRef size, const Scalar& fill_value, const TensorOptions& options = {}) const;

  // ---- random in-place (ops/factory/random.cpp) ------------------------------------
  Tensor& uniform_(double from = 0, double to = 1) const;
  Tensor& normal_(double mean = 0, double std = 1) const;
  Tensor& bernoulli_(double p = 0.5) const;
  Tensor& random_(int64_t from, int64_t to) const;
  Tensor& random_(int64_t to) const;
  Tensor& exponential_(double lambd = 1) const;
  Tensor& geometric_(double p) const;
  Tensor& cauchy_(double median = 0, double sigma = 1) const;
  Tensor& log_normal_(double mean = 1, double std = 2) const;
  Tensor bernoulli() const;
  Tensor multinomial(int64_t num_samples, bool replacement = false) const;

  // ---- views (ops/shape/view.cpp) -----------------------------------------------
  Tensor view(IntArrayRef size) const;
  Tensor view(ScalarType dtype) const;
  Tensor view_as(const Tensor& other) const;
  Tensor reshape(IntArrayRef shape) const;
  Tensor reshape_as(const Tensor& other) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor unflatten(int64_t dim, IntArrayRef sizes) const;
  Tensor permute(IntArrayRef dims) const;
  Tensor movedim(IntArrayRef source, IntArrayRef destination) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor swapaxes(int64_t dim0, int64_t dim1) const { return transpose(dim0, dim1); }
  Tensor swapdims(int64_t dim0, int64_t dim1) const { return transpose(dim0, dim1); }
  Tensor moveaxis(IntArrayRef source, IntArrayRef destination) const { return movedim(source, destination); }
  Tensor ravel() const { return reshape({-1}); }
  Tensor broadcast_to(IntArrayRef size) const { return expand(size); }
  Tensor t() const;
  Tensor mT() const;
  Tensor mH() const;       // conj of mT
  Tensor adjoint() const;  // mH
  Tensor H() const;        // conj().t() of a matrix
  Tensor expand(IntArrayRef size, bool implicit = false) const;
  Tensor expand_as(const Tensor& other) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor slice(int64_t dim = 0, std::optional<int64_t> start = std::nullopt, std::optional<int64_t> end = std::nullopt,
               int64_t step = 1) const;
  Tensor unfold(int64_t dim, int64_t size, int64_t step) const;
  Tensor as_strided(IntArrayRef size, IntArrayRef stride, std::optional<int64_t> storage_offset = std::nullopt) const;
  Tensor diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  std::vector<Tensor> split(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> split_with_sizes(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  std::vector<Tensor> unbind(int64_t dim = 0) const;
  std::vector<Tensor> tensor_split(int64_t sections, int64_t dim = 0) const;
  std::vector<Tensor> tensor_split(IntArrayRef indices, int64_t dim = 0) const;
  std::vector<Tensor> hsplit(int64_t sections) const;
  std::vector<Tensor> hsplit(IntArrayRef indices) const;
  std::vector<Tensor> vsplit(int64_t sections) const;
  std::vector<Tensor> vsplit(IntArrayRef indices) const;
  std::vector<Tensor> dsplit(int64_t sections) const;
  std::vector<Tensor> dsplit(IntArrayRef indices) const;
  // Copies of this tensor with `src` written into one of its views (ops/shape/scatter_views.cpp).
  Tensor slice_scatter(const Tensor& src, int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
                       std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Tensor select_scatter(const Tensor& src, int64_t dim, int64_t index) const;
  Tensor diagonal_scatter(const Tensor& src, int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  Tensor as_strided_scatter(const Tensor& src, IntArrayRef size, IntArrayRef stride,
                            std::optional<int64_t> storage_offset = std::nullopt) const;
  Tensor& squeeze_() const;
  Tensor& squeeze_(int64_t dim) const;
  Tensor& unsqueeze_(int64_t dim) const;
  Tensor& transpose_(int64_t dim0, int64_t dim1) const;
  Tensor& swapaxes_(int64_t dim0, int64_t dim1) const { return transpose_(dim0, dim1); }
  Tensor& swapdims_(int64_t dim0, int64_t dim1) const { return transpose_(dim0, dim1); }
  Tensor& t_() const;
  Tensor& resize_(IntArrayRef size) const;
  Tensor& as_strided_(IntArrayRef size, IntArrayRef stride, std::optional<int64_t> storage_offset = std::nullopt) const;
  Tensor operator[](int64_t index) const;
  Tensor operator[](const Tensor& index) const;

  // ---- indexing (ops/index/indexing.cpp) -----------------------------------------
  Tensor index(ArrayRef<indexing::TensorIndex> indices) const;
  Tensor index(std::initializer_list<indexing::TensorIndex> indices) const;
  Tensor& index_put_(ArrayRef<indexing::TensorIndex> indices, const Tensor& rhs) const;
  Tensor& index_put_(ArrayRef<indexing::TensorIndex> indices, const Scalar& v) const;
  Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices, const Tensor& rhs) const;
  Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices, const Scalar& v) const;
  // One index tensor (or nullopt for a whole dim) per leading dim, as at::index_put_:
  // `x.index_put_({rows, cols}, v, /*accumulate=*/true)` adds duplicates' values.
  Tensor& index_put_(ArrayRef<std::optional<Tensor>> indices, const Tensor& values, bool accumulate) const;
  Tensor index_put(ArrayRef<std::optional<Tensor>> indices, const Tensor& values, bool accumulate) const;
  Tensor masked_select(const Tensor& mask) const;
  Tensor masked_fill(const Tensor& mask, const Scalar& value) const;
  Tensor masked_fill(const Tensor& mask, const Tensor& value) const;
  Tensor& masked_fill_(const Tensor& mask, const Scalar& value) const;
  Tensor& masked_fill_(const Tensor& mask, const Tensor& value) const;
  Tensor where(const Tensor& condition, const Tensor& other) const;
  Tensor gather(int64_t dim, const Tensor& index, bool sparse_grad = false) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor& scatter_(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor& scatter_(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor& scatter_add_(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor scatter_reduce(int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                        bool include_self = true) const;
  Tensor& scatter_reduce_(int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                          bool include_self = true) const;
  Tensor index_select(int64_t dim, const Tensor& index) const;
  Tensor index_add(int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1) const;
  Tensor& index_add_(int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1) const;
  Tensor index_copy(int64_t dim, const Tensor& index, const Tensor& source) const;
  Tensor& index_copy_(int64_t dim, const Tensor& index, const Tensor& source) const;
  Tensor index_fill(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor& index_fill_(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor take(const Tensor& index) const;
  Tensor put(const Tensor& index, const Tensor& source, bool accumulate = false) const;
  Tensor& put_(const Tensor& index, const Tensor& source, bool accumulate = false) const;
  Tensor masked_scatter(const Tensor& mask, const Tensor& source) const;
  Tensor& masked_scatter_(const Tensor& mask, const Tensor& source) const;
  Tensor& fill_diagonal_(const Scalar& fill_value, bool wrap = false) const;
  Tensor nonzero() const;

  // ---- unary elementwise (ops/elementwise/unary.cpp, table in tables/unary.def) -----------
#define EMBER_UNARY_OP(name, ...) \
  Tensor name() const;            \
  Tensor& name##_() const;
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP
  Tensor isnan() const;
  Tensor isinf() const;
  Tensor isposinf() const;
  Tensor isneginf() const;
  Tensor isfinite() const;
  Tensor isreal() const;
  Tensor absolute() const { return abs(); }
  Tensor& absolute_() const { return abs_(); }
  Tensor negative() const { return neg(); }
  Tensor& negative_() const { return neg_(); }
  Tensor positive() const;
  // NumPy's names, kept by PyTorch as aliases.
  Tensor arccos() const { return acos(); }
  Tensor& arccos_() const { return acos_(); }
  Tensor arcsin() const { return asin(); }
  Tensor& arcsin_() const { return asin_(); }
  Tensor arctan() const { return atan(); }
  Tensor& arctan_() const { return atan_(); }
  Tensor arccosh() const { return acosh(); }
  Tensor& arccosh_() const { return acosh_(); }
  Tensor arcsinh() const { return asinh(); }
  Tensor& arcsinh_() const { return asinh_(); }
  Tensor arctanh() const { return atanh(); }
  Tensor& arctanh_() const { return atanh_(); }
  Tensor fix() const { return trunc(); }
  Tensor& fix_() const { return trunc_(); }
  Tensor signbit() const;
  // (mantissa, exponent): self = mantissa * 2^exponent, |mantissa| in [0.5, 1), int32 exponent.
  std::tuple<Tensor, Tensor> frexp() const;
  Tensor round(int64_t decimals = 0) const;
  Tensor& round_(int64_t decimals = 0) const;
  Tensor gelu(std::string_view approximate = "none") const;
  Tensor softplus(const Scalar& beta = 1, const Scalar& threshold = 20) const;
  Tensor elu(const Scalar& alpha = 1, const Scalar& scale = 1, const Scalar& input_scale = 1) const;
  Tensor leaky_relu(const Scalar& negative_slope = 0.01) const;
  Tensor& leaky_relu_(const Scalar& negative_slope = 0.01) const;
  Tensor logit(std::optional<double> eps = std::nullopt) const;
  // polygamma(n, x): the n-th derivative of digamma (ops/elementwise/unary_special.cpp).
  Tensor polygamma(int64_t n) const;
  Tensor& polygamma_(int64_t n) const;
  Tensor nan_to_num(std::optional<double> nan = std::nullopt, std::optional<double> posinf = std::nullopt,
                    std::optional<double> neginf = std::nullopt) const;
  Tensor& nan_to_num_(std::optional<double> nan = std::nullopt, std::optional<double> posinf = std::nullopt,
                      std::optional<double> neginf = std::nullopt) const;
  Tensor real() const;
  Tensor imag() const;
  Tensor conj() const;
  Tensor angle() const;

  // ---- binary elementwise (ops/elementwise/binary.cpp, table in tables/binary.def) --------
#define EMBER_BINARY_OP(name, ...)            \
  Tensor name(const Tensor& other) const;     \
  Tensor name(const Scalar& other) const;     \
  Tensor& name##_(const Tensor& other) const; \
  Tensor& name##_(const Scalar& other) const;
#include "ember/tables/binary.def"
#undef EMBER_BINARY_OP
  Tensor add(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor add(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor& add_(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor& add_(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor sub(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor sub(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor& sub_(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor& sub_(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor div(const Tensor& other) const;
  Tensor div(const Scalar& other) const;
  Tensor div(const Tensor& other, std::optional<std::string_view> rounding_mode) const;
  Tensor div(const Scalar& other, std::optional<std::string_view> rounding_mode) const;
  Tensor& div_(const Tensor& other) const;
  Tensor& div_(const Scalar& other) const;
  Tensor& div_(const Tensor& other, std::optional<std::string_view> rounding_mode) const;
  Tensor& div_(const Scalar& other, std::optional<std::string_view> rounding_mode) const;
  Tensor maximum(const Tensor& other) const;
  Tensor minimum(const Tensor& other) const;
  Tensor fmax(const Tensor& other) const;
  Tensor fmin(const Tensor& other) const;
  Tensor isclose(const Tensor& other, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false) const;
  bool allclose(const Tensor& other, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false) const;
  bool equal(const Tensor& other) const;
  Tensor clamp(const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt) const;
  Tensor clamp(const std::optional<Tensor>& min, const std::optional<Tensor>& max = std::nullopt) const;
  Tensor& clamp_(const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt) const;
  Tensor clamp_min(const Scalar& min) const;
  Tensor clamp_max(const Scalar& max) const;
  Tensor& clamp_min_(const Scalar& min) const;
  Tensor& clamp_max_(const Scalar& max) const;
  Tensor clip(const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt) const;
  Tensor& clip_(const std::optional<Scalar>& min, const std::optional<Scalar>& max = std::nullopt) const {
    return clamp_(min, max);
  }
  Tensor arctan2(const Tensor& other) const { return atan2(other); }
  Tensor& arctan2_(const Tensor& other) const { return atan2_(other); }
  Tensor greater(const Tensor& other) const { return gt(other); }
  Tensor greater(const Scalar& other) const { return gt(other); }
  Tensor& greater_(const Tensor& other) const { return gt_(other); }
  Tensor& greater_(const Scalar& other) const { return gt_(other); }
  Tensor greater_equal(const Tensor& other) const { return ge(other); }
  Tensor greater_equal(const Scalar& other) const { return ge(other); }
  Tensor& greater_equal_(const Tensor& other) const { return ge_(other); }
  Tensor& greater_equal_(const Scalar& other) const { return ge_(other); }
  Tensor less(const Tensor& other) const { return lt(other); }
  Tensor less(const Scalar& other) const { return lt(other); }
  Tensor& less_(const Tensor& other) const { return lt_(other); }
  Tensor& less_(const Scalar& other) const { return lt_(other); }
  Tensor less_equal(const Tensor& other) const { return le(other); }
  Tensor less_equal(const Scalar& other) const { return le(other); }
  Tensor& less_equal_(const Tensor& other) const { return le_(other); }
  Tensor& less_equal_(const Scalar& other) const { return le_(other); }
  Tensor not_equal(const Tensor& other) const { return ne(other); }
  Tensor not_equal(const Scalar& other) const { return ne(other); }
  Tensor& not_equal_(const Tensor& other) const { return ne_(other); }
  Tensor& not_equal_(const Scalar& other) const { return ne_(other); }
  // self * 2^other and pow computed in float64 / complex128 (ops/elementwise/pointwise_composite.cpp).
  Tensor ldexp(const Tensor& other) const;
  Tensor& ldexp_(const Tensor& other) const;
  Tensor float_power(const Tensor& exponent) const;
  Tensor float_power(const Scalar& exponent) const;
  Tensor& float_power_(const Tensor& exponent) const;
  Tensor& float_power_(const Scalar& exponent) const;
  Tensor lerp(const Tensor& end, const Scalar& weight) const;
  Tensor lerp(const Tensor& end, const Tensor& weight) const;
  Tensor& lerp_(const Tensor& end, const Scalar& weight) const;
  Tensor& lerp_(const Tensor& end, const Tensor& weight) const;
  Tensor addcmul(const Tensor& t1, const Tensor& t2, const Scalar& value = 1) const;
  Tensor& addcmul_(const Tensor& t1, const Tensor& t2, const Scalar& value = 1) const;
  Tensor addcdiv(const Tensor& t1, const Tensor& t2, const Scalar& value = 1) const;
  Tensor& addcdiv_(const Tensor& t1, const Tensor& t2, const Scalar& value = 1) const;
  Tensor& operator+=(const Tensor& o);
  Tensor& operator+=(const Scalar& o);
  Tensor& operator-=(const Tensor& o);
  Tensor& operator-=(const Scalar& o);
  Tensor& operator*=(const Tensor& o);
  Tensor& operator*=(const Scalar& o);
  Tensor& operator/=(const Tensor& o);
  Tensor& operator/=(const Scalar& o);
  Tensor& operator&=(const Tensor& o);
  Tensor& operator|=(const Tensor& o);
  Tensor& operator^=(const Tensor& o);
  Tensor operator-() const;
  Tensor operator~() const;
  Tensor operator!() const;

  // ---- reductions (ops/reduce.cpp) ------------------------------------------
  Tensor sum(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor sum(IntArrayRef dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor nansum(IntArrayRef dim = {}, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(IntArrayRef dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor nanmean(IntArrayRef dim = {}, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor prod(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor prod(int64_t dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor max() const;
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false) const;
  Tensor max(const Tensor& other) const;
  Tensor min() const;
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false) const;
  Tensor min(const Tensor& other) const;
  Tensor amax(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor amin(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor argmax(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor argmin(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor var(bool unbiased = true) const;
  Tensor var(IntArrayRef dim, bool unbiased = true, bool keepdim = false) const;
  Tensor var(OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim = false) const;
  Tensor std(bool unbiased = true) const;
  Tensor std(IntArrayRef dim, bool unbiased = true, bool keepdim = false) const;
  Tensor std(OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim = false) const;
  // `t.var(1)` reduces dim 1, as LibTorch's C++-only overloads: without them the
  // int would convert to `bool unbiased` before it converts to IntArrayRef.
  Tensor var(int dim) const { return var(IntArrayRef{dim}); }
  Tensor std(int dim) const { return std(IntArrayRef{dim}); }
  Tensor norm(const Scalar& p = 2) const;
  Tensor norm(const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim = false) const;
  // Computed in `dtype` (a floating or complex type), as LibTorch's overload.
  Tensor norm(const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim, ScalarType dtype) const;
  Tensor logsumexp(IntArrayRef dim, bool keepdim = false) const;
  Tensor any() const;
  Tensor any(int64_t dim, bool keepdim = false) const;
  Tensor all() const;
  Tensor all(int64_t dim, bool keepdim = false) const;
  Tensor count_nonzero(IntArrayRef dim = {}) const;
  Tensor median() const;
  std::tuple<Tensor, Tensor> median(int64_t dim, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> mode(int64_t dim = -1, bool keepdim = false) const;
  Tensor cumsum(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor& cumsum_(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor cumprod(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor& cumprod_(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  std::tuple<Tensor, Tensor> cummax(int64_t dim) const;
  std::tuple<Tensor, Tensor> cummin(int64_t dim) const;
  Tensor logcumsumexp(int64_t dim) const;
  std::tuple<Tensor, Tensor> sort(int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> sort(std::optional<bool> stable, int64_t dim = -1, bool descending = false) const;
  Tensor argsort(int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> topk(int64_t k, int64_t dim = -1, bool largest = true, bool sorted = true) const;
  std::tuple<Tensor, Tensor> kthvalue(int64_t k, int64_t dim = -1, bool keepdim = false) const;

  // ---- composites PyTorch users expect (ops/elementwise/pointwise_composite.cpp,
  // products.cpp, distance.cpp, statistics.cpp, rearrange.cpp) -----------------
  Tensor xlogy(const Tensor& other) const;
  Tensor xlogy(const Scalar& other) const;
  Tensor sinc() const;
  Tensor logaddexp(const Tensor& other) const;
  Tensor logaddexp2(const Tensor& other) const;
  Tensor deg2rad() const;
  Tensor rad2deg() const;
  Tensor heaviside(const Tensor& values) const;
  Tensor mvlgamma(int64_t p) const;
  Tensor trace() const;
  Tensor kron(const Tensor& other) const;
  Tensor inner(const Tensor& other) const;
  Tensor dist(const Tensor& other, const Scalar& p = 2) const;
  Tensor renorm(const Scalar& p, int64_t dim, const Scalar& maxnorm) const;
  Tensor cov(int64_t correction = 1, const std::optional<Tensor>& fweights = std::nullopt,
             const std::optional<Tensor>& aweights = std::nullopt) const;
  Tensor corrcoef() const;
  Tensor quantile(const Tensor& q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                  std::string_view interpolation = "linear") const;
  Tensor quantile(double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                  std::string_view interpolation = "linear") const;
  Tensor nanquantile(const Tensor& q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                     std::string_view interpolation = "linear") const;
  Tensor nanquantile(double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                     std::string_view interpolation = "linear") const;
  Tensor diff(int64_t n = 1, int64_t dim = -1, const std::optional<Tensor>& prepend = std::nullopt,
              const std::optional<Tensor>& append = std::nullopt) const;
  Tensor take_along_dim(const Tensor& indices, std::optional<int64_t> dim = std::nullopt) const;
  Tensor rot90(int64_t k = 1, IntArrayRef dims = {0, 1}) const;

  // ---- shape ops (ops/shape/shape_ops.cpp) ----------------------------------------
  Tensor flip(IntArrayRef dims) const;
  Tensor fliplr() const;
  Tensor flipud() const;
  Tensor roll(IntArrayRef shifts, IntArrayRef dims = {}) const;
  Tensor repeat(IntArrayRef repeats) const;
  Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> dim = std::nullopt) const;
  Tensor repeat_interleave(int64_t repeats, std::optional<int64_t> dim = std::nullopt) const;
  Tensor tile(IntArrayRef dims) const;
  Tensor tril(int64_t diagonal = 0) const;
  Tensor triu(int64_t diagonal = 0) const;
  Tensor& tril_(int64_t diagonal = 0) const;
  Tensor& triu_(int64_t diagonal = 0) const;
  Tensor diag(int64_t diagonal = 0) const;  // ops/shape/shape_ops_diag.cpp
  Tensor diag_embed(int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1) const;
  Tensor diagflat(int64_t offset = 0) const;
  Tensor bincount(const std::optional<Tensor>& weights = std::nullopt, int64_t minlength = 0) const;
  Tensor histc(int64_t bins = 100, const Scalar& min = 0, const Scalar& max = 0) const;

  // ---- matmul family (ops/matmul/matmul.cpp) ---------------------------------------
  Tensor mm(const Tensor& mat2) const;
  Tensor bmm(const Tensor& mat2) const;
  Tensor matmul(const Tensor& other) const;
  Tensor mv(const Tensor& vec) const;
  Tensor dot(const Tensor& other) const;
  Tensor vdot(const Tensor& other) const;
  Tensor outer(const Tensor& vec2) const;
  Tensor ger(const Tensor& vec2) const { return outer(vec2); }
  Tensor addmm(const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor& addmm_(const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor addbmm(const Tensor& b1, const Tensor& b2, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor baddbmm(const Tensor& b1, const Tensor& b2, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor addmv(const Tensor& mat, const Tensor& vec, const Scalar& beta = 1, const Scalar& alpha = 1) const;
  Tensor addr(const Tensor& v1, const Tensor& v2, const Scalar& beta = 1, const Scalar& alpha = 1) const;

  // ---- torch.* linear algebra and stft as methods (linalg/tensor_methods.cpp) ----
  Tensor det() const;
  Tensor logdet() const;
  std::tuple<Tensor, Tensor> slogdet() const;
  Tensor inverse() const;
  Tensor cholesky(bool upper = false) const;
  Tensor cholesky_solve(const Tensor& L, bool upper = false) const;  // solves A X = *this from A's factor L
  Tensor cholesky_inverse(bool upper = false) const;
  Tensor pinverse(double rcond = 1e-15) const;
  Tensor matrix_power(int64_t n) const;
  Tensor matrix_exp() const;
  std::tuple<Tensor, Tensor, Tensor> svd(bool some = true, bool compute_uv = true) const;
  std::tuple<Tensor, Tensor> qr(bool some = true) const;
  std::tuple<Tensor, Tensor> triangular_solve(const Tensor& A, bool upper = true, bool transpose = false,
                                              bool unitriangular = false) const;
  Tensor lu_solve(const Tensor& LU_data, const Tensor& LU_pivots) const;
  Tensor cross(const Tensor& other, std::optional<int64_t> dim = std::nullopt) const;
  Tensor orgqr(const Tensor& tau) const;
  Tensor stft(int64_t n_fft, std::optional<int64_t> hop_length = std::nullopt,
              std::optional<int64_t> win_length = std::nullopt, const std::optional<Tensor>& window = {},
              bool normalized = false, std::optional<bool> onesided = std::nullopt,
              std::optional<bool> return_complex = std::nullopt) const;
  Tensor stft(int64_t n_fft, std::optional<int64_t> hop_length, std::optional<int64_t> win_length,
              const std::optional<Tensor>& window, bool center, std::string_view pad_mode = "reflect",
              bool normalized = false, std::optional<bool> onesided = std::nullopt,
              std::optional<bool> return_complex = std::nullopt) const;
  Tensor istft(int64_t n_fft, std::optional<int64_t> hop_length = std::nullopt,
               std::optional<int64_t> win_length = std::nullopt, const std::optional<Tensor>& window = {},
               bool center = true, bool normalized = false, std::optional<bool> onesided = std::nullopt,
               std::optional<int64_t> length = std::nullopt, bool return_complex = false) const;

  // ---- autograd (autograd/autograd_meta.cpp, autograd/backward.cpp) --------
  bool requires_grad() const;
  Tensor& requires_grad_(bool requires_grad = true) const;
  Tensor& set_requires_grad(bool r) const { return requires_grad_(r); }
  // The leaf's accumulated gradient, or a non-leaf's retained one (retain_grad()).
  const Tensor& grad() const;
  Tensor& mutable_grad() const;
  bool is_leaf() const;
  uint32_t output_nr() const;
  // The node that produced this tensor (null for leaves), e.g. grad_fn()->name() == "MulBackward0".
  const std::shared_ptr<autograd::Node>& grad_fn() const;
  Tensor detach() const;
  Tensor& detach_() const;
  void retain_grad() const;
  bool retains_grad() const;
  // Runs backward from this tensor; `gradient` defaults to 1 for one-element tensors.
  void backward(const Tensor& gradient = {}, std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                std::optional<TensorList> inputs = std::nullopt) const;
  // Hook on this tensor's gradient; it may return a replacement (or nothing / undefined).
  template <typename F>
  unsigned register_hook(F&& hook) const {
    if constexpr (std::is_void_v<std::invoke_result_t<F, Tensor>>) {
      return register_hook_impl([h = std::forward<F>(hook)](const Tensor& g) {
        h(g);
        return Tensor();
      });
    } else {
      return register_hook_impl(std::function<Tensor(const Tensor&)>(std::forward<F>(hook)));
    }
  }
  unsigned register_hook_impl(std::function<Tensor(const Tensor&)> hook) const;
  // Makes this tensor show `new_data`'s storage, dtype and geometry, keeping its own autograd
  // state (LibTorch's `x.set_data(y)`, Python's `x.data = y`).
  void set_data(const Tensor& new_data) const;
  Tensor data() const { return detach(); }
  Tensor variable_data() const { return detach(); }
  // Forward-mode AD (autograd/forward_ad.h): the tangent at dual level
  // `level` (undefined when none), and setting it.
  Tensor _fw_grad(uint64_t level = 0) const;
  void _set_fw_grad(const Tensor& new_grad, uint64_t level = 0, bool is_inplace_op = false) const;

  // ---- softmax family (ops/nn/softmax.cpp) ---------------------------------------
  Tensor softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor log_softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;

 private:
  // In-place methods are const, as LibTorch's are (`x.grad().zero_()`, `p.sub_(...)` on a
  // `const Tensor&`): what they change is the tensor the handle points at, never the handle.
  // They hand themselves to the free in-place ops, which take `Tensor&`, through this.
  Tensor& self_ref() const { return const_cast<Tensor&>(*this); }
  // Metadata access on an undefined tensor raises instead of dereferencing null.
  TensorImpl* ti() const {
    if (__builtin_expect(!impl_, 0)) undefined_error();
    return impl_.get();
  }
  [[noreturn]] static void undefined_error();
  [[noreturn]] void batched_data_ptr_error() const;
  IntrusivePtr<TensorImpl> impl_;
};

// Printing in LibTorch's format (ops/print.cpp).
std::ostream& operator<<(std::ostream& os, const Tensor& t);
std::ostream& print(std::ostream& os, const Tensor& t, int64_t linesize = 80);

// Formats a shape as [2, 3] for error messages.
std::string shape_str(IntArrayRef sizes);

template <typename T>
T* Tensor::data_ptr() const {
  EMBER_CHECK(defined(), "data_ptr: called on an undefined tensor");
  // A batched tensor's memory is sample 0's: reading it would be silently wrong.
  EMBER_CHECK(ti()->batched_meta() == nullptr, "data_ptr: called on a tensor batched by vmap (logical shape ",
              shape_str(sizes()), "); its elements differ per sample, so a function under vmap cannot read them");
  EMBER_CHECK(scalar_type() == scalar_type_of<T>, "data_ptr: expected scalar type ", dtype_name(scalar_type_of<T>),
              " but found ", dtype_name(scalar_type()));
  return reinterpret_cast<T*>(ti()->data());
}

}  // namespace torch
