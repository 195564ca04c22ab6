#pragma once
// Inner loops for TensorIterator (see Note [The loop engine]). A kernel is a
// functor over opmath values (float for float16/bfloat16); these templates
// load, convert, call it, and store, with a branch-free contiguous path the
// compiler vectorises.
#include <algorithm>

#include "ember/kernels/cpu/reduced_float.h"
#include "ember/kernels/cpu/tensor_iterator.h"

namespace torch::kernels {

template <typename T>
inline opmath_t<T> load(const char* p) {
  return static_cast<opmath_t<T>>(*reinterpret_cast<const T*>(p));
}

// A float16/bfloat16 run of out[i] = f(in[i]), any strides, in float blocks
// (Note [Reduced-precision blocks]); Out is T or bool (predicates).
template <typename Out, typename T, typename F>
void reduced_unary_run(char* out, int64_t so, const char* in, int64_t si, int64_t n, F& f) {
  float buf[kReducedBlock];
  [[maybe_unused]] bool flags[kReducedBlock];
  for (int64_t i = 0; i < n; i += kReducedBlock) {
    const int64_t m = std::min(kReducedBlock, n - i);
    widen(reinterpret_cast<const T*>(in + i * si), si, buf, m);
    if constexpr (std::is_same_v<Out, bool>) {
      for (int64_t j = 0; j < m; ++j) flags[j] = f(buf[j]);
      store_bools(flags, reinterpret_cast<bool*>(out + i * so), so, m);
    } else {
      for (int64_t j = 0; j < m; ++j) buf[j] = static_cast<float>(f(buf[j]));
      narrow(buf, reinterpret_cast<T*>(out + i * so), so, m);
    }
  }
}

// The same for out[i] = f(a[i], b[i]) (a stride of 0 broadcasts an input).
template <typename Out, typename T, typename F>
void reduced_binary_run(char** data, const int64_t* s, int64_t n, F& f) {
  float fa[kReducedBlock], fb[kReducedBlock];
  [[maybe_unused]] bool flags[kReducedBlock];
  for (int64_t i = 0; i < n; i += kReducedBlock) {
    const int64_t m = std::min(kReducedBlock, n - i);
    widen(reinterpret_cast<const T*>(data[1] + i * s[1]), s[1], fa, m);
    widen(reinterpret_cast<const T*>(data[2] + i * s[2]), s[2], fb, m);
    if constexpr (std::is_same_v<Out, bool>) {
      for (int64_t j = 0; j < m; ++j) flags[j] = f(fa[j], fb[j]);
      store_bools(flags, reinterpret_cast<bool*>(data[0] + i * s[0]), s[0], m);
    } else {
      for (int64_t j = 0; j < m; ++j) fa[j] = static_cast<float>(f(fa[j], fb[j]));
      narrow(fa, reinterpret_cast<T*>(data[0] + i * s[0]), s[0], m);
    }
  }
}

// out[i] = f(in[i])
template <typename Out, typename In, typename F>
void unary_loop(const TensorIterator& iter, F f, int64_t grain = kGrainSize) {
  iter.for_each(
      [&](char** data, const int64_t* s, int64_t n) {
        Out* out = reinterpret_cast<Out*>(data[0]);
        const In* in = reinterpret_cast<const In*>(data[1]);
        if constexpr (is_reduced_float_v<In> && (std::is_same_v<Out, In> || std::is_same_v<Out, bool>)) {
          return reduced_unary_run<Out, In>(data[0], s[0], data[1], s[1], n, f);
        }
        if (s[0] == sizeof(Out) && s[1] == sizeof(In)) {
          for (int64_t i = 0; i < n; ++i) out[i] = static_cast<Out>(f(static_cast<opmath_t<In>>(in[i])));
        } else {
          char* po = data[0];
          const char* pi = data[1];
          for (int64_t i = 0; i < n; ++i, po += s[0], pi += s[1])
            *reinterpret_cast<Out*>(po) = static_cast<Out>(f(load<In>(pi)));
        }
      },
      grain);
}

// out[i] = f(a[i], b[i])
template <typename Out, typename A, typename B, typename F>
void binary_loop(const TensorIterator& iter, F f, int64_t grain = kGrainSize) {
  iter.for_each(
      [&](char** data, const int64_t* s, int64_t n) {
        Out* out = reinterpret_cast<Out*>(data[0]);
        const A* a = reinterpret_cast<const A*>(data[1]);
        const B* b = reinterpret_cast<const B*>(data[2]);
        if constexpr (is_reduced_float_v<A> && std::is_same_v<A, B> &&
                      (std::is_same_v<Out, A> || std::is_same_v<Out, bool>)) {
          return reduced_binary_run<Out, A>(data, s, n, f);
        }
        if (s[0] == sizeof(Out) && s[1] == sizeof(A) && s[2] == sizeof(B)) {
          for (int64_t i = 0; i < n; ++i)
            out[i] = static_cast<Out>(f(static_cast<opmath_t<A>>(a[i]), static_cast<opmath_t<B>>(b[i])));
        } else if (s[0] == sizeof(Out) && s[1] == sizeof(A) && s[2] == 0) {
          const auto bv = static_cast<opmath_t<B>>(b[0]);
          for (int64_t i = 0; i < n; ++i) out[i] = static_cast<Out>(f(static_cast<opmath_t<A>>(a[i]), bv));
        } else if (s[0] == sizeof(Out) && s[1] == 0 && s[2] == sizeof(B)) {
          const auto av = static_cast<opmath_t<A>>(a[0]);
          for (int64_t i = 0; i < n; ++i) out[i] = static_cast<Out>(f(av, static_cast<opmath_t<B>>(b[i])));
        } else {
          char* po = data[0];
          const char* pa = data[1];
          const char* pb = data[2];
          for (int64_t i = 0; i < n; ++i, po += s[0], pa += s[1], pb += s[2])
            *reinterpret_cast<Out*>(po) = static_cast<Out>(f(load<A>(pa), load<B>(pb)));
        }
      },
      grain);
}

// out[i] = f(a[i], b[i], c[i])
template <typename Out, typename A, typename B, typename C, typename F>
void ternary_loop(const TensorIterator& iter, F f, int64_t grain = kGrainSize) {
  iter.for_each(
      [&](char** data, const int64_t* s, int64_t n) {
        char* po = data[0];
        const char* pa = data[1];
        const char* pb = data[2];
        const char* pc = data[3];
        for (int64_t i = 0; i < n; ++i, po += s[0], pa += s[1], pb += s[2], pc += s[3])
          *reinterpret_cast<Out*>(po) = static_cast<Out>(f(load<A>(pa), load<B>(pb), load<C>(pc)));
      },
      grain);
}

}  // namespace torch::kernels
