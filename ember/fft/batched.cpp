// Entry points of the lane-parallel FFT: the AVX-512 or the AVX2 build as the CPU
// capability says (Note [CPU capability]), otherwise the same code compiled with the
// library's flags.
#define EMBER_FFT_ISA generic
#include "ember/fft/batched_impl.h"
#include "ember/kernels/cpu/cpu_capability.h"

namespace torch::fft::detail {

using ::torch::kernels::CpuCapability;

namespace avx512 {
template <typename T>
void c2c(const std::complex<T>*, LaneMap, std::complex<T>*, LaneMap, int64_t, int64_t, int64_t, bool, T);
template <typename T>
void r2c(const T*, LaneMap, const T*, std::complex<T>*, LaneMap, int64_t, int64_t, int64_t, int64_t, T);
template <typename T>
void c2r(const std::complex<T>*, LaneMap, T*, LaneMap, int64_t, int64_t, int64_t, T);
}  // namespace avx512

namespace avx2 {
template <typename T>
void c2c(const std::complex<T>*, LaneMap, std::complex<T>*, LaneMap, int64_t, int64_t, int64_t, bool, T);
template <typename T>
void r2c(const T*, LaneMap, const T*, std::complex<T>*, LaneMap, int64_t, int64_t, int64_t, int64_t, T);
template <typename T>
void c2r(const std::complex<T>*, LaneMap, T*, LaneMap, int64_t, int64_t, int64_t, T);
}  // namespace avx2

namespace {
CpuCapability level() { return ::torch::kernels::cpu_capability(); }
}  // namespace

template <typename T>
void batched_c2c(const std::complex<T>* in, LaneMap im, std::complex<T>* out, LaneMap om, int64_t n, int64_t begin,
                 int64_t end, bool forward, T scale) {
  switch (level()) {
    case CpuCapability::AVX512:
      return avx512::c2c<T>(in, im, out, om, n, begin, end, forward, scale);
    case CpuCapability::AVX2:
      return avx2::c2c<T>(in, im, out, om, n, begin, end, forward, scale);
    case CpuCapability::Default:
      break;
  }
  generic::c2c<T>(in, im, out, om, n, begin, end, forward, scale);
}
template <typename T>
void batched_r2c(const T* in, LaneMap im, const T* window, std::complex<T>* out, LaneMap om, int64_t n, int64_t bins,
                 int64_t begin, int64_t end, T scale) {
  switch (level()) {
    case CpuCapability::AVX512:
      return avx512::r2c<T>(in, im, window, out, om, n, bins, begin, end, scale);
    case CpuCapability::AVX2:
      return avx2::r2c<T>(in, im, window, out, om, n, bins, begin, end, scale);
    case CpuCapability::Default:
      break;
  }
  generic::r2c<T>(in, im, window, out, om, n, bins, begin, end, scale);
}
template <typename T>
void batched_c2r(const std::complex<T>* in, LaneMap im, T* out, LaneMap om, int64_t n, int64_t begin, int64_t end,
                 T scale) {
  switch (level()) {
    case CpuCapability::AVX512:
      return avx512::c2r<T>(in, im, out, om, n, begin, end, scale);
    case CpuCapability::AVX2:
      return avx2::c2r<T>(in, im, out, om, n, begin, end, scale);
    case CpuCapability::Default:
      break;
  }
  generic::c2r<T>(in, im, out, om, n, begin, end, scale);
}

template void batched_c2c<float>(const std::complex<float>*, LaneMap, std::complex<float>*, LaneMap, int64_t, int64_t,
                                 int64_t, bool, float);
template void batched_c2c<double>(const std::complex<double>*, LaneMap, std::complex<double>*, LaneMap, int64_t,
                                  int64_t, int64_t, bool, double);
template void batched_r2c<float>(const float*, LaneMap, const float*, std::complex<float>*, LaneMap, int64_t, int64_t,
                                 int64_t, int64_t, float);
template void batched_r2c<double>(const double*, LaneMap, const double*, std::complex<double>*, LaneMap, int64_t,
                                  int64_t, int64_t, int64_t, double);
template void batched_c2r<float>(const std::complex<float>*, LaneMap, float*, LaneMap, int64_t, int64_t, int64_t,
                                 float);
template void batched_c2r<double>(const std::complex<double>*, LaneMap, double*, LaneMap, int64_t, int64_t, int64_t,
                                  double);

}  // namespace torch::fft::detail
