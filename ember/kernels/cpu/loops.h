#pragma once
// Inner loops for TensorIterator (see Note [The loop engine]). A kernel is a
// functor over opmath values (float for float16/bfloat16); these templates
// load, convert, call it, and store, with a branch-free contiguous path the
// compiler vectorises.
#include "ember/kernels/cpu/tensor_iterator.h"

namespace ember::kernels {

template <typename T>
inline opmath_t<T> load(const char* p) {
  return static_cast<opmath_t<T>>(*reinterpret_cast<const T*>(p));
}

// out[i] = f(in[i])
template <typename Out, typename In, typename F>
void unary_loop(const TensorIterator& iter, F f, int64_t grain = kGrainSize) {
  iter.for_each(
      [&](char** data, const int64_t* s, int64_t n) {
        Out* out = reinterpret_cast<Out*>(data[0]);
        const In* in = reinterpret_cast<const In*>(data[1]);
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

}  // namespace ember::kernels
