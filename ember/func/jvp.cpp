// Note [jvp under vmap]
// Ember's forward AD attaches tangents to plain tensors. Inside vmap (levels
// 1..L), jvp brings every primal and tangent to one plain tensor
// [B1, ..., BL, *logical] (Note [grad under vmap] in grad.cpp: moved to the
// front where batched, expanded with stride 0 where not), makes the duals
// there and hands f the duals wrapped at every level; each output is brought
// to the same physical form, unpacked, and wrapped back. A primal that is
// shared across a level (jacfwd: the primal is the same for every basis
// tangent) is so computed once per sample of that level, vectorized in one
// pass; functorch instead keeps the primal unbatched and batches only the
// tangent, which saves that repeated primal work but needs every JVP formula
// to take a batched tangent next to a plain primal.
#include "ember/func/jvp.h"

#include <utility>

#include "ember/autograd/forward_ad.h"
#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/func/transform_util.h"
#include "ember/ops/factory/factory.h"
#include "ember/vmap/batched_tensor.h"

namespace torch::func {

using namespace detail;
namespace fwad = autograd::forward_ad;

JvpResult jvp(const Function& f, const std::vector<Tensor>& primals, const std::vector<Tensor>& tangents,
              bool has_aux) {
  EMBER_CHECK(!primals.empty(), "jvp(f, primals, tangents): Expected primals to be a non-empty list of Tensors");
  EMBER_CHECK(primals.size() == tangents.size(),
              "jvp(f, primals, tangents): Expected primals and tangents to have the same structure: got ",
              primals.size(), " primals and ", tangents.size(), " tangents");
  for (size_t i = 0; i < primals.size(); ++i) {
    const Tensor &p = primals[i], &t = tangents[i];
    EMBER_CHECK(p.defined() && t.defined(), "jvp(f, primals, tangents): primal ", i, " or its tangent is undefined");
    EMBER_CHECK(is_differentiable_dtype(p.scalar_type()), "jvp(f, primals, tangents): Expected primal ", i,
                " to be floating point or complex, but got ", p.dtype(), " of shape ", shape_str(p.sizes()));
    EMBER_CHECK(is_differentiable_dtype(t.scalar_type()), "jvp(f, primals, tangents): Expected tangent ", i,
                " to be floating point or complex, but got ", t.dtype(), " of shape ", shape_str(t.sizes()));
    EMBER_CHECK(p.sizes() == t.sizes(), "jvp(f, primals, tangents): Expected tangent ", i,
                " to have the same shape as primal ", i, ": got primal of shape ", shape_str(p.sizes()), " (",
                p.dtype(), ") and tangent of shape ", shape_str(t.sizes()), " (", t.dtype(), ")");
  }
  const int64_t levels = batching::current_level();
  fwad::DualLevel dual_level;  // raises for a jvp inside a jvp (one level, as PyTorch 1.13)

  std::vector<Tensor> args;
  for (size_t i = 0; i < primals.size(); ++i) {
    const Tensor p = to_physical(primals[i], levels), t = to_physical(tangents[i], levels);
    args.push_back(to_logical(fwad::make_dual(p, t), levels));
  }
  std::vector<Tensor> outs = f(args);
  if (has_aux)
    EMBER_CHECK(outs.size() >= 2,
                "jvp(f, primals, tangents, has_aux=True): f must return the output followed by at least one "
                "auxiliary output, got ",
                outs.size(), " outputs");
  EMBER_CHECK(!outs.empty(), "jvp(f, primals, tangents): Expected f(*primals) to return at least one Tensor, got none");

  JvpResult r;
  const size_t n_out = has_aux ? 1 : outs.size();
  for (size_t i = 0; i < outs.size(); ++i) {
    const Tensor& o = outs[i];
    EMBER_CHECK(o.defined(), "jvp(f, primals, tangents): expected f(*primals) to return only tensors, but output ", i,
                " is an undefined tensor (not a Tensor)");
    if (i >= n_out) {
      r.aux.push_back(o);
      continue;
    }
    fwad::UnpackedDual u = fwad::unpack_dual(to_physical(o, levels));
    Tensor t = u.tangent.defined() ? u.tangent : zeros_like(u.primal);
    r.outputs.push_back(to_logical(u.primal, levels));
    r.tangents.push_back(to_logical(std::move(t), levels));
  }
  return r;
}

}  // namespace torch::func
