#pragma once
// Typed, column-major entry points into LAPACK (through LAPACKE) and BLAS trsm,
// one overload per dtype Ember's linalg supports (float, double, complex64,
// complex128). Internal to ember/linalg: callers hand in column-major buffers
// (see batch.h) and get LAPACK's info code back.
#include <complex>
#include <cstdint>

#include "ember/core/namespace.h"

namespace torch::linalg::lapack {

template <typename T>
struct RealOf {
  using type = T;
};
template <typename T>
struct RealOf<std::complex<T>> {
  using type = T;
};
template <typename T>
using real_t = typename RealOf<T>::type;

#define EMBER_LAPACK_DECLARE(T)                                                                           \
  int getrf(int m, int n, T* a, int lda, int* ipiv);                                                      \
  int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb);            \
  int potrf(char uplo, int n, T* a, int lda);                                                             \
  void trsm(bool left, bool upper, bool unit, int m, int n, const T* a, int lda, T* b, int ldb);          \
  int geqrf(int m, int n, T* a, int lda, T* tau);                                                         \
  int orgqr(int m, int n, int k, T* a, int lda, const T* tau);                                            \
  int heevd(char jobz, char uplo, int n, T* a, int lda, real_t<T>* w);                                    \
  int geev(bool vectors, int n, T* a, int lda, std::complex<real_t<T>>* w, std::complex<real_t<T>>* v);   \
  int gesdd(char jobz, int m, int n, T* a, int lda, real_t<T>* s, T* u, int ldu, T* vt, int ldvt);        \
  int gels(int m, int n, int nrhs, T* a, int lda, T* b, int ldb);                                         \
  int gelsy(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, double rcond, int* rank);               \
  int gelsd(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, real_t<T>* s, double rcond, int* rank); \
  int gelss(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, real_t<T>* s, double rcond, int* rank);

EMBER_LAPACK_DECLARE(float)
EMBER_LAPACK_DECLARE(double)
EMBER_LAPACK_DECLARE(std::complex<float>)
EMBER_LAPACK_DECLARE(std::complex<double>)
#undef EMBER_LAPACK_DECLARE

}  // namespace torch::linalg::lapack
