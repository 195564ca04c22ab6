#pragma once
// ScalarType (dtype), its C++ element types, and PyTorch's promotion lattice.
#include <complex>
#include <cstdint>
#include <ostream>
#include <string>

#include "ember/core/half.h"

namespace torch {

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

// Order matches c10::ScalarType's first entries (Byte..ComplexDouble, Bool, BFloat16).
enum class ScalarType : int8_t {
  Byte = 0,
  Char,
  Short,
  Int,
  Long,
  Half,
  Float,
  Double,
  ComplexFloat,
  ComplexDouble,
  Bool,
  BFloat16,
  Undefined,
};
constexpr int kNumScalarTypes = static_cast<int>(ScalarType::Undefined);
using Dtype = ScalarType;

// LibTorch spellings.
constexpr ScalarType kByte = ScalarType::Byte, kUInt8 = ScalarType::Byte, kU8 = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char, kInt8 = ScalarType::Char, kI8 = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short, kInt16 = ScalarType::Short, kI16 = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int, kInt32 = ScalarType::Int, kI32 = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long, kInt64 = ScalarType::Long, kI64 = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half, kFloat16 = ScalarType::Half, kF16 = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float, kFloat32 = ScalarType::Float, kF32 = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double, kFloat64 = ScalarType::Double, kF64 = ScalarType::Double;
constexpr ScalarType kComplexFloat = ScalarType::ComplexFloat, kComplex64 = ScalarType::ComplexFloat;
constexpr ScalarType kComplexDouble = ScalarType::ComplexDouble, kComplex128 = ScalarType::ComplexDouble;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;

size_t element_size(ScalarType t);
const char* dtype_name(ScalarType t);       // "float32", as PyTorch prints torch.float32
const char* type_name_short(ScalarType t);  // "Float", as in CPUFloatType
std::ostream& operator<<(std::ostream& os, ScalarType t);
inline std::string toString(ScalarType t) { return type_name_short(t); }

constexpr bool is_complex(ScalarType t) { return t == kComplexFloat || t == kComplexDouble; }
constexpr bool is_floating_point(ScalarType t) { return t == kHalf || t == kFloat || t == kDouble || t == kBFloat16; }
constexpr bool is_integral(ScalarType t, bool include_bool = false) {
  return (t >= kByte && t <= kLong) || (include_bool && t == kBool);
}
constexpr bool isFloatingType(ScalarType t) { return is_floating_point(t); }
constexpr bool isComplexType(ScalarType t) { return is_complex(t); }
constexpr bool isIntegralType(ScalarType t, bool include_bool) { return is_integral(t, include_bool); }

// The real counterpart of a complex dtype (complex64 -> float32); identity otherwise.
ScalarType to_real_type(ScalarType t);
// The complex counterpart of a floating dtype (float32 -> complex64).
ScalarType to_complex_type(ScalarType t);

// PyTorch's promote_types table.
ScalarType promote_types(ScalarType a, ScalarType b);
// Whether a value of `from` may be written to `to` by an out= / in-place op
// (no float->int, complex->real or non-bool->bool narrowing of category).
bool can_cast(ScalarType from, ScalarType to);

// Default dtype for floating factories (torch.get_default_dtype()).
ScalarType get_default_dtype();
void set_default_dtype(ScalarType t);

// ---- C++ type <-> ScalarType -----------------------------------------------
template <typename T>
struct CppTypeToScalarType;
#define EMBER_MAP_TYPE(cpp, st)             \
  template <>                               \
  struct CppTypeToScalarType<cpp> {         \
    static constexpr ScalarType value = st; \
  };
EMBER_MAP_TYPE(uint8_t, kByte)
EMBER_MAP_TYPE(int8_t, kChar)
EMBER_MAP_TYPE(int16_t, kShort)
EMBER_MAP_TYPE(int32_t, kInt)
EMBER_MAP_TYPE(int64_t, kLong)
EMBER_MAP_TYPE(ember::Half, kHalf)
EMBER_MAP_TYPE(float, kFloat)
EMBER_MAP_TYPE(double, kDouble)
EMBER_MAP_TYPE(complex64, kComplexFloat)
EMBER_MAP_TYPE(complex128, kComplexDouble)
EMBER_MAP_TYPE(bool, kBool)
EMBER_MAP_TYPE(ember::BFloat16, kBFloat16)
#undef EMBER_MAP_TYPE
template <typename T>
constexpr ScalarType scalar_type_of = CppTypeToScalarType<T>::value;

// The type arithmetic is done in: float for the 16-bit floats, T otherwise.
template <typename T>
struct OpMath {
  using type = T;
};
template <>
struct OpMath<Half> {
  using type = float;
};
template <>
struct OpMath<BFloat16> {
  using type = float;
};
template <typename T>
using opmath_t = typename OpMath<T>::type;

template <typename T>
struct is_complex_t : std::false_type {};
template <typename T>
struct is_complex_t<std::complex<T>> : std::true_type {};
template <typename T>
constexpr bool is_complex_v = is_complex_t<T>::value;

// float for complex64, double for complex128, T otherwise.
template <typename T>
struct ValueType {
  using type = T;
};
template <typename T>
struct ValueType<std::complex<T>> {
  using type = T;
};
template <typename T>
using value_t = typename ValueType<T>::type;

}  // namespace torch
