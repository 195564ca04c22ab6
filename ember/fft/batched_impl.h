// The lane-parallel FFT (Note [Lane-parallel FFT] in batched.h), included by
// batched.cpp and batched_avx512.cpp inside different namespaces.
// Not a public header.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <numbers>
#include <unordered_map>
#include <vector>

#include "ember/fft/batched.h"

// The vector width in bytes: 64 (one zmm register) unless the including file says
// otherwise; the AVX2 build uses 32, one ymm register, since a 64-byte vector there is two
// registers and the radix-4/5 butterflies no longer fit the sixteen ymm registers
// (W9's stft ran 4x slower than with 32). The caller's lane groups (kLaneWidth) are
// unaffected: a group of lanes is done W at a time.
#ifndef EMBER_FFT_VEC_BYTES
#define EMBER_FFT_VEC_BYTES 64
#endif

namespace torch::fft::detail::EMBER_FFT_ISA {

template <typename T>
struct VecOf;
template <>
struct VecOf<float> {
  typedef float type __attribute__((vector_size(EMBER_FFT_VEC_BYTES)));
};
template <>
struct VecOf<double> {
  typedef double type __attribute__((vector_size(EMBER_FFT_VEC_BYTES)));
};
template <typename T>
using V = typename VecOf<T>::type;
template <typename T>
constexpr int W = EMBER_FFT_VEC_BYTES / sizeof(T);

// Closed-form butterflies: b[t] = sum_r a[r] w^(r t) with w = exp(-+2 pi i / p),
// pairing a[r] with a[p - r] so each sine and cosine multiplies a sum once
// (radix 5: 16 real multiplies per vector instead of the 80 of a matrix product).
template <typename T>
inline void butterfly3(const V<T>* ar, const V<T>* ai, V<T>* br, V<T>* bi, bool forward) {
  const T c = T(-0.5), s = static_cast<T>(forward ? -0.86602540378443864676 : 0.86602540378443864676);
  const V<T> sr = ar[1] + ar[2], si = ai[1] + ai[2], dr = ar[1] - ar[2], di = ai[1] - ai[2];
  const V<T> mr = ar[0] + sr * c, mi = ai[0] + si * c;
  br[0] = ar[0] + sr;
  bi[0] = ai[0] + si;
  // i s (d): real part -s di, imaginary part s dr.
  br[1] = mr - di * s;
  bi[1] = mi + dr * s;
  br[2] = mr + di * s;
  bi[2] = mi - dr * s;
}

template <typename T>
inline void butterfly5(const V<T>* ar, const V<T>* ai, V<T>* br, V<T>* bi, bool forward) {
  const T c1 = T(0.30901699437494742410), c2 = T(-0.80901699437494742410);
  const T sg = forward ? T(-1) : T(1);
  const T s1 = sg * T(0.95105651629515357212), s2 = sg * T(0.58778525229247312917);
  const V<T> a1r = ar[1] + ar[4], a1i = ai[1] + ai[4], b1r = ar[1] - ar[4], b1i = ai[1] - ai[4];
  const V<T> a2r = ar[2] + ar[3], a2i = ai[2] + ai[3], b2r = ar[2] - ar[3], b2i = ai[2] - ai[3];
  br[0] = ar[0] + a1r + a2r;
  bi[0] = ai[0] + a1i + a2i;
  const V<T> m1r = ar[0] + a1r * c1 + a2r * c2, m1i = ai[0] + a1i * c1 + a2i * c2;
  const V<T> m2r = ar[0] + a1r * c2 + a2r * c1, m2i = ai[0] + a1i * c2 + a2i * c1;
  // Rotated parts i (s1 b1 + s2 b2) and i (s2 b1 - s1 b2).
  const V<T> n1r = b1r * s1 + b2r * s2, n1i = b1i * s1 + b2i * s2;
  const V<T> n2r = b1r * s2 - b2r * s1, n2i = b1i * s2 - b2i * s1;
  br[1] = m1r - n1i;
  bi[1] = m1i + n1r;
  br[4] = m1r + n1i;
  bi[4] = m1i - n1r;
  br[2] = m2r - n2i;
  bi[2] = m2i + n2r;
  br[3] = m2r + n2i;
  bi[3] = m2i - n2r;
}

// One stage of the Stockham FFT: radix p over sub-transforms of length len (= p * m) at stride s.
struct Stage {
  int64_t p, m, s;
  size_t tw;   // offset of this stage's twiddles exp(+-2 pi i j t / len), [j][t]
  size_t dft;  // offset of the p-point DFT matrix (generic radix only)
};

template <typename T>
struct Plan {
  int64_t n;
  std::vector<Stage> stages;
  std::vector<T> twr, twi;    // stage twiddles
  std::vector<T> dftr, dfti;  // small DFT matrices
  int64_t max_p = 1;

  Plan(int64_t n_, bool forward) : n(n_) {
    const double sign = forward ? -1.0 : 1.0;
    std::vector<int64_t> radices;
    int64_t r = n;
    while (r % 4 == 0) radices.push_back(4), r /= 4;
    while (r % 2 == 0) radices.push_back(2), r /= 2;
    for (int64_t f = 3; f * f <= r; f += 2)
      while (r % f == 0) radices.push_back(f), r /= f;
    if (r > 1) radices.push_back(r);
    int64_t len = n, s = 1;
    for (int64_t p : radices) {
      Stage st{p, len / p, s, twr.size(), dftr.size()};
      for (int64_t j = 0; j < st.m; ++j)
        for (int64_t t = 0; t < p; ++t) {
          const double a = sign * 2 * std::numbers::pi * static_cast<double>((j * t) % len) / static_cast<double>(len);
          twr.push_back(static_cast<T>(std::cos(a)));
          twi.push_back(static_cast<T>(std::sin(a)));
        }
      if (p != 2 && p != 3 && p != 4 && p != 5) {
        for (int64_t q = 0; q < p; ++q)
          for (int64_t t = 0; t < p; ++t) {
            const double a = sign * 2 * std::numbers::pi * static_cast<double>((q * t) % p) / static_cast<double>(p);
            dftr.push_back(static_cast<T>(std::cos(a)));
            dfti.push_back(static_cast<T>(std::sin(a)));
          }
      }
      max_p = std::max(max_p, p);
      stages.push_back(st);
      len /= p;
      s *= p;
    }
  }

  // Transforms x (split re/im, n vectors each) using y as scratch; returns where the result is.
  std::pair<V<T>*, V<T>*> run(V<T>* xr, V<T>* xi, V<T>* yr, V<T>* yi, V<T>* sr, V<T>* si, bool forward) const {
    for (const Stage& st : stages) {
      const int64_t p = st.p, m = st.m, s = st.s;
      const T* wr = twr.data() + st.tw;
      const T* wi = twi.data() + st.tw;
      for (int64_t j = 0; j < m; ++j) {
        for (int64_t q = 0; q < s; ++q) {
          const int64_t in0 = q + s * j, out0 = q + s * p * j;
          if (p == 4) {
            const V<T> a0r = xr[in0], a0i = xi[in0], a1r = xr[in0 + s * m], a1i = xi[in0 + s * m];
            const V<T> a2r = xr[in0 + 2 * s * m], a2i = xi[in0 + 2 * s * m];
            const V<T> a3r = xr[in0 + 3 * s * m], a3i = xi[in0 + 3 * s * m];
            const V<T> t0r = a0r + a2r, t0i = a0i + a2i, t1r = a0r - a2r, t1i = a0i - a2i;
            const V<T> t2r = a1r + a3r, t2i = a1i + a3i;
            const V<T> dr = a1r - a3r, di = a1i - a3i;
            // (a1 - a3) * -i (forward) or * +i (inverse)
            const V<T> t3r = forward ? di : -di, t3i = forward ? -dr : dr;
            const V<T> br[4] = {t0r + t2r, t1r + t3r, t0r - t2r, t1r - t3r};
            const V<T> bi[4] = {t0i + t2i, t1i + t3i, t0i - t2i, t1i - t3i};
            yr[out0] = br[0];
            yi[out0] = bi[0];
            for (int t = 1; t < 4; ++t) {
              const T cr = wr[j * 4 + t], ci = wi[j * 4 + t];
              yr[out0 + s * t] = br[t] * cr - bi[t] * ci;
              yi[out0 + s * t] = br[t] * ci + bi[t] * cr;
            }
          } else if (p == 2) {
            const V<T> ar = xr[in0], ai = xi[in0], br = xr[in0 + s * m], bi = xi[in0 + s * m];
            const V<T> dr = ar - br, di = ai - bi;
            const T cr = wr[j * 2 + 1], ci = wi[j * 2 + 1];
            yr[out0] = ar + br;
            yi[out0] = ai + bi;
            yr[out0 + s] = dr * cr - di * ci;
            yi[out0 + s] = dr * ci + di * cr;
          } else if (p == 3 || p == 5) {
            V<T> ar[5], ai[5], br[5], bi[5];
            for (int64_t r = 0; r < p; ++r) {
              ar[r] = xr[in0 + r * s * m];
              ai[r] = xi[in0 + r * s * m];
            }
            if (p == 3)
              butterfly3<T>(ar, ai, br, bi, forward);
            else
              butterfly5<T>(ar, ai, br, bi, forward);
            yr[out0] = br[0];
            yi[out0] = bi[0];
            for (int64_t t = 1; t < p; ++t) {
              const T cr = wr[j * p + t], ci = wi[j * p + t];
              yr[out0 + s * t] = br[t] * cr - bi[t] * ci;
              yi[out0 + s * t] = br[t] * ci + bi[t] * cr;
            }
          } else {
            const T* fr = dftr.data() + st.dft;
            const T* fi = dfti.data() + st.dft;
            for (int64_t r = 0; r < p; ++r) {
              sr[r] = xr[in0 + r * s * m];
              si[r] = xi[in0 + r * s * m];
            }
            for (int64_t t = 0; t < p; ++t) {
              V<T> accr = sr[0], acci = si[0];
              for (int64_t r = 1; r < p; ++r) {
                const T cr = fr[r * p + t], ci = fi[r * p + t];
                accr += sr[r] * cr - si[r] * ci;
                acci += sr[r] * ci + si[r] * cr;
              }
              const T cr = wr[j * p + t], ci = wi[j * p + t];
              yr[out0 + s * t] = accr * cr - acci * ci;
              yi[out0 + s * t] = accr * ci + acci * cr;
            }
          }
        }
      }
      std::swap(xr, yr);
      std::swap(xi, yi);
    }
    return {xr, xi};
  }
};

template <typename T>
const Plan<T>& plan(int64_t n, bool forward) {
  thread_local std::unordered_map<int64_t, std::unique_ptr<Plan<T>>> cache;
  const int64_t key = 2 * n + (forward ? 1 : 0);
  auto it = cache.find(key);
  if (it != cache.end()) return *it->second;
  if (cache.size() >= 64) cache.clear();
  return *cache.emplace(key, std::make_unique<Plan<T>>(n, forward)).first->second;
}

// 64-byte aligned scratch: x, y (2 x n split vectors each) and the generic-radix buffer.
template <typename T>
struct Work {
  V<T>* buf;
  int64_t n;
  Work(int64_t n_, int64_t max_p) : n(n_) {
    const size_t bytes = sizeof(V<T>) * static_cast<size_t>(4 * n + 2 * max_p);
    buf = static_cast<V<T>*>(std::aligned_alloc(64, bytes));
    if (buf == nullptr) throw std::bad_alloc();
  }
  ~Work() { std::free(buf); }
  Work(const Work&) = delete;
  Work& operator=(const Work&) = delete;
  V<T>* xr() { return buf; }
  V<T>* xi() { return buf + n; }
  V<T>* yr() { return buf + 2 * n; }
  V<T>* yi() { return buf + 3 * n; }
  V<T>* sr() { return buf + 4 * n; }
  V<T>* si(int64_t max_p) { return buf + 4 * n + max_p; }
};

template <typename T>
void c2c(const std::complex<T>* in, LaneMap im, std::complex<T>* out, LaneMap om, int64_t n, int64_t begin, int64_t end,
         bool forward, T scale) {
  const Plan<T>& pl = plan<T>(n, forward);
  Work<T> w(n, pl.max_p);
  for (int64_t g = begin; g < end; g += W<T>) {
    const int lanes = static_cast<int>(std::min<int64_t>(W<T>, end - g));
    T* xr = reinterpret_cast<T*>(w.xr());
    T* xi = reinterpret_cast<T*>(w.xi());
    for (int l = 0; l < W<T>; ++l) {
      if (l >= lanes) {
        for (int64_t k = 0; k < n; ++k) xr[k * W<T> + l] = xi[k * W<T> + l] = 0;
        continue;
      }
      const std::complex<T>* src = in + im.base(g + l);
      for (int64_t k = 0; k < n; ++k) {
        xr[k * W<T> + l] = src[k * im.stride].real();
        xi[k * W<T> + l] = src[k * im.stride].imag();
      }
    }
    auto [rr, ri] = pl.run(w.xr(), w.xi(), w.yr(), w.yi(), w.sr(), w.si(pl.max_p), forward);
    const T* resr = reinterpret_cast<const T*>(rr);
    const T* resi = reinterpret_cast<const T*>(ri);
    for (int l = 0; l < lanes; ++l) {
      std::complex<T>* dst = out + om.base(g + l);
      for (int64_t k = 0; k < n; ++k)
        dst[k * om.stride] = std::complex<T>(resr[k * W<T> + l] * scale, resi[k * W<T> + l] * scale);
    }
  }
}

template <typename T>
void r2c(const T* in, LaneMap im, const T* window, std::complex<T>* out, LaneMap om, int64_t n, int64_t bins,
         int64_t begin, int64_t end, T scale) {
  const Plan<T>& pl = plan<T>(n, true);
  Work<T> w(n, pl.max_p);
  const T half = scale * T(0.5);
  for (int64_t g = begin; g < end; g += 2 * W<T>) {
    const int lanes = static_cast<int>(std::min<int64_t>(2 * W<T>, end - g));
    T* xr = reinterpret_cast<T*>(w.xr());
    T* xi = reinterpret_cast<T*>(w.xi());
    // Lane l < W goes to the real part of vector lane l, lane W + l to its imaginary part.
    for (int l = 0; l < 2 * W<T>; ++l) {
      T* dst = (l < W<T> ? xr : xi) + (l % W<T>);
      if (l >= lanes) {
        for (int64_t k = 0; k < n; ++k) dst[k * W<T>] = 0;
        continue;
      }
      const T* src = in + im.base(g + l);
      if (window != nullptr)
        for (int64_t k = 0; k < n; ++k) dst[k * W<T>] = src[k * im.stride] * window[k];
      else
        for (int64_t k = 0; k < n; ++k) dst[k * W<T>] = src[k * im.stride];
    }
    auto [rr, ri] = pl.run(w.xr(), w.xi(), w.yr(), w.yi(), w.sr(), w.si(pl.max_p), true);
    // Separate: A[k] = (Z[k] + conj Z[n-k]) / 2, B[k] = (Z[k] - conj Z[n-k]) / 2i.
    const int64_t hb = std::min(bins, n / 2 + 1);
    V<T>* ar = w.yr() == rr ? w.xr() : w.yr();  // the free pair of buffers
    V<T>* ai = w.yr() == rr ? w.xi() : w.yi();
    for (int64_t k = 0; k < hb; ++k) {
      const int64_t nk = k == 0 ? 0 : n - k;
      const V<T> zr = rr[k], zi = ri[k], cr = rr[nk], ci = ri[nk];
      ar[k] = (zr + cr) * half;
      ai[k] = (zi - ci) * half;
      rr[k] = (zi + ci) * half;  // B's real part (rr/ri rows k are read above and by no later k' < hb
      ri[k] = (cr - zr) * half;  // except as nk = n - k' > n/2 >= k, untouched here)
    }
    const T* a_r = reinterpret_cast<const T*>(ar);
    const T* a_i = reinterpret_cast<const T*>(ai);
    const T* b_r = reinterpret_cast<const T*>(rr);
    const T* b_i = reinterpret_cast<const T*>(ri);
    for (int l = 0; l < lanes; ++l) {
      std::complex<T>* dst = out + om.base(g + l);
      const T* pr = l < W<T> ? a_r : b_r;
      const T* pi = l < W<T> ? a_i : b_i;
      const int v = l % W<T>;
      for (int64_t k = 0; k < hb; ++k) dst[k * om.stride] = std::complex<T>(pr[k * W<T> + v], pi[k * W<T> + v]);
      // Two-sided output: the upper bins are conjugates of their mirrors.
      for (int64_t k = hb; k < bins; ++k) {
        const int64_t mk = n - k;
        dst[k * om.stride] = std::complex<T>(pr[mk * W<T> + v], -pi[mk * W<T> + v]);
      }
    }
  }
}

template <typename T>
void c2r(const std::complex<T>* in, LaneMap im, T* out, LaneMap om, int64_t n, int64_t begin, int64_t end, T scale) {
  const Plan<T>& pl = plan<T>(n, false);
  Work<T> w(n, pl.max_p);
  const int64_t h = n / 2 + 1;
  for (int64_t g = begin; g < end; g += 2 * W<T>) {
    const int lanes = static_cast<int>(std::min<int64_t>(2 * W<T>, end - g));
    T* xr = reinterpret_cast<T*>(w.xr());
    T* xi = reinterpret_cast<T*>(w.xi());
    std::fill(xr, xr + n * W<T>, T(0));
    std::fill(xi, xi + n * W<T>, T(0));
    // Z = A + i B over the full Hermitian spectra: lane l < W is A, lane W + l is B.
    for (int l = 0; l < lanes; ++l) {
      const std::complex<T>* src = in + im.base(g + l);
      const int v = l % W<T>;
      const bool is_b = l >= W<T>;
      for (int64_t k = 0; k < h; ++k) {
        std::complex<T> c = src[k * im.stride];
        if (k == 0 || 2 * k == n) c = {c.real(), T(0)};
        // A contributes c to bin k and conj(c) to bin n-k; B contributes i c and i conj(c).
        const T re = is_b ? -c.imag() : c.real(), imv = is_b ? c.real() : c.imag();
        xr[k * W<T> + v] += re;
        xi[k * W<T> + v] += imv;
        if (k != 0 && 2 * k != n) {
          const int64_t mk = n - k;
          const T re2 = is_b ? c.imag() : c.real(), im2 = is_b ? c.real() : -c.imag();
          xr[mk * W<T> + v] += re2;
          xi[mk * W<T> + v] += im2;
        }
      }
    }
    auto [rr, ri] = pl.run(w.xr(), w.xi(), w.yr(), w.yi(), w.sr(), w.si(pl.max_p), false);
    const T* resr = reinterpret_cast<const T*>(rr);
    const T* resi = reinterpret_cast<const T*>(ri);
    for (int l = 0; l < lanes; ++l) {
      T* dst = out + om.base(g + l);
      const T* p = l < W<T> ? resr : resi;
      const int v = l % W<T>;
      for (int64_t k = 0; k < n; ++k) dst[k * om.stride] = p[k * W<T> + v] * scale;
    }
  }
}

}  // namespace torch::fft::detail::EMBER_FFT_ISA
