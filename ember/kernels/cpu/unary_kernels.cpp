// Kernels for the rows of tables/unary.def: the row's kind picks the dtypes to
// instantiate, the scalar function of the row's name (unary_kernels_scalar.h)
// is the element function, and rows with a SLEEF column take the vectorised
// path on contiguous float32/float64 data.
#include "ember/kernels/cpu/unary_kernels.h"

#include "ember/core/dispatch.h"
#include "ember/kernels/cpu/loops.h"
#include "ember/kernels/cpu/unary_kernels_scalar.h"
#include "ember/kernels/cpu/unary_kernels_vec.h"
#include "ember/kernels/cpu/vec_math.h"

namespace torch::kernels {

namespace {

// Instantiates only the dtypes a row accepts (the op layer has already
// rejected the rest with a clearer message).
template <UnaryKind K, UnaryComplex C, typename F>
void dispatch_row(ScalarType t, const char* name, F&& f) {
  constexpr bool cplx = C != UnaryComplex::NoCplx;
  if constexpr (K == UnaryKind::Float || K == UnaryKind::FloatOnly) {
    if constexpr (cplx)
      dispatch_floating_and_complex(t, name, f);
    else
      dispatch_floating(t, name, f);
  } else if constexpr (K == UnaryKind::Int || K == UnaryKind::IntToLong) {
    if constexpr (cplx)
      dispatch_numeric(t, name, f);
    else
      dispatch_real(t, name, f);
  } else if constexpr (K == UnaryKind::IntBool) {
    if constexpr (cplx)
      dispatch_all(t, name, f);
    else
      dispatch_real_and_bool(t, name, f);
  } else if constexpr (K == UnaryKind::Bitwise) {
    dispatch_integral_and_bool(t, name, f);
  } else {
    dispatch_all(t, name, f);
  }
}

template <UnaryKind K, UnaryComplex C, typename F>
void run_row(const TensorIterator& iter, const char* name, UnaryOpId id, F f) {
  dispatch_row<K, C>(iter.dtype(1), name, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using Out = std::conditional_t<K == UnaryKind::Logical, bool,
                                   std::conditional_t<C == UnaryComplex::CplxToReal, value_t<T>, T>>;
    if constexpr (std::is_same_v<Out, T>)
      return unary_loop_vec<T>(iter, vec::unary_vec(id), f);
    else
      unary_loop<Out, T>(iter, f);
  });
}

}  // namespace

#define EMBER_UNARY_OP(name, kind, cplx, vec, ...)                                           \
  void name##_kernel(const TensorIterator& iter) {                                        \
    run_row<UnaryKind::kind, UnaryComplex::cplx>(iter, #name, UnaryOpId::name,            \
                                                 [](auto x) { return scalar::name(x); }); \
  }
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP

}  // namespace torch::kernels
