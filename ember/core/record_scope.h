#pragma once
// The profiler's hook into every op: EMBER_RECORD_OP("add", self, other) at an
// op's entry opens a scope that the profiler (ember/profiler) records while a
// profile is active.
//
// Note [Profiler hook cost]
// When no profile is active a scope costs one test of a global word and one
// predictable branch at entry, and at exit the test of a local flag;
// everything else (clock reads, input shapes, stack capture, the event
// buffer) sits behind the entry branch in out-of-line functions. Inside
// libember (EMBER_BUILDING_LIBRARY) the word has hidden visibility, so it is
// read RIP-relative instead of through a GOT load. Code outside the library
// (record_function, user ops) asks an exported function instead of reading
// the word: an executable referencing a library variable gets a copy
// relocation of it, and the library's hidden accesses would not see the
// copy. The flag that the
// exit tests is a value returned by the cold path, never written through
// `this`, so the compiler keeps it in a register. The allocator's memory
// accounting does not read this word: it shares the allocator's own slow-path
// word (Note [Allocator slow paths]), so a plain op pays no extra test per
// allocation. The hook lives in core because ops (below the profiler in the
// layering) call it; the recording machinery lives in
// ember/profiler/collector.cpp.
#include <atomic>
#include <cstdint>
#include <string>

#include "ember/core/tensor.h"

namespace torch::profiler {

namespace detail {
// Bits of g_state.
constexpr uint32_t kRecordOps = 1;
constexpr uint32_t kRecordMemory = 2;
// Some thread is inside vmap, or a batched tensor is alive (Note [vmap hooks]
// and Note [vmap hook word] in ember/vmap/batched_tensor.{h,cpp}): an op scope
// then refuses batched inputs, which reach it only when the op has no
// batching rule.
constexpr uint32_t kVmap = 4;
// The state word for code outside the library (exported, out of line).
uint32_t exported_state_word();
#if defined(EMBER_BUILDING_LIBRARY)
#if defined(__ELF__)
extern std::atomic<uint32_t> g_state __attribute__((visibility("hidden")));
#else
extern std::atomic<uint32_t> g_state;
#endif
inline uint32_t state_word() { return g_state.load(std::memory_order_relaxed); }
#else
inline uint32_t state_word() { return exported_state_word(); }
#endif

// Out-of-line halves of RecordScope (ember/profiler/collector.cpp).
void begin_op(const char* name);
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
// Turns the allocator's calls of note_memory on or off (core/allocator.cpp).
void set_allocator_memory_reporting(bool on);

inline void shape_of(const Tensor& t) { add_input_shape(t); }
inline void shape_of(const Tensor* t) {
  if (t != nullptr)
    add_input_shape(*t);
  else
    add_input_scalar();
}
inline void shape_of(const std::optional<Tensor>& t) {
  if (t && t->defined())
    add_input_shape(*t);
  else
    add_input_scalar();
}
inline void shape_of(TensorList ts) { add_input_shapes(ts); }
inline void shape_of(const std::vector<Tensor>& ts) { add_input_shapes(ts); }

// Raises, naming the op, when an input is a tensor batched by vmap
// (ember/vmap/batched_tensor.cpp).
void refuse_batched(const char* op, const Tensor& t);
void refuse_batched(const char* op, TensorList ts);
inline void refuse_batched(const char* op, const Tensor* t) {
  if (t != nullptr) refuse_batched(op, *t);
}
inline void refuse_batched(const char* op, const std::optional<Tensor>& t) {
  if (t) refuse_batched(op, *t);
}
inline void refuse_batched(const char* op, const std::vector<Tensor>& ts) { refuse_batched(op, TensorList(ts)); }
}  // namespace detail

inline bool is_profiling() { return (detail::state_word() & detail::kRecordOps) != 0; }
inline bool is_profiling_memory() { return (detail::state_word() & detail::kRecordMemory) != 0; }

class RecordScope {
 public:
  RecordScope() = default;
  // An op scope: `name` is a string literal (the op's PyTorch name without
  // "aten::"), or nullptr for a call that records nothing (an op reused
  // inside another whose PyTorch counterpart shows no such child); inputs are
  // Tensors, Tensor pointers (nullptr = a Scalar operand), optional Tensors or
  // TensorLists.
  template <typename... Inputs>
  explicit RecordScope(const char* name, const Inputs&... inputs) {
    if ((detail::state_word() & (detail::kRecordOps | detail::kVmap)) != 0) [[unlikely]]
      active_ = start(name, inputs...);
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
  [[gnu::noinline, gnu::cold]] static bool start(const char* name, const Inputs&... inputs) {
    if (name == nullptr) return false;
    if ((detail::state_word() & detail::kVmap) != 0) (detail::refuse_batched(name, inputs), ...);
    if (!is_profiling()) return false;
    detail::begin_op(name);
    if (detail::wants_shapes()) (detail::shape_of(inputs), ...);
    return true;
  }
  bool active_ = false;
};

}  // namespace torch::profiler

#define EMBER_RECORD_CONCAT_(a, b) a##b
#define EMBER_RECORD_NAME_(line) EMBER_RECORD_CONCAT_(ember_record_scope_, line)
// One line at an op's entry; see Note [Profiler hook cost].
#define EMBER_RECORD_OP(name, ...) \
  ::ember::profiler::RecordScope EMBER_RECORD_NAME_(__LINE__)(name __VA_OPT__(, ) __VA_ARGS__)
