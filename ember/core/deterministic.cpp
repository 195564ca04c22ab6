#include "ember/core/deterministic.h"

#include <mutex>
#include <set>
#include <string>

#include "ember/core/error.h"
#include "ember/core/warning.h"

namespace torch {

// Note [Deterministic algorithms]
// Ember's CPU kernels split work statically (parallel_for hands thread t the
// t-th contiguous chunk) and merge partial results in an order fixed by the
// sizes (Note [The reduction engine]), so for a given thread count almost
// every op gives bitwise-identical results run after run. The audit of the
// kernels that write through computed indices, where two threads could race
// on one element:
// - index_put_ without accumulate (also index_copy_, which is built on it)
//   writes in parallel; with repeated indices the element that wins depends on
//   thread timing. Deterministic mode runs it serially: the last occurrence
//   in index order wins, as PyTorch's deterministic variant does.
// - index_put_ with accumulate / index_add_ are serial; scatter/scatter_add/
//   scatter_reduce split over positions outside `dim`, which never share a
//   destination; embedding's backward splits over columns, and max-pool's
//   backward over planes, each summing its rows in index order.
// - GEMM (OpenBLAS / oneDNN) and oneDNN convolutions are deterministic for a
//   fixed thread count; results may differ between thread counts, as
//   PyTorch's may (its guarantee is also per configuration).
// alert_not_deterministic() is how an op without a deterministic variant
// refuses to run; none of the CPU kernels above needs it today.
namespace {
std::atomic<bool> g_enabled{false};
std::atomic<bool> g_warn_only{false};
}  // namespace

void use_deterministic_algorithms(bool mode, bool warn_only) {
  g_enabled.store(mode, std::memory_order_relaxed);
  g_warn_only.store(mode && warn_only, std::memory_order_relaxed);
}
bool are_deterministic_algorithms_enabled() { return g_enabled.load(std::memory_order_relaxed); }
bool is_deterministic_algorithms_warn_only_enabled() { return g_warn_only.load(std::memory_order_relaxed); }

void alert_not_deterministic(const char* op) {
  if (!are_deterministic_algorithms_enabled()) return;
  const std::string msg = str(op,
                              " does not have a deterministic implementation, but you set "
                              "'use_deterministic_algorithms(true)'. You can turn off determinism just for this "
                              "operation, or you can use the 'warn_only=true' option, if that's acceptable for "
                              "your application.");
  if (!is_deterministic_algorithms_warn_only_enabled()) EMBER_ERROR(msg);
  static std::mutex mu;
  static std::set<std::string> warned;
  std::lock_guard<std::mutex> g(mu);
  if (warned.insert(op).second) Warning::warn({op, "", 0}, msg, true);
}

}  // namespace torch
