#include "ember/kernels/cpu/dropout_backward.h"

#include <cstdint>
#include <type_traits>

#include "ember/core/dispatch.h"
#include "ember/core/parallel.h"
#include "ember/kernels/cpu/dropout_draws.h"

namespace torch::kernels {

namespace {

// NativeDropoutBackward0: g * scale where kept.
struct KeepRule {
  template <typename T>
  static T apply(uint32_t m, T g, T keep) {
    return detail::kept_times(m, g, keep);
  }
};
// ReluDropoutBackward0 (selects of one width, so the loop vectorises).
struct ReluKeepRule {
  template <typename T>
  static T apply(uint32_t m, T g, T keep) {
    const T prod = g * (m == 3u ? keep : T(0));  // computed unconditionally: a select, not a branch
    return m >= 2u ? prod : T(0);
  }
};

template <typename Rule>
void apply_rule(const Tensor& grad, const Tensor& mask, double scale, const Tensor& out, const char* op) {
  const uint8_t* m = static_cast<const uint8_t*>(mask.data_ptr());
  dispatch_floating(grad.dtype(), op, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* gp = grad.data_ptr<T>();
      T* rp = out.data_ptr<T>();
      const T keep = static_cast<T>(scale);
      parallel_for(0, out.numel(), kGrainSize, [&](int64_t b, int64_t e) {
        // Locals: stores through rp could otherwise alias the captured values (the loop
        // then ran scalar, one element per ~4 ns).
        const T k = keep;
        const uint8_t* mp = m;
        const T* in = gp;
        T* o = rp;
        for (int64_t i = b; i < e; ++i) o[i] = Rule::apply(mp[i], in[i], k);
      });
    }
  });
}

}  // namespace

void byte_mask_dropout_backward(const Tensor& grad, const Tensor& mask, double scale, bool relu_first,
                                const Tensor& out) {
  if (relu_first)
    apply_rule<ReluKeepRule>(grad, mask, scale, out, "relu_dropout_backward");
  else
    apply_rule<KeepRule>(grad, mask, scale, out, "native_dropout_backward");
}

}  // namespace torch::kernels
