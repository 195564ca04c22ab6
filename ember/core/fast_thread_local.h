#pragma once
// A per-thread object reached in one instruction, for the state the small-op
// path touches on every op (the allocator's and the object pools' free lists,
// the leaf-accumulator cache).
//
// Note [Fast thread_locals]
// Two costs hide in a plain `thread_local T` inside a shared library:
// - a T with a destructor is reached through a wrapper that tests an
//   initialisation guard on every access;
// - the library might be dlopen'ed after start-up, so the compiler reaches any
//   of its thread_locals through a TLS-descriptor call (`_dl_tlsdesc_return`),
//   22 such calls per op before this (callgrind of bench/SPEC.md W1).
// FastThreadLocal keeps only a pointer in TLS, with no destructor, in the
// initial-exec model (one %fs-relative load). The object itself is created on
// first use and owned by a second, ordinary thread_local whose destructor
// marks the pointer dead before destroying the object, so a use during thread
// exit (another thread_local's destructor freeing a tensor) sees null instead
// of a dangling pointer. The initial-exec pointers of the whole library are a
// few dozen bytes, well inside the static TLS surplus glibc keeps for
// libraries loaded later (the Python module loads Ember that way).
#include <memory>

#define EMBER_INITIAL_EXEC_TLS [[gnu::tls_model("initial-exec")]]

#include "ember/core/namespace.h"

namespace torch::detail {

// T must be default-constructible; each T gets its own thread_locals.
template <typename T>
class FastThreadLocal {
 public:
  // This thread's T, created on first use; null once the thread's exit began.
  static T* get() {
    T* p = t_ptr;
    if (p == nullptr) [[unlikely]]
      p = create();
    return p == dead() ? nullptr : p;
  }

 private:
  struct Owner {
    std::unique_ptr<T> obj;
    ~Owner() { t_ptr = dead(); }  // `obj` is destroyed right after this body
  };
  static inline char dead_tag;
  EMBER_INITIAL_EXEC_TLS static inline constinit thread_local T* t_ptr = nullptr;
  static inline thread_local Owner t_owner;

  static T* dead() { return reinterpret_cast<T*>(&dead_tag); }
  [[gnu::noinline]] static T* create() {
    t_owner.obj = std::make_unique<T>();  // first use registers Owner's destructor
    t_ptr = t_owner.obj.get();
    return t_ptr;
  }
};

}  // namespace torch::detail
