#pragma once
// dtype dispatch: calls f(TypeTag<T>{}) with the C++ type of a ScalarType,
// restricted to a named set of dtypes; anything else raises naming the op.
//   dispatch_floating(t, "exp", [&](auto tag) { using T = EMBER_TYPE(tag); ... });
#include "ember/core/dtype.h"
#include "ember/core/error.h"

namespace torch {

template <typename T>
struct TypeTag {
  using type = T;
};
#define EMBER_TYPE(tag) typename decltype(tag)::type

namespace detail {
[[noreturn]] void dispatch_error(const char* op, ScalarType t, const char* set);
}

#define EMBER_CASE_(st, cpp) \
  case st:                   \
    return f(TypeTag<cpp>{});

#define EMBER_INT_CASES_                  \
  EMBER_CASE_(ScalarType::Byte, uint8_t)  \
  EMBER_CASE_(ScalarType::Char, int8_t)   \
  EMBER_CASE_(ScalarType::Short, int16_t) \
  EMBER_CASE_(ScalarType::Int, int32_t)   \
  EMBER_CASE_(ScalarType::Long, int64_t)
#define EMBER_FLOAT_CASES_                \
  EMBER_CASE_(ScalarType::Float, float)   \
  EMBER_CASE_(ScalarType::Double, double) \
  EMBER_CASE_(ScalarType::Half, Half)     \
  EMBER_CASE_(ScalarType::BFloat16, BFloat16)
#define EMBER_COMPLEX_CASES_                       \
  EMBER_CASE_(ScalarType::ComplexFloat, complex64) \
  EMBER_CASE_(ScalarType::ComplexDouble, complex128)
#define EMBER_BOOL_CASE_ EMBER_CASE_(ScalarType::Bool, bool)

#define EMBER_DEFINE_DISPATCH_(fname, setname, ...)           \
  template <typename F>                                       \
  decltype(auto) fname(ScalarType t, const char* op, F&& f) { \
    switch (t) {                                              \
      __VA_ARGS__                                             \
      default:                                                \
        detail::dispatch_error(op, t, setname);               \
    }                                                         \
  }

EMBER_DEFINE_DISPATCH_(dispatch_all, "all dtypes",
                       EMBER_INT_CASES_ EMBER_FLOAT_CASES_ EMBER_COMPLEX_CASES_ EMBER_BOOL_CASE_)
EMBER_DEFINE_DISPATCH_(dispatch_floating, "floating dtypes", EMBER_FLOAT_CASES_)
EMBER_DEFINE_DISPATCH_(dispatch_floating_and_complex, "floating and complex dtypes",
                       EMBER_FLOAT_CASES_ EMBER_COMPLEX_CASES_)
EMBER_DEFINE_DISPATCH_(dispatch_integral, "integer dtypes", EMBER_INT_CASES_)
EMBER_DEFINE_DISPATCH_(dispatch_integral_and_bool, "integer and bool dtypes", EMBER_INT_CASES_ EMBER_BOOL_CASE_)
EMBER_DEFINE_DISPATCH_(dispatch_real, "real (non-complex, non-bool) dtypes", EMBER_INT_CASES_ EMBER_FLOAT_CASES_)
EMBER_DEFINE_DISPATCH_(dispatch_real_and_bool, "real dtypes", EMBER_INT_CASES_ EMBER_FLOAT_CASES_ EMBER_BOOL_CASE_)
EMBER_DEFINE_DISPATCH_(dispatch_numeric, "numeric (non-bool) dtypes",
                       EMBER_INT_CASES_ EMBER_FLOAT_CASES_ EMBER_COMPLEX_CASES_)

}  // namespace torch
