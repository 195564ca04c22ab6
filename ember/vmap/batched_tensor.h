#pragma once
// Batched tensors: what a function sees of a vmapped input. A batched tensor
// is a logical tensor (the batch dimension removed from its sizes) that
// carries the physical tensor it stands for, which dimension of that tensor
// is the batch, and the vmap level that made it.
//
// Note [vmap hooks]
// Ember has no dispatcher, so batching rules are reached from the ops
// themselves: an op family's entry asks `any_batched(inputs...)` and, when it
// holds, hands the call to its rule (ember/vmap/batching_rules.h), which runs
// the same op on the physical tensors and wraps the result. The question
// costs one test of the op-hook word (core/record_scope.h) that the profiler
// already reads: its kVmap bit is set while any thread is inside vmap, and
// only then are the inputs' batched slots looked at. An op without a rule
// still opens an EMBER_RECORD_OP scope, which under the same bit refuses a
// batched input with an error naming the op, so a batched tensor never
// reaches a kernel (whose result would silently be that of sample 0).
//
// Nesting: each vmap has a level (1 for the outermost on a thread). The
// physical tensor of a level-L batched tensor may itself be batched at a
// lower level; a rule peels the highest level among its inputs and calls the
// op again, which peels the next.
#include <cstdint>
#include <initializer_list>

#include "ember/core/record_scope.h"
#include "ember/core/tensor.h"

namespace torch::batching {

struct BatchedMeta final : BatchedMetaBase {
  BatchedMeta();
  ~BatchedMeta() override;
  BatchedMeta(const BatchedMeta&) = delete;
  BatchedMeta& operator=(const BatchedMeta&) = delete;
  Tensor value;       // the physical tensor
  int64_t bdim = 0;   // its batch dimension
  int64_t level = 0;  // the vmap that made it
};

inline const BatchedMeta* batched_meta(const Tensor& t) {
  return t.defined() ? static_cast<const BatchedMeta*>(t.unsafeGetTensorImpl()->batched_meta()) : nullptr;
}
inline bool is_batched(const Tensor& t) { return batched_meta(t) != nullptr; }

// The logical tensor for `value` batched along `bdim` at `level`: its sizes
// and strides are value's without bdim (it views sample 0's elements, so
// metadata reads are real, but no op runs on it: see Note [vmap hooks]).
Tensor make_batched(Tensor value, int64_t bdim, int64_t level);

// The vmap level of the calling thread (0 outside vmap).
int64_t current_level();

// Raises when `m` belongs to a vmap that is not running on this thread (a
// batched tensor kept past its vmap call, or handed to another thread).
void check_in_scope(const BatchedMeta& m);

// Enters one vmap level on this thread for the scope's lifetime.
class LevelScope {
 public:
  LevelScope();
  ~LevelScope();
  LevelScope(const LevelScope&) = delete;
  LevelScope& operator=(const LevelScope&) = delete;
  int64_t level() const { return level_; }

 private:
  int64_t level_;
};

namespace detail {
inline bool hooks_on() { return (profiler::detail::state_word() & profiler::detail::kVmap) != 0; }
inline bool batched_in(const Tensor& t) { return is_batched(t); }
inline bool batched_in(const Tensor* t) { return t != nullptr && is_batched(*t); }
inline bool batched_in(const std::optional<Tensor>& t) { return t && is_batched(*t); }
bool batched_in(TensorList ts);
inline bool batched_in(const std::vector<Tensor>& ts) { return batched_in(TensorList(ts)); }
}  // namespace detail

// The op-entry question of Note [vmap hooks]: one word test outside vmap.
template <typename... Inputs>
inline bool any_batched(const Inputs&... inputs) {
  if (!detail::hooks_on()) [[likely]]
    return false;
  return (detail::batched_in(inputs) || ...);
}

}  // namespace torch::batching

// The entry line of an op written only with other ops (a composite, e.g. the
// pointwise losses), each of which takes its own batched inputs or refuses
// them: recorded for the profiler as EMBER_RECORD_OP, but a batched input
// is not refused here (the scope is anonymous then, so inside vmap only the
// inner ops show in a profile). Not for ops that read memory themselves.
#define EMBER_RECORD_COMPOSITE_OP(name, ...) \
  EMBER_RECORD_OP(::ember::batching::any_batched(__VA_ARGS__) ? nullptr : (name), __VA_ARGS__)
