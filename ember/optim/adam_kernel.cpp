// The fused Adam/AdamW parameter update (Note [Fused Adam step]).
#include "ember/optim/adam_kernel.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "ember/autograd/formula_node.h"
#include "ember/core/parallel.h"
#include "ember/vmap/batched_tensor.h"

namespace torch::optim::detail {

namespace {

// One chunk; kAmsgrad keeps the branch out of the loop so GCC vectorises it
// (the tensors were checked not to overlap). Not inlined: inlined into the
// parallel_for lambda, the __restrict promises were lost and the loop stayed scalar.
template <typename T, bool kAmsgrad>
[[gnu::noinline]] void adam_chunk(T* __restrict p, const T* __restrict g, T* __restrict m, T* __restrict v,
                                  T* __restrict vmax, int64_t n, const AdamCoefficients& c) {
  // The composite converts each Scalar to the compute dtype before using it.
  const T beta1 = static_cast<T>(c.beta1), one_minus_beta1 = static_cast<T>(1 - c.beta1);
  const T beta2 = static_cast<T>(c.beta2), one_minus_beta2 = static_cast<T>(1 - c.beta2);
  const T bc2_sqrt = static_cast<T>(c.bias_correction2_sqrt), eps = static_cast<T>(c.eps);
  const T neg_step = static_cast<T>(-c.step_size);
  for (int64_t i = 0; i < n; ++i) {
    const T gi = g[i];
    const T mi = static_cast<T>(m[i] * beta1) + one_minus_beta1 * gi;
    const T vi = static_cast<T>(v[i] * beta2) + static_cast<T>(one_minus_beta2 * gi) * gi;
    m[i] = mi;
    v[i] = vi;
    T s = vi;
    if constexpr (kAmsgrad) {  // maximum(): NaN-propagating
      const T a = vmax[i];
      s = (a != a || vi != vi) ? a + vi : (a < vi ? vi : a);
      vmax[i] = s;
    }
    const T denom = static_cast<T>(std::sqrt(s) / bc2_sqrt) + eps;
    p[i] = p[i] + neg_step * (mi / denom);
  }
}

template <typename T>
void adam_loop(T* p, const T* g, T* m, T* v, T* vmax, int64_t n, const AdamCoefficients& c) {
  parallel_for(0, n, kGrainSize / 4, [&](int64_t b, int64_t e) {
    if (vmax != nullptr)
      adam_chunk<T, true>(p + b, g + b, m + b, v + b, vmax + b, e - b, c);
    else
      adam_chunk<T, false>(p + b, g + b, m + b, v + b, nullptr, e - b, c);
  });
}

bool disjoint(const std::vector<const Tensor*>& ts) {
  for (size_t i = 0; i < ts.size(); ++i)
    for (size_t j = i + 1; j < ts.size(); ++j) {
      const auto* a = static_cast<const char*>(ts[i]->data_ptr());
      const auto* b = static_cast<const char*>(ts[j]->data_ptr());
      const int64_t bytes = ts[i]->numel() * static_cast<int64_t>(ts[i]->element_size());
      if (a < b + bytes && b < a + bytes) return false;
    }
  return true;
}

}  // namespace

bool adam_update_fused(const Tensor& p, const Tensor& grad, const Tensor& exp_avg, const Tensor& exp_avg_sq,
                       const Tensor& max_exp_avg_sq, const AdamCoefficients& c) {
  std::vector<const Tensor*> ts{&p, &grad, &exp_avg, &exp_avg_sq};
  if (max_exp_avg_sq.defined()) ts.push_back(&max_exp_avg_sq);
  const ScalarType dt = p.scalar_type();
  if (dt != ScalarType::Float && dt != ScalarType::Double) return false;
  for (const Tensor* t : ts)
    if (!t->defined() || t->scalar_type() != dt || !t->is_contiguous() || !t->sizes().equals(p.sizes()) ||
        batching::any_batched(*t) || autograd::needs_grad(*t))
      return false;
  if (p.numel() == 0 || !disjoint(ts)) return false;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    adam_loop<T>(p.data_ptr<T>(), grad.data_ptr<T>(), exp_avg.data_ptr<T>(), exp_avg_sq.data_ptr<T>(),
                 max_exp_avg_sq.defined() ? max_exp_avg_sq.data_ptr<T>() : nullptr, p.numel(), c);
  };
  if (dt == ScalarType::Float)
    run(float{});
  else
    run(double{});
  for (const Tensor* t : ts)
    if (t != &grad) t->bump_version();
  return true;
}

}  // namespace torch::optim::detail
