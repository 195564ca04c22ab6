#pragma once
// Forward-mode AD: dual tensors (a primal with a tangent attached) and the
// switch every op's recording consults.
//
// Note [Forward-mode AD]
//   {
//     forward_ad::DualLevel level;                       // tangents live while it is open
//     Tensor x = forward_ad::make_dual(p, t);            // p with tangent t
//     Tensor y = f(x);                                   // every op propagates the tangent
//     Tensor jvp = forward_ad::unpack_dual(y).tangent;   // = J_f(p) t
//   }
// Tangents are computed op by op during the forward pass, in the same place
// the op records its backward node (Note [Recording an op] in formula_node.h):
// the gate `needs_grad(...)` is also true when an input carries a tangent, and
// when the recording handle finishes, the node computes its outputs' tangents
// from its inputs' tangents with its JVP formula — an explicit one in the op
// family's derivative table (unary.def, binary.def, the view, reduction and
// matmul formulas), or, for ops whose table gives only a VJP, the transpose of
// that VJP (formula_node.cpp, Note [JVP from the VJP]).
//
// As in PyTorch 1.13: one level at a time (nesting raises), level index 0;
// tangents are ignored by detach() and by integer/bool results; grad mode does
// not switch forward mode off. Departure: tangents attached during a level
// are not eagerly freed when it closes; they become invisible (each carries the
// generation of the level that set it) and are freed with their tensor or when
// a later level overwrites them.
#include <atomic>
#include <cstdint>
#include <tuple>

#include "ember/autograd/grad_mode.h"
#include "ember/core/tensor.h"

namespace torch::autograd::forward_ad {

namespace detail {
// Generation of the open dual level, 0 when none is open.
extern std::atomic<uint64_t> g_generation;
// True on a thread while it computes tangents: the JVP formulas' own ops must
// not propagate tangents again.
bool suspended();
}  // namespace detail

// Whether ops must propagate tangents on this thread (one relaxed load when no
// level is open).
inline bool is_active() { return detail::g_generation.load(std::memory_order_relaxed) != 0 && !detail::suspended(); }

// Opens a dual level and returns its index (always 0; nesting raises).
uint64_t enter_dual_level();
// Closes the level; every tangent attached during it becomes invisible.
void exit_dual_level(uint64_t level = 0);

// RAII form of enter/exit_dual_level (Python's `with fwAD.dual_level():`).
class DualLevel {
 public:
  DualLevel() : level_(enter_dual_level()) {}
  ~DualLevel() { exit_dual_level(level_); }
  DualLevel(const DualLevel&) = delete;
  DualLevel& operator=(const DualLevel&) = delete;
  uint64_t level() const { return level_; }

 private:
  uint64_t level_;
};

// A view of `primal` carrying `tangent` (same sizes; floating or complex
// dtypes; the tangent is converted to the primal's dtype).
Tensor make_dual(const Tensor& primal, const Tensor& tangent, uint64_t level = 0);

struct UnpackedDual {
  Tensor primal;   // a view of the dual tensor without a tangent
  Tensor tangent;  // undefined when the tensor carries none
};
UnpackedDual unpack_dual(const Tensor& tensor, uint64_t level = 0);

// The tensor's tangent at the open level, or an undefined tensor.
Tensor fw_grad(const Tensor& t, uint64_t level = 0);
// Sets (or with an undefined `tangent`, clears) the tangent. For an in-place
// op (`is_inplace_op`) an existing tangent is updated in place, so the
// tangents of views of the same base stay views of one tangent.
void set_fw_grad(const Tensor& t, const Tensor& tangent, uint64_t level = 0, bool is_inplace_op = false);

inline bool has_tangent(const Tensor& t) { return t.defined() && fw_grad(t).defined(); }

// Stops tangent propagation on this thread for a scope (used while tangents
// themselves are computed).
class SuspendGuard {
 public:
  SuspendGuard();
  ~SuspendGuard();
  SuspendGuard(const SuspendGuard&) = delete;
  SuspendGuard& operator=(const SuspendGuard&) = delete;

 private:
  bool prev_;
};

}  // namespace torch::autograd::forward_ad

namespace torch::autograd {
// The guard for an op's own work (filling its output, internal copies and
// helper ops): nothing below it records a backward node or propagates a
// tangent, the role PyTorch's kernels below the autograd dispatch key play.
// NoGradGuard alone would not do: as in PyTorch, grad mode does not stop
// forward-mode tangents, so user code under no_grad still propagates them.
class BelowAutogradGuard {
 public:
  BelowAutogradGuard() = default;
  BelowAutogradGuard(const BelowAutogradGuard&) = delete;
  BelowAutogradGuard& operator=(const BelowAutogradGuard&) = delete;

 private:
  NoGradGuard no_grad_;
  forward_ad::SuspendGuard no_tangents_;
};
}  // namespace torch::autograd

namespace torch {
// ATen's spellings (at::_make_dual, at::_unpack_dual).
inline Tensor _make_dual(const Tensor& primal, const Tensor& tangent, int64_t level = 0) {
  return autograd::forward_ad::make_dual(primal, tangent, static_cast<uint64_t>(level));
}
inline std::tuple<Tensor, Tensor> _unpack_dual(const Tensor& tensor, int64_t level = 0) {
  auto r = autograd::forward_ad::unpack_dual(tensor, static_cast<uint64_t>(level));
  return {r.primal, r.tangent};
}
}  // namespace torch
