// Note [vjp_fn under vmap]
// vjp runs f once on physical leaves (Note [grad under vmap], levels 1..L of
// the vmaps around the vjp call) and keeps f's outputs as plain physical
// tensors [B1, ..., BL, *out]. vjp_fn, called at level Lc >= L, brings each
// cotangent to one plain tensor [B1, ..., BL, E1, ..., Ek, *out] (k = Lc - L:
// the vmaps entered since, e.g. jacrev's vmap over the basis). With k = 0 one
// autograd::grad gives every sample's gradient in its own slice. With k > 0
// the extra dims are flattened into one batch of N grad_outputs for the same
// outputs, and one backward pass runs under a fresh vmap over that batch
// (the formulas see batched gradients and plain saved tensors, as
// autograd::functional::jacobian(vectorize=true) does); the results get the
// E dims back after the B dims and are wrapped at levels 1..Lc.
#include "ember/func/vjp.h"

#include <memory>
#include <numeric>
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

struct VjpState {
  Leaves lv;
  std::vector<Tensor> outs;  // physical, plain [B1, ..., BL, *out]
  std::vector<DimVector> out_sizes;
  std::vector<ScalarType> out_dtypes;
  int64_t levels = 0;
  bool keep_graph = false;  // the caller's graph runs through f
};

// Zeros for the primals the outputs do not reach.
std::vector<Tensor> fill_unused(std::vector<Tensor> g, const std::vector<Tensor>& leaves) {
  for (size_t j = 0; j < g.size(); ++j)
    if (!g[j].defined()) g[j] = zeros_like(leaves[j]);
  return g;
}

// Physical gradients [B1, ..., BL, E1, ..., Ek, *in] for physical
// cotangents `gos` [B1, ..., BL, E1, ..., Ek, *out] (Note [vjp_fn under vmap]).
std::vector<Tensor> backward(const VjpState& s, const std::vector<Tensor>& outs, const std::vector<Tensor>& gos,
                             int64_t k, bool create_graph) {
  const std::vector<Tensor>& leaves = s.lv.leaves;
  if (k == 0)
    return fill_unused(autograd::grad(outs, leaves, gos, /*retain_graph=*/true, create_graph, /*allow_unused=*/true),
                       leaves);
  const int64_t L = s.levels;
  const IntArrayRef extra = gos[0].sizes().slice(L, k);
  const DimVector extra_sizes(extra);
  const int64_t n = std::accumulate(extra.begin(), extra.end(), int64_t{1}, std::multiplies<>());
  // [B.., E.., *] <-> [E.., B.., *]
  std::vector<int64_t> src(k), dst(k);
  std::iota(src.begin(), src.end(), L);
  std::iota(dst.begin(), dst.end(), 0);
  std::vector<Tensor> flat;
  for (const Tensor& g : gos) {
    const Tensor m = g.movedim(src, dst);
    flat.push_back(m.reshape(concat_shape({n}, m.sizes().slice(k))));
  }
  const VmapFunction rows = vmap([&](const std::vector<Tensor>& v) {
    return fill_unused(autograd::grad(outs, leaves, v, /*retain_graph=*/true, create_graph, /*allow_unused=*/true),
                       leaves);
  });
  std::vector<Tensor> r = rows(flat);
  for (Tensor& g : r) g = g.reshape(concat_shape(extra_sizes, g.sizes().slice(1))).movedim(dst, src);
  return r;
}

std::vector<Tensor> call_vjp_fn(const VjpState& s, const std::vector<Tensor>& cts) {
  EMBER_CHECK(cts.size() == s.outs.size(), "vjp_fn(cotangents): Expected ", s.outs.size(),
              " cotangents (one per output of f), got ", cts.size());
  const int64_t lc = batching::current_level();
  EMBER_CHECK(lc >= s.levels, "vjp_fn(cotangents): called at vmap level ", lc, " but vjp ran at level ", s.levels,
              "; a vjp_fn made inside vmap is valid only inside that vmap call");
  bool ct_grad = false;
  for (size_t i = 0; i < cts.size(); ++i) {
    const Tensor& ct = cts[i];
    EMBER_CHECK(ct.defined(), "vjp_fn(cotangents): cotangent ", i, " is an undefined tensor");
    EMBER_CHECK(ct.sizes() == IntArrayRef(s.out_sizes[i]), "vjp_fn(cotangents): Expected cotangent ", i,
                " to have the same shape as output ", i, " of f: got shape ", shape_str(ct.sizes()), " (", ct.dtype(),
                ") for an output of shape ", shape_str(s.out_sizes[i]), " (", s.out_dtypes[i], ")");
    EMBER_CHECK(
        is_differentiable_dtype(ct.scalar_type()) && is_complex(ct.scalar_type()) == is_complex(s.out_dtypes[i]),
        "vjp_fn(cotangents): cotangent ", i, " has dtype ", ct.dtype(), " (shape ", shape_str(ct.sizes()),
        ") but output ", i, " of f has dtype ", s.out_dtypes[i],
        "; expected a floating point cotangent for a real output and a complex one for a complex output");
    ct_grad = ct_grad || bottom(ct).requires_grad();
  }
  const bool create_graph = GradMode::is_enabled() && (s.keep_graph || ct_grad);
  std::vector<Tensor> outs, gos;
  for (size_t i = 0; i < cts.size(); ++i) {
    if (!s.outs[i].requires_grad()) continue;  // a constant output contributes nothing
    Tensor g = to_physical(cts[i], lc);
    if (g.scalar_type() != s.out_dtypes[i]) g = g.to(s.out_dtypes[i]);
    outs.push_back(s.outs[i]);
    gos.push_back(std::move(g));
  }
  std::vector<Tensor> result;
  if (outs.empty()) {  // zeros for every primal, the same for every sample of the newer levels
    for (const Tensor& leaf : s.lv.leaves) result.push_back(to_logical(zeros_like(leaf), s.levels));
    return result;
  }
  std::vector<Tensor> grads = backward(s, outs, gos, lc - s.levels, create_graph);
  for (Tensor& g : grads) result.push_back(to_logical(maybe_detach(g, create_graph), lc));
  return result;
}

}  // namespace

VjpResult vjp(const Function& f, const std::vector<Tensor>& primals, bool has_aux) {
  const char* op = "vjp";
  EMBER_CHECK(!primals.empty(), "vjp(f, *primals): Expected at least one primal (a tensor to differentiate)");
  std::vector<size_t> which(primals.size());
  std::iota(which.begin(), which.end(), size_t{0});
  const bool outer_grad = GradMode::is_enabled();
  auto s = std::make_shared<VjpState>();
  s->levels = batching::current_level();
  std::vector<Tensor> outs;
  {
    AutoGradMode grad_on(true);
    s->lv = make_leaves(primals, which, s->levels, outer_grad, op);
    outs = f(s->lv.args);
    if (has_aux)
      EMBER_CHECK(outs.size() >= 2, op,
                  "(f, *primals, has_aux=True): f must return the output followed by at least one auxiliary output, "
                  "got ",
                  outs.size(), " outputs");
    EMBER_CHECK(!outs.empty(), op, "(f, *primals): Expected f to return at least one Tensor, got none");
    const size_t n_out = has_aux ? 1 : outs.size();
    for (size_t i = 0; i < n_out; ++i) {
      const Tensor& o = outs[i];
      EMBER_CHECK(o.defined(), op, "(f, *primals): expected f(*primals) to return only tensors, but output ", i,
                  " is an undefined tensor");
      EMBER_CHECK(is_differentiable_dtype(o.scalar_type()), op,
                  "(f, ...): All outputs of f must be floating-point or complex Tensors, got Tensor with dtype ",
                  o.dtype(), " (output ", i, ", shape ", shape_str(o.sizes()), ")");
      s->outs.push_back(to_physical(o, s->levels));
      s->out_sizes.emplace_back(o.sizes());
      s->out_dtypes.push_back(o.scalar_type());
    }
  }
  for (const Tensor& o : s->outs)
    s->keep_graph = s->keep_graph || (o.requires_grad() && reaches_other_leaves(o, s->lv.own));
  s->keep_graph = outer_grad && (s->lv.aliased || s->keep_graph);

  VjpResult r;
  const size_t n_out = s->outs.size();
  for (size_t i = 0; i < outs.size(); ++i)
    (i < n_out ? r.outputs : r.aux).push_back(maybe_detach(outs[i], s->keep_graph));
  r.vjp_fn = [s](const std::vector<Tensor>& cts) { return call_vjp_fn(*s, cts); };
  return r;
}

}  // namespace torch::func
