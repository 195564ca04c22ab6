#include "ember/func/transform_util.h"

#include <algorithm>
#include <utility>

#include "ember/autograd/accumulate_grad.h"
#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batched_tensor.h"
#include "ember/vmap/batching_rules.h"
#include "ember/vmap/level_sizes.h"

namespace torch::func::detail {

std::string list_str(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

std::vector<size_t> resolve_argnums(const std::vector<int64_t>& argnums, size_t n, const char* op) {
  EMBER_CHECK(!argnums.empty(), op, "(f, argnums=()): argnums must be non-empty");
  std::vector<size_t> r;
  for (int64_t a : argnums) {
    const auto num = static_cast<int64_t>(n);
    EMBER_CHECK(a >= -num && a < num, op, "(f, argnums=", list_str(argnums), ")(<inputs>): Got argnum=", a,
                ", but only ", num, " positional inputs");
    const auto i = static_cast<size_t>(a < 0 ? a + num : a);
    EMBER_CHECK(std::find(r.begin(), r.end(), i) == r.end(), op, "(f, argnums=", list_str(argnums),
                "): argnums must be unique");
    r.push_back(i);
  }
  return r;
}

DimVector concat_shape(IntArrayRef a, IntArrayRef b) {
  DimVector r(a);
  for (int64_t s : b) r.push_back(s);
  return r;
}

Tensor bottom(const Tensor& t) {
  Tensor cur = t;
  while (const batching::BatchedMeta* m = batching::batched_meta(cur)) {
    batching::check_in_scope(*m);
    cur = m->value;
  }
  return cur;
}

Tensor to_physical(const Tensor& t, int64_t levels) {
  Tensor cur = t;
  for (int64_t l = levels; l >= 1; --l) cur = batching::front_or_expand(cur, l, batching::level_batch_size(l));
  return cur;
}

Tensor to_logical(Tensor phys, int64_t levels) {
  for (int64_t l = 1; l <= levels; ++l) phys = batching::make_batched(std::move(phys), 0, l);
  return phys;
}

namespace {
// `t` detached, with the tangent it carries at the open dual level.
Tensor detach_keep_tangent(const Tensor& t) {
  const Tensor tangent = autograd::forward_ad::fw_grad(t);
  Tensor d = t.detach();
  if (tangent.defined()) autograd::forward_ad::set_fw_grad(d, tangent);
  return d;
}
}  // namespace

Tensor deep_detach(const Tensor& t) {
  if (!t.defined()) return t;
  const batching::BatchedMeta* m = batching::batched_meta(t);
  if (m == nullptr) return detach_keep_tangent(t);
  return batching::make_batched(deep_detach(m->value), m->bdim, m->level);
}

Tensor maybe_detach(const Tensor& t, bool keep) { return keep ? t : deep_detach(t); }

bool reaches_other_leaves(const Tensor& root, const std::unordered_set<const autograd::Node*>& own) {
  const std::shared_ptr<autograd::Node>& fn = root.grad_fn();
  if (!fn) return root.requires_grad() && own.count(autograd::gradient_edge(root).function.get()) == 0;
  std::unordered_set<const autograd::Node*> seen{fn.get()};
  std::vector<const autograd::Node*> stack{fn.get()};
  while (!stack.empty()) {
    const autograd::Node* n = stack.back();
    stack.pop_back();
    if (dynamic_cast<const autograd::AccumulateGrad*>(n) != nullptr && own.count(n) == 0) return true;
    for (const autograd::Edge& e : n->next_edges())
      if (e.function && seen.insert(e.function.get()).second) stack.push_back(e.function.get());
  }
  return false;
}

Leaves make_leaves(const std::vector<Tensor>& inputs, const std::vector<size_t>& which, int64_t levels, bool outer_grad,
                   const char* op) {
  Leaves r;
  r.args = inputs;
  for (size_t i : which) {
    const Tensor& x = inputs[i];
    EMBER_CHECK(x.defined(), op, ": input ", i, " (in argnums) is an undefined tensor");
    EMBER_CHECK(is_differentiable_dtype(x.scalar_type()), op, ": input ", i,
                " (in argnums) must be a floating point or complex tensor to be differentiated, got ", x.dtype(),
                " of shape ", shape_str(x.sizes()));
    Tensor leaf;
    if (outer_grad && bottom(x).requires_grad()) {
      leaf = to_physical(x, levels);
      leaf = leaf.view_as(leaf);  // a node of its own: only this alias's gradient is captured
      r.aliased = true;
    } else {
      Tensor phys;
      {
        NoGradGuard no_grad;
        phys = to_physical(x, levels);
      }
      leaf = detach_keep_tangent(phys);
      leaf.requires_grad_(true);
      r.own_edges.push_back(autograd::gradient_edge(leaf));
      r.own.insert(r.own_edges.back().function.get());
    }
    r.leaves.push_back(leaf);
    r.args[i] = to_logical(leaf, levels);
  }
  return r;
}

std::function<Tensor(const Tensor&)> one_tensor_form(std::function<Tensor(const Tensor&)> f,
                                                     const std::function<Function(Function)>& transform) {
  Function t = transform([f = std::move(f)](const std::vector<Tensor>& a) { return std::vector<Tensor>{f(a[0])}; });
  return [t = std::move(t)](const Tensor& x) { return t({x})[0]; };
}

}  // namespace torch::func::detail
