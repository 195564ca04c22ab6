// Dropout: one Bernoulli(1 - p) mask per element (or per channel), drawn from
// the default generator, scaled in the same pass, then one multiply (or, for
// plain dropout of a float tensor, one pass for both: Note [Dropout with a
// byte mask]).
#include "ember/ops/nn/dropout.h"
#include "ember/autograd/derivatives/nn_dropout_grad.h"
#include "ember/core/record_scope.h"
#include "ember/kernels/cpu/dropout_draws.h"
#include "ember/ops/nn/relu_dropout.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ember/autograd/formula_node.h"
#include "ember/core/dispatch.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/philox.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/factory/generator_engine.h"
#include "ember/ops/index/indexing.h"
#include "ember/vmap/batched_tensor.h"
#include "ember/vmap/rules_random.h"

namespace torch {

namespace detail {
DropoutDraws next_dropout_draws(double p) {
  DropoutDraws d;
  const double q = (1.0 - p) * 4294967296.0;
  d.keep_all = q >= 4294967296.0;
  d.cut = d.keep_all ? 0u : static_cast<uint32_t>(q);
  const std::pair<uint64_t, uint64_t> draw_key = default_generator().with_engine([](CpuEngine& eng) {
    const uint64_t k = eng();
    return std::pair<uint64_t, uint64_t>(k, eng());
  });
  d.key = draw_key.first;
  d.stream = draw_key.second;
  return d;
}
}  // namespace detail

namespace {

// A tensor of `shape` holding `keep_value` with probability 1 - p and
// `drop_value` otherwise: keep where the element's 32-bit draw u < (1 - p) * 2^32. The
// draws are Philox's (Note [Philox draws]), keyed by two draws of the default generator,
// so the mask follows manual_seed, is filled in parallel and is the same on any number of
// threads. With `scaled` (a contiguous float32/float64 tensor of `shape`), the result is
// instead scaled * that mask, in the same pass: Note [Dropout without a mask].
// With `mask` as well (a contiguous byte tensor of `shape`), each element's keep
// bit is stored there too: Note [Dropout with a byte mask].
// With `relu_first` (and `mask`), scaled is read through relu and the mask byte also
// records whether relu's result passes its gradient: Note [Relu then dropout].
Tensor make_noise(IntArrayRef shape, const TensorOptions& options, double p, double keep_value, double drop_value,
                  const Tensor& scaled = Tensor(), const Tensor& mask = Tensor(), bool relu_first = false) {
  Tensor noise = empty(shape, options);
  const int64_t n = noise.numel();
  // Plain variables, not a structured binding: the lambdas below capture them,
  // which clang 14 (the fuzz build's compiler) does not allow for bindings.
  const detail::DropoutDraws dd = detail::next_dropout_draws(p);
  const bool keep_all = dd.keep_all;
  const uint32_t cut = dd.cut;
  const uint64_t key = dd.key, stream = dd.stream;
  dispatch_floating(noise.dtype(), "dropout", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    T* out = noise.data_ptr<T>();
    using Op = opmath_t<T>;
    const T keep = static_cast<T>(static_cast<Op>(keep_value)), drop = static_cast<T>(static_cast<Op>(drop_value));
    constexpr bool kScalable = std::is_same_v<T, float> || std::is_same_v<T, double>;
    const T* x = nullptr;
    uint8_t* keep_bits = mask.defined() ? static_cast<uint8_t*>(mask.data_ptr()) : nullptr;
    if constexpr (kScalable)
      if (scaled.defined()) x = scaled.data_ptr<T>();
    if (keep_all && !x) {  // p so small that (1 - p) * 2^32 rounds to 2^32: no draw can drop
      std::fill(out, out + n, keep);
      return;
    }
    parallel_for(0, n, int64_t(1) << 14, [&](int64_t b, int64_t e) {
      constexpr int64_t kChunk = 1024;
      uint32_t draws[kChunk];
      for (int64_t i = b; i < e; i += kChunk) {
        const int64_t len = std::min(kChunk, e - i);
        // Locals, so the stores through o cannot alias them.
        T* o = out + i;
        const T k = keep, d = drop;
        const uint32_t c = keep_all ? UINT32_MAX : cut;
        if (keep_all) {  // only with x: every element kept
          std::fill(draws, draws + len, 0u);
        } else {
          kernels::philox_draws(draws, i, len, key, stream);
        }
        // A select, not a branch: the compiler vectorises it, and a branch on random
        // draws mispredicted on about every tenth element (at p = 0.1 this loop was 13 %
        // of W10's forward).
        if constexpr (kScalable) {
          if (x && keep_bits && relu_first) {
            const T* xi = x + i;
            uint8_t* mi = keep_bits + i;
            for (int64_t j = 0; j < len; ++j) {
              // Selects of one width throughout, so the loop vectorises (bool arithmetic
              // on the bits made GCC branch per element).
              const T xv = xi[j];
              const T r = xv < T(0) ? T(0) : xv;  // relu: clamp_min(x, 0), NaN and -0 kept
              const uint32_t kept = draws[j] < c ? 1u : 0u;
              const uint32_t pass = xv <= T(0) ? 0u : 2u;  // !(r <= 0): r <= 0 exactly when x <= 0
              mi[j] = static_cast<uint8_t>(kept | pass);
              o[j] = r * (kept != 0u ? k : d);
            }
            continue;
          }
          if (x && keep_bits) {
            const T* xi = x + i;
            uint8_t* mi = keep_bits + i;
            for (int64_t j = 0; j < len; ++j) {
              const bool kept = draws[j] < c;
              mi[j] = kept;
              o[j] = xi[j] * (kept ? k : d);
            }
            continue;
          }
          if (x) {
            const T* xi = x + i;
            for (int64_t j = 0; j < len; ++j) o[j] = xi[j] * (draws[j] < c ? k : d);
            continue;
          }
        }
        for (int64_t j = 0; j < len; ++j) o[j] = draws[j] < c ? k : d;
      }
    });
  });
  return noise;
}

// make_noise, or under vmap its batched form (Note [Random ops under vmap]):
// per sample along the levels with randomness="different", one mask for all
// samples along the "same" ones. The arithmetic after it is ruled ops.
Tensor noise_for(const char* op, IntArrayRef shape, const TensorOptions& options, double p, double keep_value,
                 double drop_value) {
  if (batching::random_in_vmap()) [[unlikely]]
    return batching::draw_random(op, shape,
                                 [&](IntArrayRef s) { return make_noise(s, options, p, keep_value, drop_value); });
  return make_noise(shape, options, p, keep_value, drop_value);
}

// Note [Dropout with a byte mask]
// Training with autograd, float32/float64 contiguous input: one pass writes
// input * scale * mask and the mask as one byte per element (ATen's
// native_dropout), and the node NativeDropoutBackward0 multiplies the gradient
// by the byte mask and the scale in one pass. Before, the mask was a tensor of
// the input's dtype — written, read back by the product, and read again by the
// backward product: 28 bytes of traffic per float element, now 18. Values are
// the same products as input * noise. With create_graph (or a tangent) the
// formula is the composite grad * (mask * scale), which differentiates again.
// Note [Relu then dropout]
// dropout(relu(x)), the feed-forward block of a transformer layer, in one pass: relu's
// result is not written and read back, and one mask byte per element holds both
// facts the backward needs (bit 0: kept by dropout, bit 1: relu's result r passes its
// gradient, !(r <= 0) as threshold_backward tests it). The backward is then one pass
// too, over the incoming gradient when the formula owns it (Note [Gradients
// overwritten in place]). The draws are dropout's, so values equal dropout(relu(x))
// after the same seed bit for bit, and so do gradients: g * (kept ? scale : 0) where
// r passes, else 0, as NativeDropoutBackward0 then ReluBackward0 compute them. With
// create_graph (or batched gradients) the formula is that product with ordinary ops.
// W10's [128, 16, 1024] block: relu 0.44 ms and its backward 0.45 ms no longer run.

// The byte-mask forward of both nodes: one pass writing the result and the mask,
// then the node (NativeDropoutBackward0, or with relu_first ReluDropoutBackward0).
Tensor dropout_with_mask(const Tensor& input, double p, bool relu_first = false) {
  const double scale = 1.0 / (1.0 - p);
  Tensor mask = empty(input.sizes(), input.options().dtype(relu_first ? kByte : kBool));
  Tensor out;
  {
    autograd::BelowAutogradGuard below;
    out = make_noise(input.sizes(), input.options(), p, scale, 0.0, input, mask, relu_first);
  }
  autograd::record_dropout_with_mask(input, out, mask, scale, relu_first);
  return out;
}

// [N, C, 1, ..., 1]: one draw per channel.
DimVector feature_noise_shape(const Tensor& input, const char* op) {
  EMBER_CHECK(input.dim() >= 2, op, ": Feature dropout requires at least 2 dimensions in the input, got ",
              shape_str(input.sizes()));
  DimVector s(static_cast<size_t>(input.dim()), 1);
  s[0] = input.size(0);
  s[1] = input.size(1);
  return s;
}

template <bool kInplace>
Tensor dropout_impl(const char* op, Tensor& input, double p, bool train, bool feature, bool alpha) {
  // A composite under vmap: the noise is drawn by noise_for, the rest is ruled arithmetic.
  EMBER_RECORD_COMPOSITE_OP(op, input);
  EMBER_CHECK(input.defined(), op, ": expected a defined tensor");
  EMBER_CHECK(p >= 0 && p <= 1, op, ": dropout probability has to be between 0 and 1, but got ", p);
  if (p == 0 || !train || input.numel() == 0) return input;
  const DimVector shape = feature ? feature_noise_shape(input, op) : DimVector(input.sizes());
  EMBER_CHECK(input.is_floating_point(), op, ": expected a floating point input, got ", input.dtype());
  if (p == 1) {
    Tensor z = zeros({}, input.options());
    if constexpr (kInplace)
      return input.mul_(z);
    else
      return input * z;
  }
  if (!alpha) {
    // Note [Dropout without a mask]
    // When nothing will differentiate the result (no grad mode or no input requiring
    // grad, no forward-mode tangent) and no vmap level is drawing, the mask is never
    // needed again: make_noise writes input * mask directly, the same products as
    // input * noise, without writing the mask and reading it back (W10's inference-style
    // forward runs four dropouts over 4.2 M elements).
    if constexpr (!kInplace) {
      if (!feature && !batching::random_in_vmap() && !batching::is_batched(input) && input.is_contiguous() &&
          (input.scalar_type() == kFloat || input.scalar_type() == kDouble))
        return autograd::needs_grad(input) ? dropout_with_mask(input, p)
                                           : make_noise(shape, input.options(), p, 1.0 / (1.0 - p), 0.0, input);
    }
    Tensor noise = noise_for(op, shape, input.options(), p, 1.0 / (1.0 - p), 0.0);
    if constexpr (kInplace)
      return input.mul_(noise);
    else
      return input * noise;
  }
  // PyTorch's alpha dropout: x * a*mask + (alpha*a*p - alpha*a*(1 - mask)).
  constexpr double kAlpha = 1.7580993408473766;
  const double a = 1.0 / std::sqrt((kAlpha * kAlpha * p + 1) * (1 - p));
  Tensor noise = noise_for(op, shape, input.options(), p, a, 0.0);
  // b = (mask - 1) * alpha * a + alpha * a * p, with mask = noise / a.
  Tensor b = (noise * (1.0 / a) - 1.0) * (kAlpha * a) + kAlpha * a * p;
  if constexpr (kInplace)
    return input.mul_(noise).add_(b);
  else
    return input * noise + b;
}

}  // namespace

Tensor dropout(const Tensor& input, double p, bool train) {
  Tensor in = input;
  return dropout_impl<false>("dropout", in, p, train, false, false);
}
Tensor& dropout_(Tensor& input, double p, bool train) {
  dropout_impl<true>("dropout_", input, p, train, false, false);
  return input;
}

Tensor relu_dropout(const Tensor& input, double p, bool train) {
  EMBER_CHECK(input.defined(), "relu_dropout: expected a defined tensor");
  EMBER_CHECK(p >= 0 && p <= 1, "relu_dropout: dropout probability has to be between 0 and 1, but got ", p);
  EMBER_CHECK(!train || p == 0 || input.is_floating_point(), "relu_dropout: expected a floating point input, got ",
              input.dtype(), " of shape ", shape_str(input.sizes()));
  const bool one_pass = train && p > 0 && p < 1 && autograd::needs_grad(input) && !batching::random_in_vmap() &&
                        !batching::is_batched(input) && input.is_contiguous() && input.numel() > 0 &&
                        (input.scalar_type() == kFloat || input.scalar_type() == kDouble);
  if (!one_pass) return dropout(relu(input), p, train);
  EMBER_RECORD_COMPOSITE_OP("relu_dropout", input);
  return dropout_with_mask(input, p, /*relu_first=*/true);
}
Tensor feature_dropout(const Tensor& input, double p, bool train) {
  Tensor in = input;
  return dropout_impl<false>("feature_dropout", in, p, train, true, false);
}
Tensor& feature_dropout_(Tensor& input, double p, bool train) {
  dropout_impl<true>("feature_dropout_", input, p, train, true, false);
  return input;
}
Tensor alpha_dropout(const Tensor& input, double p, bool train) {
  Tensor in = input;
  return dropout_impl<false>("alpha_dropout", in, p, train, false, true);
}
Tensor& alpha_dropout_(Tensor& input, double p, bool train) {
  dropout_impl<true>("alpha_dropout_", input, p, train, false, true);
  return input;
}
Tensor feature_alpha_dropout(const Tensor& input, double p, bool train) {
  Tensor in = input;
  return dropout_impl<false>("feature_alpha_dropout", in, p, train, true, true);
}
Tensor& feature_alpha_dropout_(Tensor& input, double p, bool train) {
  dropout_impl<true>("feature_alpha_dropout_", input, p, train, true, true);
  return input;
}

}  // namespace torch
