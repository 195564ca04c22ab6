#pragma once
// The profiler's hook into every op: EMBER_RECORD_OP("add", self, other) at an
// op's entry opens a scope that the profiler (ember/profiler) records while a
// profile is active.
//
// Note [Profiler hook cost]
// When no profile is active the scope costs one relaxed load of a global word
// and one predictable branch; everything else (clock reads, input shapes,
// stack capture, the event buffer) sits behind that branch in out-of-line
// functions. The scope's destructor tests `active_`, a local the compiler
// knows is false on the not-profiling path, so it folds away. The hook lives
// in core because ops (below the profiler in the layering) call it; the
// recording machinery itself lives in ember/profiler/collector.cpp.
#include <atomic>
#include <cstdint>
#include <string>

#include "ember/core/tensor.h"

namespace ember::profiler {

namespace detail {
// Bits of g_state.
constexpr uint32_t kRecordOps = 1;
constexpr uint32_t kRecordMemory = 2;
extern std::atomic<uint32_t> g_state;

// Out-of-line halves of RecordScope (ember/profiler/collector.cpp).
void begin_op(const char* name, bool aten_prefix);
void begin_named(std::string name, int64_t sequence_nr, bool backward);
bool wants_shapes();
void add_input_shape(const Tensor& t);
void add_input_shapes(TensorList ts);
void add_input_scalar();
void end_op();
// Tags the innermost open op on this thread as the forward op of the autograd
// node with this sequence number.
void note_sequence_nr(uint64_t sequence_nr);
// Allocator hook: bytes allocated (+) or freed (-) on the calling thread.
void note_memory(int64_t delta);

inline void shape_of(const Tensor& t) { add_input_shape(t); }
inline void shape_of(const Tensor* t) {
  if (t != nullptr)
    add_input_shape(*t);
  else
    add_input_scalar();
}
inline void shape_of(TensorList ts) { add_input_shapes(ts); }
inline void shape_of(const std::vector<Tensor>& ts) { add_input_shapes(ts); }
}  // namespace detail

inline bool is_profiling() { return (detail::g_state.load(std::memory_order_relaxed) & detail::kRecordOps) != 0; }
inline bool is_profiling_memory() {
  return (detail::g_state.load(std::memory_order_relaxed) & detail::kRecordMemory) != 0;
}

class RecordScope {
 public:
  RecordScope() = default;
  // An op scope: `name` is a string literal (the op's PyTorch name); inputs
  // are Tensors, Tensor pointers (nullptr = a Scalar operand) or TensorLists.
  template <typename... Inputs>
  explicit RecordScope(const char* name, const Inputs&... inputs) {
    if (is_profiling()) [[unlikely]]
      start(name, inputs...);
  }
  ~RecordScope() {
    if (active_) [[unlikely]]
      detail::end_op();
  }
  RecordScope(const RecordScope&) = delete;
  RecordScope& operator=(const RecordScope&) = delete;

  // A scope with a computed name (record_function labels, backward nodes).
  void start_named(std::string name, int64_t sequence_nr = -1, bool backward = false) {
    detail::begin_named(std::move(name), sequence_nr, backward);
    active_ = true;
  }

 private:
  template <typename... Inputs>
  [[gnu::noinline, gnu::cold]] void start(const char* name, const Inputs&... inputs) {
    detail::begin_op(name, true);
    active_ = true;
    if (detail::wants_shapes()) (detail::shape_of(inputs), ...);
  }
  bool active_ = false;
};

}  // namespace ember::profiler

#define EMBER_RECORD_CONCAT_(a, b) a##b
#define EMBER_RECORD_NAME_(line) EMBER_RECORD_CONCAT_(ember_record_scope_, line)
// One line at an op's entry; see Note [Profiler hook cost].
#define EMBER_RECORD_OP(name, ...) \
  ::ember::profiler::RecordScope EMBER_RECORD_NAME_(__LINE__)(name __VA_OPT__(, ) __VA_ARGS__)
