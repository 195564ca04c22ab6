#pragma once
// KissFFT plans, cached per thread. Note [FFT plan cache]
// KissFFT plans are not safe to share between threads: kiss_fftr writes into
// its plan's scratch buffer, and the C++ kissfft<T> keeps a mutable scratch
// vector for radices above 5. Every thread therefore keeps its own cache,
// keyed by (length, kind, dtype); the pool's threads live as long as the
// process, so plans are built once per thread and reused without any lock.
// A cache holds at most kMaxPlans entries and is cleared when it would grow
// past that (programs cycling through many lengths stay bounded).
#include <complex>
#include <cstdint>
#include <memory>

#include "ember/core/namespace.h"

namespace torch::fft::detail {

template <typename T>
using cpx = std::complex<T>;

// A complex-to-complex transform of one length and direction (unnormalised).
// run(in, out) requires in != out.
template <typename T>
class ComplexPlan {
 public:
  virtual ~ComplexPlan() = default;
  virtual void run(const cpx<T>* in, cpx<T>* out) const = 0;
};

// Real transforms of one even length n: forward gives bins 0..n/2 (n/2 + 1 values)
// from n reals; inverse gives n reals from bins 0..n/2.
template <typename T>
class RealPlan {
 public:
  virtual ~RealPlan() = default;
  virtual void forward(const T* in, cpx<T>* out) const = 0;
  // Inverse; returns false when this plan has no inverse (the caller falls back to a complex transform).
  virtual bool inverse(const cpx<T>* in, T* out) const = 0;
};

// This thread's plans (built on first use).
template <typename T>
const ComplexPlan<T>& complex_plan(int64_t n, bool inverse);
template <typename T>
const RealPlan<T>& real_plan(int64_t n, bool inverse);

}  // namespace torch::fft::detail
