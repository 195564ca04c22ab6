#include "ember/vmap/batched_tensor.h"

#include <atomic>
#include <mutex>

#include "ember/core/error.h"
#include "ember/core/fast_thread_local.h"
#include "ember/core/shape.h"

namespace torch::batching {

Tensor make_batched(Tensor value, int64_t bdim, int64_t level) {
  const TensorImpl& v = *value.unsafeGetTensorImpl();
  DimVector sizes(v.sizes()), strides(v.strides());
  sizes.erase(bdim);
  strides.erase(bdim);
  auto impl = make_intrusive<TensorImpl>(v.storage(), v.dtype(), sizes, strides, v.storage_offset());
  auto meta = std::make_unique<BatchedMeta>();
  meta->value = std::move(value);
  meta->bdim = bdim;
  meta->level = level;
  impl->set_batched_meta(std::move(meta));
  return Tensor(std::move(impl));
}

namespace {
EMBER_INITIAL_EXEC_TLS thread_local int64_t t_level = 0;  // Note [Fast thread_locals]

// Note [vmap hook word]
// The op-hook word's kVmap bit is set while any thread is inside vmap, and
// also while any batched tensor is alive: one kept past its vmap call then
// still meets the hooks, whose rules raise (check_in_scope) instead of an op
// reading sample 0's view. g_active counts threads inside vmap; g_live the
// batched tensors. The bit is set on entering the first vmap and cleared on
// leaving the last one when no batched tensor is left; the mutex orders one
// thread's clear against another's set. Taken once per vmap call, never per op.
std::mutex g_active_mu;
int64_t g_active = 0;
std::atomic<int64_t> g_live{0};
}  // namespace

BatchedMeta::BatchedMeta() { g_live.fetch_add(1, std::memory_order_relaxed); }
BatchedMeta::~BatchedMeta() { g_live.fetch_sub(1, std::memory_order_relaxed); }

int64_t current_level() { return t_level; }

void check_in_scope(const BatchedMeta& m) {
  EMBER_CHECK(m.level <= t_level, "vmap: a tensor batched by a vmap call (level ", m.level,
              ") is used outside that call; batched tensors are valid only inside the function vmap runs, on its "
              "thread (return them from the function instead)");
}

LevelScope::LevelScope() : level_(++t_level) {
  if (level_ == 1) {
    std::lock_guard<std::mutex> g(g_active_mu);
    if (g_active++ == 0) profiler::detail::g_state.fetch_or(profiler::detail::kVmap, std::memory_order_release);
  }
}

LevelScope::~LevelScope() {
  --t_level;
  if (level_ == 1) {
    std::lock_guard<std::mutex> g(g_active_mu);
    if (--g_active == 0 && g_live.load(std::memory_order_relaxed) == 0)
      profiler::detail::g_state.fetch_and(~profiler::detail::kVmap, std::memory_order_release);
  }
}

namespace detail {
bool batched_in(TensorList ts) {
  for (const Tensor& t : ts)
    if (is_batched(t)) return true;
  return false;
}
}  // namespace detail

}  // namespace torch::batching

namespace torch::profiler::detail {

void refuse_batched(const char* op, const Tensor& t) {
  const batching::BatchedMeta* m = batching::batched_meta(t);
  if (m == nullptr) return;
  batching::check_in_scope(*m);
  EMBER_CHECK(false, op, ": vmap has no batching rule for this op yet (a batched input of logical shape ",
              shape_str(t.sizes()), ", ", t.dtype(), ", batched over dim ", m->bdim, " of its physical shape ",
              shape_str(m->value.sizes()), " at vmap level ", m->level,
              "); compute it per sample outside vmap, or express it with ops that have rules");
}

void refuse_batched(const char* op, TensorList ts) {
  for (const Tensor& t : ts) refuse_batched(op, t);
}

}  // namespace torch::profiler::detail
