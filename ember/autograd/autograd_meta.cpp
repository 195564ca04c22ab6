#include "ember/autograd/autograd_meta.h"

#include <array>

#include "ember/autograd/accumulate_grad.h"
#include "ember/core/fast_thread_local.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batched_tensor.h"

namespace torch {
namespace autograd {

AutogradMeta& materialize_meta(const Tensor& t) {
  TensorImpl* impl = t.unsafeGetTensorImpl();
  if (impl->autograd_meta() == nullptr) impl->set_autograd_meta(std::make_unique<AutogradMeta>());
  return *static_cast<AutogradMeta*>(impl->autograd_meta());
}

namespace {

// Note [Leaf accumulator cache]
// Every op that reads a parameter needs the parameter's AccumulateGrad. The
// leaf's meta holds it weakly and reading that weak_ptr while another thread
// replaces it would race, so the meta's copy is read under its mutex — once
// per graph and leaf on each thread: the thread keeps a few recently used
// accumulators (weakly, so they die with their graph) and reuses one while
// it is alive, belongs to this very tensor and still describes its shape and
// dtype (set_data may have changed them). The single-threaded path takes no
// lock per recorded op.
struct CachedAccumulator {
  const AutogradMeta* meta = nullptr;
  std::weak_ptr<Node> node;
};
constexpr size_t kAccumulatorCacheSize = 8;
struct AccumulatorCache {
  std::array<CachedAccumulator, kAccumulatorCacheSize> slots;
};

std::shared_ptr<Node> cached_accumulator(CachedAccumulator& c, const Tensor& t, const AutogradMeta* m) {
  if (c.meta != m) return nullptr;
  std::shared_ptr<Node> node = c.node.lock();
  if (!node) return nullptr;
  const auto& acc = static_cast<const AccumulateGrad&>(*node);
  const InputMetadata& meta = acc.input_metadata(0);
  const bool same = acc.variable().unsafeGetTensorImpl() == t.unsafeGetTensorImpl() && meta.dtype == t.dtype() &&
                    meta.shape.ref().equals(t.sizes());
  return same ? node : nullptr;
}

}  // namespace

std::shared_ptr<Node> grad_accumulator(const Tensor& t) {
  AutogradMeta* m = get_meta(t);
  if (m == nullptr || !m->requires_grad) return nullptr;
  AccumulatorCache* cache = detail::FastThreadLocal<AccumulatorCache>::get();  // null while the thread exits
  CachedAccumulator* c =
      cache ? &cache->slots[(reinterpret_cast<uintptr_t>(m) / alignof(AutogradMeta)) % kAccumulatorCacheSize] : nullptr;
  if (c != nullptr)
    if (auto acc = cached_accumulator(*c, t, m)) return acc;
  std::shared_ptr<Node> acc;
  {
    std::lock_guard<std::mutex> g(m->mu);
    acc = m->grad_accumulator.lock();
    if (!acc) {
      acc = std::make_shared<AccumulateGrad>(t);
      m->grad_accumulator = acc;
    }
  }
  if (c != nullptr) *c = {m, acc};
  return acc;
}

Edge gradient_edge(const Tensor& t) {
  AutogradMeta* m = get_meta(t);
  if (m == nullptr) return Edge();
  if (auto fn = current_grad_fn(t, *m)) return Edge(std::move(fn), m->output_nr);
  if (m->requires_grad) return Edge(grad_accumulator(t), 0);
  return Edge();
}

void install_retain_grad_hook(AutogradMeta& m) {
  m.grad_fn->add_retain_grad_hook(m.output_nr, [slot = m.retained_grad](const Tensor& g) {
    *slot = slot->defined() ? slot->add(g) : g.detach().clone();
  });
}

void move_retain_grad_hook(AutogradMeta& m, const std::shared_ptr<Node>& old_fn, uint32_t old_nr) {
  if (!m.retained_grad || old_fn == m.grad_fn) return;
  if (old_fn) old_fn->remove_retain_grad_hook(old_nr);
  if (m.grad_fn) install_retain_grad_hook(m);
}

void set_history(const Tensor& t, const std::shared_ptr<Node>& fn) {
  AutogradMeta& m = materialize_meta(t);
  std::shared_ptr<Node> old_fn = m.retained_grad ? std::move(m.grad_fn) : nullptr;
  const uint32_t old_nr = m.output_nr;
  m.grad_fn = fn;
  m.output_nr = fn->add_input_metadata(t);
  if (m.retained_grad) [[unlikely]]
    move_retain_grad_hook(m, old_fn, old_nr);
  m.requires_grad = false;
  // The output of a non-view op that happens to be a view of the op's own
  // temporary (e.g. a squeezed result) has its own history, not its base's.
  m.view_base = Tensor();
  m.fw_view_base = Tensor();
  m.view_created_in_no_grad = false;
  m.no_grad_view_of_requires_grad = false;
}

}  // namespace autograd

using autograd::get_meta;

bool Tensor::requires_grad() const {
  auto* m = get_meta(*this);
  if (m == nullptr) return false;
  if (m->requires_grad || m->grad_fn != nullptr) return true;
  // A view made under no-grad of a tensor that requires grad reports its base's flag, as in
  // PyTorch; it is a leaf without an accumulator, so gradients recorded through it stop there.
  if (m->view_created_in_no_grad && m->no_grad_view_of_requires_grad) return true;
  // A view whose base now requires grad through an in-place write (Note [Views and in-place]).
  return m->view_base.defined() && m->attr_version != _version() && m->view_base.requires_grad();
}

Tensor& Tensor::requires_grad_(bool r) const {
  Tensor& self = self_ref();
  EMBER_CHECK(!r || is_floating_point() || is_complex(),
              "requires_grad_: Only Tensors of floating point and complex dtype can require gradients (got ", dtype(),
              ")");
  auto* m = get_meta(self);
  if (m && autograd::current_grad_fn(self, *m)) {
    EMBER_CHECK(r,
                "requires_grad_: you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
    return self;
  }
  if (!r && m == nullptr) return self;
  autograd::materialize_meta(self).requires_grad = r;
  return self;
}

const Tensor& Tensor::grad() const {
  static const Tensor kUndefined;
  auto* m = get_meta(*this);
  if (m == nullptr) return kUndefined;
  if (autograd::current_grad_fn(*this, *m)) return m->retained_grad ? *m->retained_grad : kUndefined;
  return m->grad;
}

Tensor& Tensor::mutable_grad() const { return autograd::materialize_meta(*this).grad; }

bool Tensor::is_leaf() const {
  auto* m = get_meta(*this);
  return m == nullptr || autograd::current_grad_fn(*this, *m) == nullptr;
}

Tensor Tensor::detach() const {
  // Under vmap the logical tensor only views sample 0: detach the physical
  // tensor and keep the batch (Note [vmap hooks]).
  if (batching::any_batched(*this)) [[unlikely]] {
    const batching::BatchedMeta* b = batching::batched_meta(*this);
    return batching::make_batched(b->value.detach(), b->bdim, b->level);
  }
  return make_view(*this, sizes(), strides(), storage_offset());
}

void Tensor::set_data(const Tensor& new_data) const {
  EMBER_CHECK(defined() && new_data.defined(), "set_data: both tensors must be defined");
  TensorImpl* impl = unsafeGetTensorImpl();
  const TensorImpl* src = new_data.unsafeGetTensorImpl();
  if (impl == src) return;
  // A leaf's AccumulateGrad checks gradients against the old shape and dtype: drop it, so the
  // next backward makes one for the new data (as PyTorch's set_data does when they change).
  if (auto* m = autograd::get_meta(*this); m != nullptr && (sizes() != new_data.sizes() || dtype() != new_data.dtype()))
    m->grad_accumulator.reset();
  impl->set_storage(src->storage());
  impl->set_dtype(src->dtype());
  impl->set_geometry(src->sizes(), src->strides(), src->storage_offset());
}

Tensor& Tensor::detach_() const {
  if (auto* m = get_meta(self_ref())) {
    EMBER_CHECK(!m->view_base.defined() && !m->view_created_in_no_grad,
                "detach_: Can't detach views in-place. Use detach() instead (tensor of shape ", shape_str(sizes()),
                ", ", dtype(), ")");
    m->grad_fn.reset();
    m->requires_grad = false;
    m->output_nr = 0;
  }
  return self_ref();
}

}  // namespace torch
