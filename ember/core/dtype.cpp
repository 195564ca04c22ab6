#include "ember/core/dtype.h"

#include "ember/core/error.h"

namespace torch {

size_t element_size(ScalarType t) {
  static constexpr size_t kSizes[] = {1, 1, 2, 4, 8, 2, 4, 8, 8, 16, 1, 2};
  EMBER_CHECK(t != ScalarType::Undefined, "element_size: undefined dtype");
  return kSizes[static_cast<int>(t)];
}

const char* dtype_name(ScalarType t) {
  static constexpr const char* kNames[] = {"uint8",   "int8",    "int16",     "int32",      "int64", "float16",
                                           "float32", "float64", "complex64", "complex128", "bool",  "bfloat16"};
  return t == ScalarType::Undefined ? "undefined" : kNames[static_cast<int>(t)];
}

const char* type_name_short(ScalarType t) {
  static constexpr const char* kNames[] = {"Byte",  "Char",   "Short",        "Int",           "Long", "Half",
                                           "Float", "Double", "ComplexFloat", "ComplexDouble", "Bool", "BFloat16"};
  return t == ScalarType::Undefined ? "Undefined" : kNames[static_cast<int>(t)];
}

std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << dtype_name(t); }

ScalarType to_real_type(ScalarType t) {
  if (t == kComplexFloat) return kFloat;
  if (t == kComplexDouble) return kDouble;
  return t;
}

ScalarType to_complex_type(ScalarType t) {
  switch (t) {
    case kHalf:
    case kBFloat16:
    case kFloat:
      return kComplexFloat;
    case kDouble:
      return kComplexDouble;
    case kComplexFloat:
    case kComplexDouble:
      return t;
    default:
      EMBER_ERROR("to_complex_type: no complex counterpart for ", dtype_name(t));
  }
}

ScalarType promote_types(ScalarType a, ScalarType b) {
  EMBER_CHECK(a != ScalarType::Undefined && b != ScalarType::Undefined, "promote_types: undefined dtype");
  if (a == b) return a;
  // Table in c10 order: u1 i1 i2 i4 i8 f2 f4 f8 c4 c8 b1 bf
  constexpr ScalarType u1 = kByte, i1 = kChar, i2 = kShort, i4 = kInt, i8 = kLong, f2 = kHalf, f4 = kFloat,
                       f8 = kDouble, c4 = kComplexFloat, c8 = kComplexDouble, b1 = kBool, bf = kBFloat16;
  static constexpr ScalarType kTable[12][12] = {
      /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, c4, c8, u1, bf},
      /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, c4, c8, i1, bf},
      /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, c4, c8, i2, bf},
      /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, c4, c8, i4, bf},
      /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, c4, c8, i8, bf},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, c4, c8, f2, f4},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, c4, c8, f4, f4},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, f8, f8},
      /* c4 */ {c4, c4, c4, c4, c4, c4, c4, c8, c4, c8, c4, c4},
      /* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
      /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, c4, c8, b1, bf},
      /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, c4, c8, bf, bf},
  };
  return kTable[static_cast<int>(a)][static_cast<int>(b)];
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_complex(from) && !is_complex(to)) return false;
  if (is_floating_point(from) && is_integral(to, true)) return false;
  if (from != kBool && to == kBool) return false;
  return true;
}

namespace {
ScalarType g_default_dtype = kFloat;  // documented global, like torch.set_default_dtype
}
ScalarType get_default_dtype() { return g_default_dtype; }
void set_default_dtype(ScalarType t) {
  EMBER_CHECK(t == kFloat || t == kDouble, "set_default_dtype: only float32 and float64 are supported, got ",
              dtype_name(t));
  g_default_dtype = t;
}

}  // namespace torch
