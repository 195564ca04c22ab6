// The lane-parallel FFT compiled for AVX2 + FMA (chosen at run time in batched.cpp, Note [CPU capability]);
// one ymm register (eight float32 / four float64 lanes) per vector.
#define EMBER_FFT_ISA avx2
#define EMBER_FFT_VEC_BYTES 32
#include "ember/fft/batched_impl.h"

namespace torch::fft::detail::avx2 {
template void c2c<float>(const std::complex<float>*, LaneMap, std::complex<float>*, LaneMap, int64_t, int64_t, int64_t,
                         bool, float);
template void c2c<double>(const std::complex<double>*, LaneMap, std::complex<double>*, LaneMap, int64_t, int64_t,
                          int64_t, bool, double);
template void r2c<float>(const float*, LaneMap, const float*, std::complex<float>*, LaneMap, int64_t, int64_t, int64_t,
                         int64_t, float);
template void r2c<double>(const double*, LaneMap, const double*, std::complex<double>*, LaneMap, int64_t, int64_t,
                          int64_t, int64_t, double);
template void c2r<float>(const std::complex<float>*, LaneMap, float*, LaneMap, int64_t, int64_t, int64_t, float);
template void c2r<double>(const std::complex<double>*, LaneMap, double*, LaneMap, int64_t, int64_t, int64_t, double);
}  // namespace torch::fft::detail::avx2
