#include "ember/kernels/cpu/embedding_bag_kernel.h"

#include <algorithm>

#include "ember/core/parallel.h"

namespace torch::kernels {

namespace {

// Rows this many ids ahead are prefetched: enough to cover a DRAM access at
// ~10 ns per accumulated row, few enough to stay in L1.
constexpr int64_t kPrefetchDistance = 16;

template <typename T>
void run(const T* w, int64_t d, const int64_t* idx, const int64_t* starts, int64_t bags, int64_t n, const T* psw,
         int64_t pad, bool mean, T* out) {
  const int64_t row_bytes = d * static_cast<int64_t>(sizeof(T));
  const int64_t per_bag = bags > 0 ? std::max<int64_t>(1, n / bags) : 1;
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, per_bag * d));
  parallel_for(0, bags, grain, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      T* o = out + b * d;
      std::fill(o, o + d, T(0));
      const int64_t s = starts[b], e = std::min(starts[b + 1], n);
      int64_t kept = 0;
      for (int64_t i = s; i < e; ++i) {
        if (i + kPrefetchDistance < n) {
          const char* ahead = reinterpret_cast<const char*>(w + idx[i + kPrefetchDistance] * d);
          for (int64_t off = 0; off < row_bytes; off += 64) __builtin_prefetch(ahead + off);
        }
        const int64_t r = idx[i];
        if (r == pad) continue;
        ++kept;
        const T* row = w + r * d;
        if (psw != nullptr) {
          const T scale = psw[i];
          for (int64_t j = 0; j < d; ++j) o[j] += row[j] * scale;
        } else {
          for (int64_t j = 0; j < d; ++j) o[j] += row[j];
        }
      }
      if (mean && kept > 1) {
        const T count = static_cast<T>(kept);
        for (int64_t j = 0; j < d; ++j) o[j] /= count;
      }
    }
  });
}

}  // namespace

bool embedding_bag_fused_applies(const Tensor& weight) {
  return weight.dim() == 2 && weight.is_contiguous() &&
         (weight.scalar_type() == ScalarType::Float || weight.scalar_type() == ScalarType::Double);
}

void embedding_bag_fused(const Tensor& weight, const int64_t* idx, const int64_t* starts, int64_t bags, int64_t n,
                         const Tensor& per_sample_weights, int64_t padding_idx, bool mean, const Tensor& out) {
  const Tensor psw = per_sample_weights.defined() ? per_sample_weights.contiguous() : per_sample_weights;
  const auto go = [&](auto tag) {
    using T = decltype(tag);
    run<T>(weight.data_ptr<T>(), weight.size(1), idx, starts, bags, n, psw.defined() ? psw.data_ptr<T>() : nullptr,
           padding_idx, mean, out.data_ptr<T>());
  };
  weight.scalar_type() == ScalarType::Float ? go(float{}) : go(double{});
}

}  // namespace torch::kernels
