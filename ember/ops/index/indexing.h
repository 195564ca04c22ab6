#pragma once
// Indexing: LibTorch's TensorIndex vocabulary (Slice, None, Ellipsis, ints,
// bools, tensors) for Tensor::index / index_put_, and the index-driven ops
// (gather/scatter, index_select/add/copy/fill, take, masked_*, where, nonzero).
//
// Note [Basic vs advanced indexing]
// Integers, slices, None, Ellipsis and `true` only restride: the result is a
// view sharing storage with the input. Index tensors (int64/int32 positions or
// bool/uint8 masks, which become their nonzero() coordinates) select
// arbitrary elements: the result is a copy. Index tensors broadcast together
// to one shape B. When the indexed dims are adjacent, B replaces them in
// place; when they are separated by a slice, B goes first (NumPy's rule).
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "ember/core/tensor.h"

namespace torch {
namespace indexing {

constexpr int64_t INDEX_MIN = INT64_MIN;
constexpr int64_t INDEX_MAX = INT64_MAX;

// `None` is both "an open slice end" and "insert a new axis", as in LibTorch.
constexpr std::nullopt_t None = std::nullopt;

struct EllipsisIndexType final {
  EllipsisIndexType() = default;
};
inline const EllipsisIndexType Ellipsis;

class Slice final {
 public:
  Slice(std::optional<int64_t> start = std::nullopt, std::optional<int64_t> stop = std::nullopt,
        std::optional<int64_t> step = std::nullopt);
  int64_t start() const { return start_; }
  int64_t stop() const { return stop_; }
  int64_t step() const { return step_; }

 private:
  int64_t start_, stop_, step_;
};
std::ostream& operator<<(std::ostream& os, const Slice& s);

enum class TensorIndexType { None, Ellipsis, SymInt, Boolean, Slice, Tensor };

class TensorIndex final {
 public:
  TensorIndex(std::nullopt_t) : type_(TensorIndexType::None) {}         // NOLINT
  TensorIndex(EllipsisIndexType) : type_(TensorIndexType::Ellipsis) {}  // NOLINT
  TensorIndex(const char* str);                                         // NOLINT: "..." only
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  TensorIndex(T integer) : integer_(static_cast<int64_t>(integer)), type_(TensorIndexType::SymInt) {}  // NOLINT
  template <typename T, std::enable_if_t<std::is_same_v<T, bool>, int> = 0>
  TensorIndex(T boolean) : boolean_(boolean), type_(TensorIndexType::Boolean) {}              // NOLINT
  TensorIndex(Slice slice) : slice_(slice), type_(TensorIndexType::Slice) {}                  // NOLINT
  TensorIndex(Tensor tensor) : tensor_(std::move(tensor)), type_(TensorIndexType::Tensor) {}  // NOLINT

  bool is_none() const { return type_ == TensorIndexType::None; }
  bool is_ellipsis() const { return type_ == TensorIndexType::Ellipsis; }
  bool is_integer() const { return type_ == TensorIndexType::SymInt; }
  bool is_boolean() const { return type_ == TensorIndexType::Boolean; }
  bool is_slice() const { return type_ == TensorIndexType::Slice; }
  bool is_tensor() const { return type_ == TensorIndexType::Tensor; }
  int64_t integer() const { return integer_; }
  bool boolean() const { return boolean_; }
  const Slice& slice() const { return slice_; }
  const Tensor& tensor() const { return tensor_; }

 private:
  int64_t integer_ = 0;
  bool boolean_ = false;
  Slice slice_;
  Tensor tensor_;
  TensorIndexType type_;
};
std::ostream& operator<<(std::ostream& os, const TensorIndex& i);

}  // namespace indexing

using OptionalTensorList = ArrayRef<std::optional<Tensor>>;

// ---- advanced indexing (ops/index/indexing.cpp) -----------------------------------
// `indices[d]` indexes dim d; absent entries take the whole dim (at::index).
Tensor index(const Tensor& self, OptionalTensorList indices);
Tensor& index_put_(Tensor& self, OptionalTensorList indices, const Tensor& values, bool accumulate = false);
Tensor index_put(const Tensor& self, OptionalTensorList indices, const Tensor& values, bool accumulate = false);

// ---- masks and selection (ops/index/indexing_mask.cpp) -----------------------------
Tensor masked_select(const Tensor& self, const Tensor& mask);
// self with the positions where mask is true (in row-major order) taken from
// source's first elements; source needs at least as many elements as mask has trues.
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source);
Tensor& masked_scatter_(Tensor& self, const Tensor& mask, const Tensor& source);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value);
Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Scalar& value);
Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Tensor& value);
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other);
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other);
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other);
// The out= form: self and other promote to their result type, which must cast to
// out's dtype; out follows PyTorch's overlap rules (ops/shape/mem_overlap.h).
Tensor& where_out(Tensor& out, const Tensor& condition, const Tensor& self, const Tensor& other);
std::vector<Tensor> where(const Tensor& condition);  // nonzero(condition) as one tensor per dim
Tensor nonzero(const Tensor& self);                  // [n, ndim] int64 coordinates
std::vector<Tensor> nonzero_numpy(const Tensor& self);
Tensor argwhere(const Tensor& self);

// ---- dim-wise index ops (ops/index/indexing_scatter.cpp) --------------------------
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad = false);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value, std::string_view reduce);
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce);
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value, std::string_view reduce);
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor& scatter_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                      bool include_self = true);
Tensor& scatter_reduce_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                        bool include_self = true);

// ---- whole-slice index ops (ops/index/indexing_select.cpp) ------------------------
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1);
Tensor& index_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1);
Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
Tensor& index_copy_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor& index_fill_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value);
Tensor& index_fill_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& value);
Tensor take(const Tensor& self, const Tensor& index);
// take's inverse: writes source's values at the row-major positions `index` of
// self (negative positions count from the end); accumulate sums duplicates.
Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate = false);
Tensor& put_(Tensor& self, const Tensor& index, const Tensor& source, bool accumulate = false);
// Writes value on the main diagonal of self (all dims of equal length when there are more
// than two); a tall matrix with wrap restarts the diagonal every cols + 1 rows (NumPy's wrap).
Tensor& fill_diagonal_(Tensor& self, const Scalar& fill_value, bool wrap = false);

namespace ops {
// index_put_ with alpha scaling of accumulated values and the caller's op name in errors.
Tensor& index_put_impl(Tensor& self, OptionalTensorList indices, const Tensor& values, bool accumulate,
                       const Scalar& alpha, const char* op);
}  // namespace ops

}  // namespace torch
