// Note [grad under vmap]
// Ember's autograd records on physical tensors only (batching rules run the
// ops on them), so a backward pass knows nothing of samples. grad keeps
// samples apart by giving each one its own leaf: when it runs inside vmap
// (levels 1..L active on this thread), every differentiated input is brought
// to one fully physical tensor [B1, ..., BL, *logical] — its batch moved to
// the front at the levels where it is batched, expanded to the level's batch
// size where it is not (an unbatched parameter becomes one copy per sample,
// as a stride-0 view) — which becomes the leaf, and is wrapped again as a
// tensor batched at every level for f to see. f's value is a 0-dim tensor per
// sample, so its fully unwrapped physical tensor holds one element per sample
// combination; batching rules never let samples interact, so every path from
// an element to the leaves stays inside its sample, and one autograd::grad of
// that tensor (grad_outputs = ones) with respect to the physical leaves gives
// each sample's gradient in its own slice. The gradients are wrapped back at
// the same levels. Outside vmap (L = 0) this is plain autograd::grad.
//
// Leaves: when grad mode is on in the caller and an input requires grad (the
// caller's graph, or an enclosing grad's leaf), the leaf is an alias that
// keeps the caller's graph (a view, so the gradient captured is the one that
// flows through this alias only, even if f also uses the input directly);
// otherwise a detached tensor that requires grad. The backward pass builds a
// graph (create_graph) only when the caller's graph reaches into f's value:
// through such an alias, or through a tensor f closes over.
#include "ember/func/grad.h"

#include <algorithm>
#include <string>
#include <unordered_set>
#include <utility>

#include "ember/autograd/accumulate_grad.h"
#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/backward.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/ops/factory.h"
#include "ember/ops/view.h"
#include "ember/vmap/batched_tensor.h"
#include "ember/vmap/batching_rules.h"
#include "ember/vmap/level_sizes.h"

namespace ember::func {

namespace {

std::string list_str(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + (v.size() == 1 ? ",)" : ")");
}

// argnums wrapped against the number of inputs, checked as torch.func does.
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

// The plain tensor at the bottom of a (possibly nested) batched tensor.
Tensor bottom(const Tensor& t) {
  Tensor cur = t;
  while (const batching::BatchedMeta* m = batching::batched_meta(cur)) {
    batching::check_in_scope(*m);
    cur = m->value;
  }
  return cur;
}

// `t` as one physical tensor [B1, ..., BL, *logical] (Note [grad under vmap]).
Tensor to_physical(const Tensor& t, int64_t levels) {
  Tensor cur = t;
  for (int64_t l = levels; l >= 1; --l) cur = batching::front_or_expand(cur, l, batching::level_batch_size(l));
  return cur;
}

// The inverse of to_physical: dim l-1 becomes the batch of level l.
Tensor to_logical(Tensor phys, int64_t levels) {
  for (int64_t l = 1; l <= levels; ++l) phys = batching::make_batched(std::move(phys), 0, l);
  return phys;
}

// A detached copy of every level's physical tensor, batched as `t` is.
Tensor deep_detach(const Tensor& t) {
  if (!t.defined()) return t;
  const batching::BatchedMeta* m = batching::batched_meta(t);
  if (m == nullptr) return t.detach();
  return batching::make_batched(deep_detach(m->value), m->bdim, m->level);
}

// Whether the graph of `root` reaches a leaf other than `own` (a tensor of
// the caller's that requires grad).
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

bool is_differentiable_dtype(ScalarType t) { return is_floating_point(t) || is_complex(t); }

std::vector<Tensor> grad_impl(const Function& f, const std::vector<int64_t>& argnums, bool has_aux, bool with_value,
                              const std::vector<Tensor>& inputs) {
  const char* op = with_value ? "grad_and_value" : "grad";
  const std::vector<size_t> which = resolve_argnums(argnums, inputs.size(), op);
  const bool outer_grad = GradMode::is_enabled();
  const int64_t levels = batching::current_level();
  AutoGradMode grad_on(true);

  // The leaves (physical) and what f sees of them (logical).
  std::vector<Tensor> args = inputs, leaves;
  std::unordered_set<const autograd::Node*> own;
  std::vector<autograd::Edge> own_edges;  // keeps the leaves' AccumulateGrad nodes (and so their addresses) alive
  bool aliased = false;
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
      aliased = true;
    } else {
      {
        NoGradGuard no_grad;
        leaf = to_physical(x, levels).detach();
      }
      leaf.requires_grad_(true);
      own_edges.push_back(autograd::gradient_edge(leaf));
      own.insert(own_edges.back().function.get());
    }
    leaves.push_back(leaf);
    args[i] = to_logical(leaf, levels);
  }

  std::vector<Tensor> outs = f(args);
  if (has_aux)
    EMBER_CHECK(outs.size() >= 2, op,
                "(f, has_aux=True)(<inputs>): f must return the value followed by at least one auxiliary output, got ",
                outs.size(), " outputs");
  else
    EMBER_CHECK(outs.size() == 1, op, "(f)(<inputs>): Expected f(<inputs>) to return one Tensor, got ", outs.size(),
                " outputs (pass has_aux=true to return auxiliary outputs after the value)");
  const Tensor& value = outs[0];
  EMBER_CHECK(value.defined(), op, "(f)(<inputs>): Expected f(<inputs>) to return a Tensor, got an undefined tensor");
  EMBER_CHECK(value.dim() == 0, op, "(f)(<inputs>): Expected f(<inputs>) to return a scalar Tensor, got tensor with ",
              value.dim(), " dims (shape ", shape_str(value.sizes()), ", ", value.dtype(),
              "). Maybe you wanted to use the vjp or jacrev APIs instead?");

  const Tensor out = bottom(value);
  std::vector<Tensor> grads(leaves.size());
  bool create_graph = false;
  if (out.requires_grad()) {
    create_graph = outer_grad && (aliased || reaches_other_leaves(out, own));
    grads = autograd::grad({out}, leaves, {ones_like(out)}, /*retain_graph=*/create_graph, create_graph,
                           /*allow_unused=*/true);
  }

  std::vector<Tensor> result;
  result.reserve(grads.size() + outs.size());
  for (size_t k = 0; k < grads.size(); ++k) {
    Tensor g = grads[k];
    if (!g.defined()) {
      g = zeros_like(leaves[k]);
    } else if (!create_graph) {
      g = g.detach();
    }
    result.push_back(to_logical(std::move(g), levels));
  }
  for (size_t j = with_value ? 0 : 1; j < outs.size(); ++j)
    result.push_back(create_graph ? outs[j] : deep_detach(outs[j]));
  return result;
}

}  // namespace

Function grad(Function f, std::vector<int64_t> argnums, bool has_aux) {
  return [f = std::move(f), argnums = std::move(argnums), has_aux](const std::vector<Tensor>& inputs) {
    return grad_impl(f, argnums, has_aux, /*with_value=*/false, inputs);
  };
}

Function grad_and_value(Function f, std::vector<int64_t> argnums, bool has_aux) {
  return [f = std::move(f), argnums = std::move(argnums), has_aux](const std::vector<Tensor>& inputs) {
    return grad_impl(f, argnums, has_aux, /*with_value=*/true, inputs);
  };
}

std::function<Tensor(const Tensor&)> grad(std::function<Tensor(const Tensor&)> f) {
  Function g = grad([f = std::move(f)](const std::vector<Tensor>& a) { return std::vector<Tensor>{f(a[0])}; });
  return [g = std::move(g)](const Tensor& x) { return g({x})[0]; };
}

}  // namespace ember::func
