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

#include <utility>

#include "ember/autograd/backward.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/func/transform_util.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batched_tensor.h"

namespace torch::func {

namespace {

using namespace detail;

std::vector<Tensor> grad_impl(const Function& f, const std::vector<int64_t>& argnums, bool has_aux, bool with_value,
                              const std::vector<Tensor>& inputs) {
  const char* op = with_value ? "grad_and_value" : "grad";
  const std::vector<size_t> which = resolve_argnums(argnums, inputs.size(), op);
  const bool outer_grad = GradMode::is_enabled();
  const int64_t levels = batching::current_level();
  AutoGradMode grad_on(true);

  // The leaves (physical) and what f sees of them (logical).
  Leaves lv = make_leaves(inputs, which, levels, outer_grad, op);
  const std::vector<Tensor>& leaves = lv.leaves;

  std::vector<Tensor> outs = f(lv.args);
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
    create_graph = outer_grad && (lv.aliased || reaches_other_leaves(out, lv.own));
    grads = autograd::grad({out}, leaves, {ones_like(out)}, /*retain_graph=*/create_graph, create_graph,
                           /*allow_unused=*/true);
  }

  std::vector<Tensor> result;
  result.reserve(grads.size() + outs.size());
  for (size_t k = 0; k < grads.size(); ++k) {
    Tensor g = grads[k];
    if (!g.defined()) {
      g = zeros_like(leaves[k]);
    } else {
      g = maybe_detach(g, create_graph);
    }
    result.push_back(to_logical(std::move(g), levels));
  }
  for (size_t j = with_value ? 0 : 1; j < outs.size(); ++j) result.push_back(maybe_detach(outs[j], create_graph));
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
  return detail::one_tensor_form(std::move(f), [](Function h) { return grad(std::move(h)); });
}

}  // namespace torch::func
