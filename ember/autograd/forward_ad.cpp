#include "ember/autograd/forward_ad.h"

#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/formula_node.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/fast_thread_local.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/shape/mem_overlap.h"
#include "ember/vmap/batched_tensor.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd::forward_ad {

namespace detail {
std::atomic<uint64_t> g_generation{0};
namespace {
std::atomic<uint64_t> g_last_generation{0};
EMBER_INITIAL_EXEC_TLS thread_local bool t_suspended = false;  // Note [Fast thread_locals]
}  // namespace
bool suspended() { return t_suspended; }
}  // namespace detail

namespace {
void check_level(uint64_t level, const char* op) {
  EMBER_CHECK(level == 0, op, ": invalid dual level ", level, " (Ember, like PyTorch, supports one level: 0)");
}
}  // namespace

uint64_t enter_dual_level() {
  const uint64_t gen = detail::g_last_generation.fetch_add(1) + 1;
  uint64_t expected = 0;
  EMBER_CHECK(detail::g_generation.compare_exchange_strong(expected, gen),
              "enter_dual_level: nested forward mode AD is not supported (a dual level is already open)");
  return 0;
}

void exit_dual_level(uint64_t level) {
  check_level(level, "exit_dual_level");
  EMBER_CHECK(detail::g_generation.exchange(0) != 0, "exit_dual_level: no dual level is open");
}

Tensor fw_grad(const Tensor& t, uint64_t level) {
  check_level(level, "fw_grad");
  const uint64_t gen = detail::g_generation.load(std::memory_order_relaxed);
  AutogradMeta* m = t.defined() ? get_meta(t) : nullptr;
  if (gen == 0 || m == nullptr || m->fw_generation != gen) return Tensor();
  return m->fw_grad;
}

namespace {
// An in-place write into a view that has no tangent yet: as PyTorch, the base
// gets one (zeros where it had none, laid out as the base), and the view's
// tangent becomes the matching view of it, so the base sees the written
// tangent too (e.g. `c.narrow(0, 1, 2).copy_(dual)` into a fresh buffer c).
// Returns false when the base's layout cannot be mirrored (overlapping or
// sparse strides): the view alone keeps the tangent then.
bool write_through_base_tangent(const Tensor& view, AutogradMeta& m, const Tensor& tangent, uint64_t gen) {
  const Tensor& base = m.view_base.defined() ? m.view_base : m.fw_view_base;
  // Under jacfwd the tangent is batched, and so must the base's be: a batched
  // zeros has contiguous logical strides, so the base must be contiguous.
  const bool batched = batching::is_batched(tangent);
  if (!(batched ? base.is_contiguous() : ops::is_non_overlapping_and_dense(base))) return false;
  AutogradMeta& bm = materialize_meta(base);
  SuspendGuard sg;
  const bool has = bm.fw_generation == gen && bm.fw_grad.defined();
  if (!has || !bm.fw_grad.strides().equals(base.strides()) || (batched && !batching::is_batched(bm.fw_grad))) {
    Tensor bt = batched ? tangent.new_zeros(base.sizes()) : empty_strided(base.sizes(), base.strides(), base.options());
    if (has)
      bt.copy_(bm.fw_grad);
    else if (!batched)
      bt.zero_();
    bm.fw_grad = bt;
    bm.fw_generation = gen;
  }
  Tensor vt = bm.fw_grad.as_strided(view.sizes(), view.strides(),
                                    bm.fw_grad.storage_offset() + view.storage_offset() - base.storage_offset());
  // The new tangent may read the memory it replaces (a formula over the old one).
  const bool aliased = !batched && tangent.impl()->storage() == vt.impl()->storage();
  vt.copy_(aliased ? tangent.clone() : tangent);
  m.fw_grad = vt;
  m.fw_generation = gen;
  return true;
}
}  // namespace

void set_fw_grad(const Tensor& t, const Tensor& tangent, uint64_t level, bool is_inplace_op) {
  check_level(level, "set_fw_grad");
  const uint64_t gen = detail::g_generation.load();
  EMBER_CHECK(gen != 0, "set_fw_grad: forward gradients can only be set inside a dual level (enter_dual_level)");
  AutogradMeta& m = materialize_meta(t);
  if (!tangent.defined()) {
    m.fw_grad = Tensor();
    m.fw_generation = 0;
    return;
  }
  EMBER_CHECK(tangent.sizes() == t.sizes(), "set_fw_grad: the tangent has size ", shape_str(tangent.sizes()),
              " but the tensor has size ", shape_str(t.sizes()));
  // An in-place write into a view goes through its base's tangent first: the
  // view's own tangent came from the view op's JVP and is not a view of the
  // base's, so writing only it would leave the base (and other views) stale.
  if (is_inplace_op && (m.view_base.defined() || m.fw_view_base.defined()) &&
      write_through_base_tangent(t, m, tangent, gen))
    return;
  if (is_inplace_op && m.fw_generation == gen && m.fw_grad.defined()) {
    // Keep the tangent's identity: views of this tangent must see the update.
    SuspendGuard sg;
    m.fw_grad.copy_(tangent);
    return;
  }
  m.fw_grad = tangent.scalar_type() == t.scalar_type() ? tangent : tangent.to(t.scalar_type());
  m.fw_generation = gen;
}

Tensor make_dual(const Tensor& primal, const Tensor& tangent, uint64_t level) {
  check_level(level, "make_dual");
  EMBER_CHECK(primal.defined() && tangent.defined(), "make_dual: expected defined primal and tangent tensors");
  EMBER_CHECK(detail::g_generation.load() != 0,
              "make_dual: forward AD is only supported inside a dual level (use forward_ad::DualLevel)");
  EMBER_CHECK(primal.is_floating_point() || primal.is_complex(),
              "make_dual: expected primal to be floating point or complex, but got ", primal.dtype());
  EMBER_CHECK(tangent.is_floating_point() || tangent.is_complex(),
              "make_dual: expected tangent to be floating point or complex, but got ", tangent.dtype());
  EMBER_CHECK(tangent.sizes() == primal.sizes(),
              "make_dual: trying to set a forward gradient that has a different size ",
              "than that of the original Tensor, this is not supported. Tensor is of size ", shape_str(primal.sizes()),
              " while the given forward gradient is of size ", shape_str(tangent.sizes()));
  Tensor dual;
  {
    SuspendGuard sg;  // the alias must not inherit the primal's own tangent
    dual = primal.view_as(primal);
  }
  set_fw_grad(dual, tangent, level);
  return dual;
}

UnpackedDual unpack_dual(const Tensor& tensor, uint64_t level) {
  check_level(level, "unpack_dual");
  UnpackedDual r;
  r.tangent = fw_grad(tensor, level);
  SuspendGuard sg;
  r.primal = r.tangent.defined() ? tensor.view_as(tensor) : tensor;
  return r;
}

SuspendGuard::SuspendGuard() : prev_(detail::t_suspended) { detail::t_suspended = true; }
SuspendGuard::~SuspendGuard() { detail::t_suspended = prev_; }

}  // namespace torch::autograd::forward_ad

namespace torch {
Tensor Tensor::_fw_grad(uint64_t level) const { return autograd::forward_ad::fw_grad(*this, level); }
void Tensor::_set_fw_grad(const Tensor& new_grad, uint64_t level, bool is_inplace_op) const {
  autograd::forward_ad::set_fw_grad(*this, new_grad, level, is_inplace_op);
}
}  // namespace torch
