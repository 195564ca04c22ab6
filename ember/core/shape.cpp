#include "ember/core/shape.h"

#include "ember/core/error.h"

namespace torch {

std::string shape_str(IntArrayRef sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

DimVector contiguous_strides(IntArrayRef sizes) {
  DimVector st(sizes.size());
  int64_t acc = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    st[d] = acc;
    acc *= std::max<int64_t>(sizes[d], 1);
  }
  return st;
}

int64_t checked_numel(IntArrayRef sizes, const char* op) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    EMBER_CHECK(s >= 0, op, ": negative dimension ", s, " in size ", shape_str(sizes));
    EMBER_CHECK(!__builtin_mul_overflow(n, s, &n), op, ": size ", shape_str(sizes),
                " overflows the number of elements");
  }
  return n;
}

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op, bool scalar_as_1d) {
  if (ndim == 0 && scalar_as_1d) ndim = 1;
  EMBER_CHECK(ndim > 0, op, ": dimension specified as ", dim, " but tensor has no dimensions");
  EMBER_CHECK(dim >= -ndim && dim < ndim, op, ": Dimension out of range (expected to be in range of [", -ndim, ", ",
              ndim - 1, "], but got ", dim, ")");
  return dim < 0 ? dim + ndim : dim;
}

DimVector broadcast_shapes(IntArrayRef a, IntArrayRef b, const char* op) {
  size_t n = std::max(a.size(), b.size());
  DimVector out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    EMBER_CHECK(da == db || da == 1 || db == 1, op, ": The size of tensor a (", da,
                ") must match the size of tensor b (", db, ") at non-singleton dimension ", i, " (shapes ",
                shape_str(a), " and ", shape_str(b), ")");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

DimVector infer_size(IntArrayRef shape, int64_t numel, const char* op) {
  DimVector out(shape);
  int64_t known = 1;
  int64_t infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      EMBER_CHECK(infer < 0, op, ": only one dimension can be inferred (shape ", shape_str(shape), ")");
      infer = static_cast<int64_t>(i);
    } else {
      EMBER_CHECK(shape[i] >= 0, op, ": invalid shape dimension ", shape[i], " in ", shape_str(shape));
      EMBER_CHECK(!__builtin_mul_overflow(known, shape[i], &known), op, ": shape ", shape_str(shape), " overflows");
    }
  }
  if (infer >= 0) {
    EMBER_CHECK(known != 0, op, ": cannot reshape tensor of ", numel, " elements into shape ", shape_str(shape),
                " because the unspecified dimension size -1 can be any value and is ambiguous");
    EMBER_CHECK(numel % known == 0, op, ": shape '", shape_str(shape), "' is invalid for input of size ", numel);
    out[infer] = numel / known;
  } else {
    EMBER_CHECK(known == numel, op, ": shape '", shape_str(shape), "' is invalid for input of size ", numel);
  }
  return out;
}

// Walks old dims in chunks that are contiguous among themselves and matches
// each chunk against a run of new dims with the same element count.
bool compute_view_strides(IntArrayRef sizes, IntArrayRef strides, IntArrayRef new_sizes, DimVector& out) {
  out.resize(new_sizes.size());
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  if (numel == 0) {
    // Any layout works for an empty tensor; use contiguous strides.
    out = contiguous_strides(new_sizes);
    return true;
  }
  if (sizes.empty()) {
    for (auto& s : out) s = 1;
    return true;
  }
  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  int64_t chunk_base_stride = strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    tensor_numel *= sizes[d];
    if (d == 0 || (sizes[d - 1] != 1 && strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
        out[view_d] = view_numel * chunk_base_stride;
        view_numel *= new_sizes[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return false;
      if (d > 0) {
        chunk_base_stride = strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  return view_d == -1;
}

int64_t checked_extent(IntArrayRef sizes, IntArrayRef strides, const char* op) {
  EMBER_CHECK(sizes.size() == strides.size(), op, ": size ", shape_str(sizes), " and stride ", shape_str(strides),
              " must have the same length");
  if (checked_numel(sizes, op) == 0) return 0;
  int64_t extent = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    EMBER_CHECK(strides[i] >= 0, op, ": negative strides are not supported, got ", shape_str(strides));
    int64_t span;
    EMBER_CHECK(
        !__builtin_mul_overflow(sizes[i] - 1, strides[i], &span) && !__builtin_add_overflow(extent, span, &extent), op,
        ": sizes ", shape_str(sizes), " with strides ", shape_str(strides), " overflow");
  }
  return extent;
}

uint64_t dim_mask(IntArrayRef dims, int64_t ndim, const char* op) {
  EMBER_CHECK(ndim <= 64, op, ": at most 64 dimensions are supported");
  uint64_t mask = 0;
  for (int64_t d : dims) {
    int64_t w = wrap_dim(d, ndim, op);
    EMBER_CHECK(!(mask & (uint64_t(1) << w)), op, ": dim ", w, " appears multiple times in the list of dims");
    mask |= uint64_t(1) << w;
  }
  return mask;
}

}  // namespace torch
