#include "ember/linalg/lapack.h"

#include <cblas.h>

#include <vector>

// LAPACKE's complex types are laid out as std::complex; say so before the header.
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>

namespace torch::linalg::lapack {

namespace {

constexpr int kCol = LAPACK_COL_MAJOR;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

// LAPACKE scans every input for NaN by default and then refuses to run; PyTorch
// lets NaN propagate through the factorization, so the scan is turned off once.
struct NanCheckOff {
  NanCheckOff() { LAPACKE_set_nancheck(0); }
};
const NanCheckOff kNanCheckOff;

// Real geev returns conjugate pairs as (re, im) column pairs; unpack them into
// complex eigenvectors as PyTorch returns them.
template <typename R>
void unpack_real_eigvecs(int n, const R* wi, const R* vr, std::complex<R>* v) {
  for (int j = 0; j < n; ++j) {
    if (wi[j] != 0 && j + 1 < n) {
      for (int i = 0; i < n; ++i) {
        const R re = vr[i + j * n], im = vr[i + (j + 1) * n];
        v[i + j * n] = {re, im};
        v[i + (j + 1) * n] = {re, -im};
      }
      ++j;
    } else {
      for (int i = 0; i < n; ++i) v[i + j * n] = {vr[i + j * n], 0};
    }
  }
}

template <typename R, typename F>
int geev_real(bool vectors, int n, R* a, int lda, std::complex<R>* w, std::complex<R>* v, F call) {
  std::vector<R> wr(n), wi(n), vr(vectors ? size_t(n) * n : 1);
  const int info = call(LAPACK_COL_MAJOR, 'N', vectors ? 'V' : 'N', n, a, lda, wr.data(), wi.data(), nullptr, 1,
                        vr.data(), vectors ? n : 1);
  for (int j = 0; j < n; ++j) w[j] = {wr[j], wi[j]};
  if (vectors) unpack_real_eigvecs(n, wi.data(), vr.data(), v);
  return info;
}

CBLAS_SIDE side(bool left) { return left ? CblasLeft : CblasRight; }
CBLAS_UPLO uplo(bool upper) { return upper ? CblasUpper : CblasLower; }
CBLAS_DIAG diag(bool unit) { return unit ? CblasUnit : CblasNonUnit; }

}  // namespace

// ---- float / double ---------------------------------------------------------------
#define EMBER_LAPACK_REAL(T, p)                                                                                    \
  int getrf(int m, int n, T* a, int lda, int* ipiv) { return LAPACKE_##p##getrf(kCol, m, n, a, lda, ipiv); }       \
  int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb) {                    \
    return LAPACKE_##p##getrs(kCol, trans, n, nrhs, a, lda, ipiv, b, ldb);                                         \
  }                                                                                                                \
  int potrf(char uplo, int n, T* a, int lda) { return LAPACKE_##p##potrf(kCol, uplo, n, a, lda); }                 \
  void trsm(bool left, bool upper, bool unit, int m, int n, const T* a, int lda, T* b, int ldb) {                  \
    cblas_##p##trsm(CblasColMajor, side(left), uplo(upper), CblasNoTrans, diag(unit), m, n, T(1), a, lda, b, ldb); \
  }                                                                                                                \
  int geqrf(int m, int n, T* a, int lda, T* tau) { return LAPACKE_##p##geqrf(kCol, m, n, a, lda, tau); }           \
  int orgqr(int m, int n, int k, T* a, int lda, const T* tau) {                                                    \
    return LAPACKE_##p##orgqr(kCol, m, n, k, a, lda, tau);                                                         \
  }                                                                                                                \
  int heevd(char jobz, char uplo, int n, T* a, int lda, T* w) {                                                    \
    return LAPACKE_##p##syevd(kCol, jobz, uplo, n, a, lda, w);                                                     \
  }                                                                                                                \
  int geev(bool vectors, int n, T* a, int lda, std::complex<T>* w, std::complex<T>* v) {                           \
    return geev_real<T>(vectors, n, a, lda, w, v, LAPACKE_##p##geev);                                              \
  }                                                                                                                \
  int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt) {                        \
    return LAPACKE_##p##gesdd(kCol, jobz, m, n, a, lda, s, u, ldu, vt, ldvt);                                      \
  }                                                                                                                \
  int gels(int m, int n, int nrhs, T* a, int lda, T* b, int ldb) {                                                 \
    return LAPACKE_##p##gels(kCol, 'N', m, n, nrhs, a, lda, b, ldb);                                               \
  }                                                                                                                \
  int gelsy(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, double rcond, int* rank) {                       \
    std::vector<int> jpvt(n, 0);                                                                                   \
    return LAPACKE_##p##gelsy(kCol, m, n, nrhs, a, lda, b, ldb, jpvt.data(), T(rcond), rank);                      \
  }                                                                                                                \
  int gelsd(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, double rcond, int* rank) {                 \
    return LAPACKE_##p##gelsd(kCol, m, n, nrhs, a, lda, b, ldb, s, T(rcond), rank);                                \
  }                                                                                                                \
  int gelss(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, double rcond, int* rank) {                 \
    return LAPACKE_##p##gelss(kCol, m, n, nrhs, a, lda, b, ldb, s, T(rcond), rank);                                \
  }

EMBER_LAPACK_REAL(float, s)
EMBER_LAPACK_REAL(double, d)
#undef EMBER_LAPACK_REAL

// ---- complex64 / complex128 -------------------------------------------------------
#define EMBER_LAPACK_COMPLEX(T, R, p)                                                                              \
  int getrf(int m, int n, T* a, int lda, int* ipiv) { return LAPACKE_##p##getrf(kCol, m, n, a, lda, ipiv); }       \
  int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb) {                    \
    return LAPACKE_##p##getrs(kCol, trans, n, nrhs, a, lda, ipiv, b, ldb);                                         \
  }                                                                                                                \
  int potrf(char uplo, int n, T* a, int lda) { return LAPACKE_##p##potrf(kCol, uplo, n, a, lda); }                 \
  void trsm(bool left, bool upper, bool unit, int m, int n, const T* a, int lda, T* b, int ldb) {                  \
    const T one(1);                                                                                                \
    cblas_##p##trsm(CblasColMajor, side(left), uplo(upper), CblasNoTrans, diag(unit), m, n, &one, a, lda, b, ldb); \
  }                                                                                                                \
  int geqrf(int m, int n, T* a, int lda, T* tau) { return LAPACKE_##p##geqrf(kCol, m, n, a, lda, tau); }           \
  int orgqr(int m, int n, int k, T* a, int lda, const T* tau) {                                                    \
    return LAPACKE_##p##ungqr(kCol, m, n, k, a, lda, tau);                                                         \
  }                                                                                                                \
  int heevd(char jobz, char uplo, int n, T* a, int lda, R* w) {                                                    \
    return LAPACKE_##p##heevd(kCol, jobz, uplo, n, a, lda, w);                                                     \
  }                                                                                                                \
  int geev(bool vectors, int n, T* a, int lda, T* w, T* v) {                                                       \
    return LAPACKE_##p##geev(kCol, 'N', vectors ? 'V' : 'N', n, a, lda, w, nullptr, 1, vectors ? v : nullptr,      \
                             vectors ? n : 1);                                                                     \
  }                                                                                                                \
  int gesdd(char jobz, int m, int n, T* a, int lda, R* s, T* u, int ldu, T* vt, int ldvt) {                        \
    return LAPACKE_##p##gesdd(kCol, jobz, m, n, a, lda, s, u, ldu, vt, ldvt);                                      \
  }                                                                                                                \
  int gels(int m, int n, int nrhs, T* a, int lda, T* b, int ldb) {                                                 \
    return LAPACKE_##p##gels(kCol, 'N', m, n, nrhs, a, lda, b, ldb);                                               \
  }                                                                                                                \
  int gelsy(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, double rcond, int* rank) {                       \
    std::vector<int> jpvt(n, 0);                                                                                   \
    return LAPACKE_##p##gelsy(kCol, m, n, nrhs, a, lda, b, ldb, jpvt.data(), R(rcond), rank);                      \
  }                                                                                                                \
  int gelsd(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, R* s, double rcond, int* rank) {                 \
    return LAPACKE_##p##gelsd(kCol, m, n, nrhs, a, lda, b, ldb, s, R(rcond), rank);                                \
  }                                                                                                                \
  int gelss(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, R* s, double rcond, int* rank) {                 \
    return LAPACKE_##p##gelss(kCol, m, n, nrhs, a, lda, b, ldb, s, R(rcond), rank);                                \
  }

EMBER_LAPACK_COMPLEX(c64, float, c)
EMBER_LAPACK_COMPLEX(c128, double, z)
#undef EMBER_LAPACK_COMPLEX

}  // namespace torch::linalg::lapack
