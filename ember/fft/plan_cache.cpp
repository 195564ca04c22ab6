// KissFFT plans (Note [FFT plan cache] in plan_cache.h). float32 uses the C
// library (libkissfft-float: twiddles computed in double, real transforms
// through kiss_fftr); float64 uses the header-only kissfft<double> template
// from the same package, whose real transform packs bin n/2 into bin 0.
#include "ember/fft/plan_cache.h"

#include <kissfft/kiss_fft.h>
#include <kissfft/kiss_fftr.h>

#include <kissfft/kissfft.hh>
#include <unordered_map>

#include "ember/core/error.h"

namespace torch::fft::detail {

namespace {

constexpr size_t kMaxPlans = 64;

class FloatComplexPlan final : public ComplexPlan<float> {
 public:
  FloatComplexPlan(int64_t n, bool inverse) : cfg_(kiss_fft_alloc(static_cast<int>(n), inverse, nullptr, nullptr)) {
    EMBER_CHECK(cfg_ != nullptr, "fft: could not allocate a KissFFT plan of length ", n);
  }
  ~FloatComplexPlan() override { kiss_fft_free(cfg_); }
  void run(const cpx<float>* in, cpx<float>* out) const override {
    kiss_fft(cfg_, reinterpret_cast<const kiss_fft_cpx*>(in), reinterpret_cast<kiss_fft_cpx*>(out));
  }

 private:
  kiss_fft_cfg cfg_;
};

class FloatRealPlan final : public RealPlan<float> {
 public:
  FloatRealPlan(int64_t n, bool inverse) : cfg_(kiss_fftr_alloc(static_cast<int>(n), inverse, nullptr, nullptr)) {
    EMBER_CHECK(cfg_ != nullptr, "fft: could not allocate a KissFFT real plan of length ", n);
  }
  ~FloatRealPlan() override { kiss_fftr_free(cfg_); }
  void forward(const float* in, cpx<float>* out) const override {
    kiss_fftr(cfg_, in, reinterpret_cast<kiss_fft_cpx*>(out));
  }
  bool inverse(const cpx<float>* in, float* out) const override {
    kiss_fftri(cfg_, reinterpret_cast<const kiss_fft_cpx*>(in), out);
    return true;
  }

 private:
  kiss_fftr_cfg cfg_;
};

class DoubleComplexPlan final : public ComplexPlan<double> {
 public:
  DoubleComplexPlan(int64_t n, bool inverse) : k_(static_cast<size_t>(n), inverse) {}
  void run(const cpx<double>* in, cpx<double>* out) const override { k_.transform(in, out); }

 private:
  kissfft<double> k_;
};

// kissfft<double>::transform_real: a half-length complex plan; bin n/2's real
// value comes back in the imaginary slot of bin 0 and is unpacked here.
class DoubleRealPlan final : public RealPlan<double> {
 public:
  explicit DoubleRealPlan(int64_t n) : half_(n / 2), k_(static_cast<size_t>(n / 2), false) {}
  void forward(const double* in, cpx<double>* out) const override {
    k_.transform_real(in, out);
    const double nyquist = out[0].imag();
    out[0] = {out[0].real(), 0.0};
    out[half_] = {nyquist, 0.0};
  }
  bool inverse(const cpx<double>*, double*) const override { return false; }

 private:
  int64_t half_;
  kissfft<double> k_;
};

template <typename P>
struct Cache {
  std::unordered_map<uint64_t, std::unique_ptr<P>> plans;
  template <typename Make>
  const P& get(uint64_t key, Make make) {
    auto it = plans.find(key);
    if (it != plans.end()) return *it->second;
    if (plans.size() >= kMaxPlans) plans.clear();
    return *plans.emplace(key, make()).first->second;
  }
};

uint64_t key(int64_t n, bool inverse) { return (static_cast<uint64_t>(n) << 1) | (inverse ? 1 : 0); }

}  // namespace

template <>
const ComplexPlan<float>& complex_plan<float>(int64_t n, bool inverse) {
  thread_local Cache<ComplexPlan<float>> cache;
  return cache.get(key(n, inverse), [&] { return std::make_unique<FloatComplexPlan>(n, inverse); });
}
template <>
const ComplexPlan<double>& complex_plan<double>(int64_t n, bool inverse) {
  thread_local Cache<ComplexPlan<double>> cache;
  return cache.get(key(n, inverse), [&] { return std::make_unique<DoubleComplexPlan>(n, inverse); });
}
template <>
const RealPlan<float>& real_plan<float>(int64_t n, bool inverse) {
  EMBER_INTERNAL_ASSERT(n % 2 == 0 && n >= 2, "fft: real plans need an even length, got ", n);
  thread_local Cache<RealPlan<float>> cache;
  return cache.get(key(n, inverse), [&] { return std::make_unique<FloatRealPlan>(n, inverse); });
}
template <>
const RealPlan<double>& real_plan<double>(int64_t n, bool inverse) {
  EMBER_INTERNAL_ASSERT(n % 2 == 0 && n >= 2 && !inverse, "fft: real float64 plans are forward only, even length");
  thread_local Cache<RealPlan<double>> cache;
  return cache.get(key(n, false), [&] { return std::make_unique<DoubleRealPlan>(n); });
}

}  // namespace torch::fft::detail
