#include "ember/kernels/cpu/transpose_copy.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "ember/core/parallel.h"
#include "ember/core/small_vector.h"

namespace torch::kernels {
namespace {

constexpr int64_t kTile = 16;
// Below this many elements the general loop is as fast and has less set-up.
constexpr int64_t kMinNumel = 4096;

// An element of each size: the copy moves bits, so any dtype of that size will do.
struct Bytes16 {
  uint64_t lo, hi;
};
template <size_t N>
using Raw = std::conditional_t<
    N == 1, uint8_t,
    std::conditional_t<N == 2, uint16_t,
                       std::conditional_t<N == 4, uint32_t, std::conditional_t<N == 8, uint64_t, Bytes16>>>>;

// The copy as dst[o, i, j] = src[o, i, j] with dst's strides (di, 1) and src's (1, sj) on
// the two tiled dims, and the remaining dims flattened into `outer` offsets.
struct Plan {
  int64_t rows = 0, cols = 0;  // sizes of the tiled dims: i (src stride 1) and j (dst stride 1)
  int64_t di = 0, sj = 0;      // dst stride of i, src stride of j (elements)
  SmallVector<int64_t, 6> outer_sizes, outer_dst, outer_src;
};

template <size_t Bytes>
void run(const Plan& p, char* dst_base, const char* src_base) {
  using E = Raw<Bytes>;
  E* dst = reinterpret_cast<E*>(dst_base);
  const E* src = reinterpret_cast<const E*>(src_base);
  int64_t n_outer = 1;
  for (int64_t s : p.outer_sizes) n_outer *= s;
  const int64_t row_blocks = (p.rows + kTile - 1) / kTile;
  const int64_t items = n_outer * row_blocks;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / (kTile * p.cols));
  // Locals, not p's fields: stores through E* (a char type for 1-byte elements) would
  // otherwise make the compiler reload them every element.
  const int64_t rows = p.rows, cols = p.cols, di = p.di, sj = p.sj;
  parallel_for(0, items, grain, [&](int64_t b, int64_t e) {
    for (int64_t item = b; item < e; ++item) {
      int64_t rem = item / row_blocks, od = 0, os = 0;
      for (int64_t d = static_cast<int64_t>(p.outer_sizes.size()) - 1; d >= 0; --d) {
        const auto k = static_cast<size_t>(d);
        od += (rem % p.outer_sizes[k]) * p.outer_dst[k];
        os += (rem % p.outer_sizes[k]) * p.outer_src[k];
        rem /= p.outer_sizes[k];
      }
      const int64_t i0 = (item % row_blocks) * kTile, i1 = std::min(rows, i0 + kTile);
      for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
        const int64_t j1 = std::min(cols, j0 + kTile);
        // The next tile's source lines, one per column: fetched while this tile copies
        // (strided lines are not something the hardware prefetcher follows).
        for (int64_t j = j1; j < std::min(cols, j1 + kTile); ++j) __builtin_prefetch(src + os + i0 + j * sj);
        for (int64_t i = i0; i < i1; ++i) {
          E* out = dst + od + i * di;  // one destination row of the tile: a whole cache line
          const E* in = src + os + i;
          for (int64_t j = j0; j < j1; ++j) out[j] = in[j * sj];
        }
      }
    }
  });
}

}  // namespace

// Whether no two elements of t share memory: with the dims of size > 1 sorted
// by stride, each dim's stride clears the whole extent of the ones below it.
// (Sufficient, not necessary; it holds for every slice or permutation of a
// dense tensor.) The tiles are copied in parallel, so a destination element
// must be written by one tile only.
bool distinct_elements(const Tensor& t) {
  struct Dim {
    int64_t stride, size;
  };
  SmallVector<Dim, 6> dims;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.size(d) > 1) dims.push_back({t.stride(d), t.size(d)});
  std::sort(dims.begin(), dims.end(), [](const Dim& a, const Dim& b) { return a.stride < b.stride; });
  int64_t extent = 1;  // elements spanned by the dims so far
  for (const Dim& d : dims) {
    if (d.stride < extent) return false;
    extent += d.stride * (d.size - 1);
  }
  return true;
}

bool try_transpose_copy(const Tensor& dst, const Tensor& src) {
  const int64_t nd = dst.dim();
  if (nd < 2 || dst.dtype() != src.dtype() || dst.numel() < kMinNumel || !dst.sizes().equals(src.sizes())) return false;
  const int64_t last = nd - 1;
  if (dst.stride(last) != 1 || !distinct_elements(dst)) return false;
  if (src.stride(last) == 1 || src.size(last) < 2) return false;
  int64_t k = -1;
  for (int64_t d = 0; d < last; ++d) {
    if (src.stride(d) == 1 && src.size(d) > 1) k = d;
  }
  if (k < 0) return false;
  Plan p;
  p.rows = src.size(k);
  p.cols = src.size(last);
  p.di = dst.stride(k);
  p.sj = src.stride(last);
  for (int64_t d = 0; d < last; ++d) {
    if (d == k || src.size(d) == 1) continue;
    p.outer_sizes.push_back(src.size(d));
    p.outer_dst.push_back(dst.stride(d));
    p.outer_src.push_back(src.stride(d));
  }
  char* out = static_cast<char*>(dst.data_ptr());
  const char* in = static_cast<const char*>(src.data_ptr());
  switch (dst.itemsize()) {
    case 1:
      run<1>(p, out, in);
      return true;
    case 2:
      run<2>(p, out, in);
      return true;
    case 4:
      run<4>(p, out, in);
      return true;
    case 8:
      run<8>(p, out, in);
      return true;
    case 16:
      run<16>(p, out, in);
      return true;
    default:
      return false;
  }
}

}  // namespace torch::kernels
