#pragma once
// float16 (IEEE binary16) and bfloat16 storage types. Arithmetic happens in
// float: kernels load, compute in opmath_t (float), and round back on store.
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>

#include "ember/core/namespace.h"

namespace torch {

namespace detail {
inline uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_f32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
// Round-to-nearest-even float -> binary16, with overflow to inf and NaN kept.
inline uint16_t float_to_half_bits(float f) {
  uint32_t x = f32_bits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) return sign | (absx > 0x7f800000u ? 0x7e00u : 0x7c00u);
  if (absx >= 0x477ff000u) return sign | 0x7c00u;  // rounds to >= 65520 -> inf
  if (absx < 0x38800000u) {                        // subnormal half (or zero)
    // Adding 0.5 makes the FPU do the round-to-nearest-even shift for us.
    float v = bits_f32(absx) + 0.5f;
    return sign | static_cast<uint16_t>(f32_bits(v) - 0x3f000000u);
  }
  uint32_t mant_odd = (absx >> 13) & 1u;
  absx += 0xc8000fffu + mant_odd;  // rebias exponent (-112 << 23) and round
  return sign | static_cast<uint16_t>(absx >> 13);
}
inline float half_bits_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return bits_f32(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    if (mant == 0) return bits_f32(sign);
    float v = static_cast<float>(mant) * (1.0f / 16777216.0f);  // mant * 2^-24
    return sign ? -v : v;
  }
  return bits_f32(sign | ((exp + 112) << 23) | (mant << 13));
}
inline uint16_t float_to_bf16_bits(float f) {
  uint32_t x = f32_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}
inline float bf16_bits_to_float(uint16_t b) { return bits_f32(static_cast<uint32_t>(b) << 16); }
}  // namespace detail

struct Half {
  uint16_t x = 0;
  struct from_bits_t {};
  Half() = default;
  constexpr Half(uint16_t bits, from_bits_t) : x(bits) {}
  Half(float f) : x(detail::float_to_half_bits(f)) {}               // NOLINT
  operator float() const { return detail::half_bits_to_float(x); }  // NOLINT
};

struct BFloat16 {
  uint16_t x = 0;
  struct from_bits_t {};
  BFloat16() = default;
  constexpr BFloat16(uint16_t bits, from_bits_t) : x(bits) {}
  BFloat16(float f) : x(detail::float_to_bf16_bits(f)) {}           // NOLINT
  operator float() const { return detail::bf16_bits_to_float(x); }  // NOLINT
};

inline std::ostream& operator<<(std::ostream& os, Half h) { return os << static_cast<float>(h); }
inline std::ostream& operator<<(std::ostream& os, BFloat16 h) { return os << static_cast<float>(h); }

}  // namespace torch

namespace torch::detail {
// What the limits of the two 16-bit float types share (c10's values), float's where they follow it.
struct Float16Limits {
  static constexpr bool is_specialized = true, is_signed = true, is_integer = false, is_exact = false;
  static constexpr bool has_infinity = true, has_quiet_NaN = true, has_signaling_NaN = true;
  static constexpr auto has_denorm = std::numeric_limits<float>::has_denorm;
  static constexpr bool has_denorm_loss = std::numeric_limits<float>::has_denorm_loss;
  static constexpr auto round_style = std::numeric_limits<float>::round_style;
  static constexpr bool is_bounded = true, is_modulo = false;
  static constexpr bool traps = std::numeric_limits<float>::traps;
  static constexpr bool tinyness_before = std::numeric_limits<float>::tinyness_before;
  static constexpr int radix = 2;
};
}  // namespace torch::detail

template <>
class std::numeric_limits<ember::Half> : public ember::detail::Float16Limits {
 public:
  static constexpr bool is_iec559 = true;
  static constexpr int digits = 11, digits10 = 3, max_digits10 = 5;
  static constexpr int min_exponent = -13, min_exponent10 = -4, max_exponent = 16, max_exponent10 = 4;
  static ember::Half lowest() { return {0xfbffu, ember::Half::from_bits_t{}}; }
  static ember::Half max() { return {0x7bffu, ember::Half::from_bits_t{}}; }
  static ember::Half min() { return {0x0400u, ember::Half::from_bits_t{}}; }
  static ember::Half epsilon() { return {0x1400u, ember::Half::from_bits_t{}}; }
  static ember::Half infinity() { return {0x7c00u, ember::Half::from_bits_t{}}; }
  static ember::Half quiet_NaN() { return {0x7e00u, ember::Half::from_bits_t{}}; }
  static ember::Half signaling_NaN() { return {0x7d00u, ember::Half::from_bits_t{}}; }
  static ember::Half round_error() { return {0x3800u, ember::Half::from_bits_t{}}; }
  static ember::Half denorm_min() { return {0x0001u, ember::Half::from_bits_t{}}; }
};
template <>
class std::numeric_limits<ember::BFloat16> : public ember::detail::Float16Limits {
 public:
  static constexpr bool is_iec559 = false;
  static constexpr int digits = 8, digits10 = 2, max_digits10 = 4;
  static constexpr int min_exponent = -125, min_exponent10 = -37, max_exponent = 128, max_exponent10 = 38;
  static ember::BFloat16 lowest() { return {0xff7fu, ember::BFloat16::from_bits_t{}}; }
  static ember::BFloat16 max() { return {0x7f7fu, ember::BFloat16::from_bits_t{}}; }
  static ember::BFloat16 min() { return {0x0080u, ember::BFloat16::from_bits_t{}}; }
  static ember::BFloat16 epsilon() { return {0x3c00u, ember::BFloat16::from_bits_t{}}; }
  static ember::BFloat16 infinity() { return {0x7f80u, ember::BFloat16::from_bits_t{}}; }
  static ember::BFloat16 quiet_NaN() { return {0x7fc0u, ember::BFloat16::from_bits_t{}}; }
  // A true signalling NaN (quiet bit clear, payload set); c10's 0x7f80 is +infinity.
  static ember::BFloat16 signaling_NaN() { return {0x7fa0u, ember::BFloat16::from_bits_t{}}; }
  static ember::BFloat16 round_error() { return {0x3f00u, ember::BFloat16::from_bits_t{}}; }
  static ember::BFloat16 denorm_min() { return {0x0001u, ember::BFloat16::from_bits_t{}}; }
};
