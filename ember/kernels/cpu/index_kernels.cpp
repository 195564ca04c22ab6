#include "ember/kernels/cpu/index_kernels.h"

#include <cmath>

#include "ember/core/deterministic.h"
#include "ember/core/dispatch.h"
#include "ember/core/shape.h"
#include "ember/core/tensor_make.h"
#include "ember/kernels/cpu/convert.h"
#include "ember/kernels/cpu/tensor_iterator.h"

namespace torch::kernels {

namespace {

// Pure data movement only needs the element width, not the dtype: one
// instantiation per width instead of one per dtype.
struct Bytes16 {
  uint64_t lo, hi;
};
template <typename F>
void dispatch_by_size(size_t size, F&& f) {
  switch (size) {
    case 1:
      return f(TypeTag<uint8_t>{});
    case 2:
      return f(TypeTag<uint16_t>{});
    case 4:
      return f(TypeTag<uint32_t>{});
    case 8:
      return f(TypeTag<uint64_t>{});
    case 16:
      return f(TypeTag<Bytes16>{});
    default:
      EMBER_INTERNAL_ASSERT(false, "index kernels: unexpected element size ", size);
  }
}

template <typename T>
T& at(char* p) {
  return *reinterpret_cast<T*>(p);
}

// Element combiners in T's arithmetic (bool: or/and, as PyTorch's bool add/mul).
template <typename T>
T add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>)
    return a || b;
  else
    return static_cast<T>(static_cast<opmath_t<T>>(a) + static_cast<opmath_t<T>>(b));
}
template <typename T>
T mul(T a, T b) {
  if constexpr (std::is_same_v<T, bool>)
    return a && b;
  else
    return static_cast<T>(static_cast<opmath_t<T>>(a) * static_cast<opmath_t<T>>(b));
}
template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<opmath_t<T>>)
    return std::isnan(static_cast<opmath_t<T>>(v));
  else
    return false;
}
// amax/amin propagate NaN from either side, like torch.maximum.
template <typename T>
T max_nan(T a, T b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return static_cast<opmath_t<T>>(b) > static_cast<opmath_t<T>>(a) ? b : a;
}
template <typename T>
T min_nan(T a, T b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  return static_cast<opmath_t<T>>(b) < static_cast<opmath_t<T>>(a) ? b : a;
}

// Runs f(a_ptr, b_ptr, c_ptr) once per position of `index` with `dim` collapsed
// (Note [Scatter/gather iteration]); each operand keeps its own strides.
template <typename F>
void for_each_column(const Tensor& a, const Tensor& b, const Tensor& c, const Tensor& index, int64_t dim, F f) {
  DimVector sizes(index.sizes());
  const int64_t column = sizes[dim];
  sizes[dim] = 1;
  auto restride = [&](const Tensor& t) { return make_view(t, sizes, t.strides(), t.storage_offset()); };
  Tensor va = restride(a), vb = restride(b), vc = restride(c);
  TensorIterator iter({va}, {vb, vc});
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(column, 1));
  iter.for_each(
      [&](char** data, const int64_t* s, int64_t n) {
        for (int64_t i = 0; i < n; ++i) f(data[0] + i * s[0], data[1] + i * s[1], data[2] + i * s[2]);
      },
      grain);
}

}  // namespace

void index_gather_kernel(const Tensor& out, const Tensor& src, const Tensor& offsets) {
  TensorIterator iter({out}, {src, offsets});
  dispatch_by_size(out.itemsize(), [&](auto tag) {
    using T = EMBER_TYPE(tag);
    iter.for_each([](char** d, const int64_t* s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t off = at<int64_t>(d[2] + i * s[2]);
        at<T>(d[0] + i * s[0]) = at<T>(d[1] + i * s[1] + off * static_cast<int64_t>(sizeof(T)));
      }
    });
  });
}

void index_put_kernel(const Tensor& dst, const Tensor& values, const Tensor& offsets, bool accumulate,
                      const Scalar& alpha) {
  TensorIterator iter({dst}, {values, offsets});
  if (!accumulate) {
    dispatch_by_size(dst.itemsize(), [&](auto tag) {
      using T = EMBER_TYPE(tag);
      auto loop = [](char** d, const int64_t* s, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
          const int64_t off = at<int64_t>(d[2] + i * s[2]);
          at<T>(d[0] + i * s[0] + off * static_cast<int64_t>(sizeof(T))) = at<T>(d[1] + i * s[1]);
        }
      };
      // Repeated offsets race in parallel; deterministic mode lets the last
      // one in index order win (Note [Deterministic algorithms]).
      if (are_deterministic_algorithms_enabled())
        iter.serial_for_each(loop, 0, iter.numel());
      else
        iter.for_each(loop);
    });
    return;
  }
  dispatch_all(dst.dtype(), "index_put_", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    const T a = alpha.to<T>();
    const bool unit = alpha.equal(Scalar(1)) || alpha.equal(Scalar(true));
    // Serial: repeated offsets must all accumulate.
    iter.serial_for_each(
        [&](char** d, const int64_t* s, int64_t n) {
          for (int64_t i = 0; i < n; ++i) {
            const int64_t off = at<int64_t>(d[2] + i * s[2]);
            T& target = at<T>(d[0] + i * s[0] + off * static_cast<int64_t>(sizeof(T)));
            const T v = at<T>(d[1] + i * s[1]);
            target = add(target, unit ? v : mul(v, a));
          }
        },
        0, iter.numel());
  });
}

void gather_kernel(const Tensor& out, const Tensor& self, const Tensor& index, int64_t dim) {
  const int64_t column = index.size(dim);
  const int64_t out_st = out.stride(dim), idx_st = index.stride(dim), self_st = self.stride(dim);
  dispatch_by_size(out.itemsize(), [&](auto tag) {
    using T = EMBER_TYPE(tag);
    for_each_column(out, self, index, index, dim, [&](char* o, char* in, char* idx) {
      T* op = reinterpret_cast<T*>(o);
      const T* ip = reinterpret_cast<const T*>(in);
      const int64_t* xp = reinterpret_cast<const int64_t*>(idx);
      for (int64_t k = 0; k < column; ++k) op[k * out_st] = ip[xp[k * idx_st] * self_st];
    });
  });
}

namespace {
template <typename T, typename Combine>
void scatter_typed(const Tensor& self, const Tensor& index, const Tensor& src, int64_t dim, Combine combine) {
  const int64_t column = index.size(dim);
  const int64_t self_st = self.stride(dim), idx_st = index.stride(dim), src_st = src.stride(dim);
  for_each_column(self, index, src, index, dim, [&](char* s, char* idx, char* in) {
    T* sp = reinterpret_cast<T*>(s);
    const int64_t* xp = reinterpret_cast<const int64_t*>(idx);
    const T* ip = reinterpret_cast<const T*>(in);
    for (int64_t k = 0; k < column; ++k) {
      T& target = sp[xp[k * idx_st] * self_st];
      target = combine(target, ip[k * src_st]);
    }
  });
}
}  // namespace

void scatter_kernel(const Tensor& self, const Tensor& index, const Tensor& src, int64_t dim, ScatterOp op) {
  if (op == ScatterOp::Assign) {
    dispatch_by_size(self.itemsize(), [&](auto tag) {
      using T = EMBER_TYPE(tag);
      scatter_typed<T>(self, index, src, dim, [](T, T b) { return b; });
    });
    return;
  }
  dispatch_all(self.dtype(), "scatter", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    switch (op) {
      case ScatterOp::Sum:
        return scatter_typed<T>(self, index, src, dim, add<T>);
      case ScatterOp::Prod:
        return scatter_typed<T>(self, index, src, dim, mul<T>);
      case ScatterOp::Amax:
      case ScatterOp::Amin:
        if constexpr (is_complex_v<T>) {
          EMBER_INTERNAL_ASSERT(false, "scatter amax/amin on complex");
        } else {
          return op == ScatterOp::Amax ? scatter_typed<T>(self, index, src, dim, max_nan<T>)
                                       : scatter_typed<T>(self, index, src, dim, min_nan<T>);
        }
      default:
        return;
    }
  });
}

void masked_fill_kernel(const Tensor& self, const Tensor& mask, const Scalar& value) {
  TensorIterator iter({self}, {mask});
  dispatch_all(self.dtype(), "masked_fill_", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    const T v = value.to<T>();
    iter.for_each([&](char** d, const int64_t* s, int64_t n) {
      for (int64_t i = 0; i < n; ++i)
        if (at<bool>(d[1] + i * s[1])) at<T>(d[0] + i * s[0]) = v;
    });
  });
}

void where_kernel(const TensorIterator& iter) {
  dispatch_by_size(element_size(iter.dtype(0)), [&](auto tag) {
    using T = EMBER_TYPE(tag);
    iter.for_each([](char** d, const int64_t* s, int64_t n) {
      for (int64_t i = 0; i < n; ++i)
        at<T>(d[0] + i * s[0]) = at<bool>(d[1] + i * s[1]) ? at<T>(d[2] + i * s[2]) : at<T>(d[3] + i * s[3]);
    });
  });
}

Tensor nonzero_kernel(const Tensor& self) {
  // `self` is a contiguous bool tensor (the op casts it).
  const bool* p = self.data_ptr<bool>();
  const int64_t n = self.numel(), nd = self.dim();
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += p[i];
  Tensor out = empty_cpu({count, nd}, kLong);
  int64_t* o = out.data_ptr<int64_t>();
  DimVector coord(nd, 0);
  IntArrayRef sizes = self.sizes();
  for (int64_t i = 0; i < n; ++i) {
    if (p[i]) {
      for (int64_t d = 0; d < nd; ++d) *o++ = coord[d];
    }
    for (int64_t d = nd - 1; d >= 0; --d) {  // row-major odometer
      if (++coord[d] < sizes[d]) break;
      coord[d] = 0;
    }
  }
  return out;
}

void divide_by_count_kernel(const Tensor& self, const Tensor& count) {
  TensorIterator iter({self}, {count});
  dispatch_numeric(self.dtype(), "scatter_reduce", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    iter.for_each([](char** d, const int64_t* s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        int64_t c = at<int64_t>(d[1] + i * s[1]);
        if (c <= 0) c = 1;
        T& v = at<T>(d[0] + i * s[0]);
        if constexpr (std::is_integral_v<T>) {
          // Floor division, as PyTorch's div_(count, "floor") for integer results.
          int64_t x = static_cast<int64_t>(v), q = x / c;
          if ((x % c != 0) && ((x < 0) != (c < 0))) --q;
          v = static_cast<T>(q);
        } else if constexpr (is_complex_v<T>) {
          v = v / static_cast<typename T::value_type>(c);
        } else {
          v = static_cast<T>(static_cast<opmath_t<T>>(v) / static_cast<opmath_t<T>>(c));
        }
      }
    });
  });
}

}  // namespace torch::kernels
