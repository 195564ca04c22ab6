#include "ember/func/jacfwd.h"

#include <utility>

#include "ember/func/basis.h"
#include "ember/func/jvp.h"
#include "ember/func/transform_util.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/view.h"

namespace torch::func {

using namespace detail;

namespace {

std::vector<Tensor> jacfwd_impl(const Function& f, const std::vector<int64_t>& argnums, bool has_aux,
                                const std::vector<Tensor>& inputs) {
  const std::vector<size_t> which = resolve_argnums(argnums, inputs.size(), "jacfwd");
  std::vector<Tensor> primals;
  for (size_t i : which) {
    EMBER_CHECK(inputs[i].defined(), "jacfwd: input ", i, " (in argnums) is an undefined tensor");
    primals.push_back(inputs[i]);
  }
  const Function g = [&](const std::vector<Tensor>& sel) {
    std::vector<Tensor> a = inputs;
    for (size_t k = 0; k < which.size(); ++k) a[which[k]] = sel[k];
    return f(a);
  };

  // Columns of every differentiated input in one batch of tangents (Note [One
  // basis for all tensors] in basis.h); each call returns {J t..., f..., aux...}.
  const StandardBasis basis(primals);
  size_t n_out = 0;
  const Function push = [&](const std::vector<Tensor>& tangents) {
    JvpResult r = jvp(g, primals, tangents, has_aux);
    n_out = r.outputs.size();
    std::vector<Tensor> all = std::move(r.tangents);
    for (Tensor& t : r.outputs) all.push_back(std::move(t));
    for (Tensor& t : r.aux) all.push_back(std::move(t));
    return all;
  };
  std::vector<Tensor> res;
  if (basis.total > 0) {
    // [N, *out] per output; outputs and aux are the same in every row.
    res = vmap(push)(basis.vectors);
    for (size_t k = n_out; k < res.size(); ++k) res[k] = res[k].select(0, 0);
  } else {
    // No columns: f's outputs for the shapes, and empty Jacobians.
    std::vector<Tensor> outs = g(primals);
    n_out = has_aux ? 1 : outs.size();
    for (size_t i = 0; i < n_out; ++i) res.push_back(zeros(concat_shape({0}, outs[i].sizes()), outs[i].options()));
    res.insert(res.end(), outs.begin(), outs.end());
  }

  std::vector<Tensor> result;
  for (size_t i = 0; i < n_out; ++i) {
    const Tensor cols = res[i].movedim(0, -1);  // [*out, N]
    const IntArrayRef out_sizes = res[n_out + i].sizes();
    for (size_t j = 0; j < primals.size(); ++j)
      result.push_back(
          cols.narrow(-1, basis.offsets[j], basis.numels[j]).reshape(concat_shape(out_sizes, primals[j].sizes())));
  }
  for (size_t k = 2 * n_out; k < res.size(); ++k) result.push_back(std::move(res[k]));
  return result;
}

}  // namespace

Function jacfwd(Function f, std::vector<int64_t> argnums, bool has_aux) {
  return [f = std::move(f), argnums = std::move(argnums), has_aux](const std::vector<Tensor>& inputs) {
    return jacfwd_impl(f, argnums, has_aux, inputs);
  };
}

std::function<Tensor(const Tensor&)> jacfwd(std::function<Tensor(const Tensor&)> f) {
  return detail::one_tensor_form(std::move(f), [](Function h) { return jacfwd(std::move(h)); });
}

}  // namespace torch::func
