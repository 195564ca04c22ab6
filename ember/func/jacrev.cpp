#include "ember/func/jacrev.h"

#include <utility>

#include "ember/func/basis.h"
#include "ember/func/transform_util.h"
#include "ember/func/vjp.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/view.h"

namespace torch::func {

using namespace detail;

namespace {

std::vector<Tensor> jacrev_impl(const Function& f, const std::vector<int64_t>& argnums, bool has_aux,
                                const std::vector<Tensor>& inputs) {
  const std::vector<size_t> which = resolve_argnums(argnums, inputs.size(), "jacrev");
  std::vector<Tensor> primals;
  for (size_t i : which) primals.push_back(inputs[i]);
  // f as a function of the differentiated inputs only.
  const Function g = [&](const std::vector<Tensor>& sel) {
    std::vector<Tensor> a = inputs;
    for (size_t k = 0; k < which.size(); ++k) a[which[k]] = sel[k];
    return f(a);
  };
  VjpResult r = vjp(g, primals, has_aux);

  // Every output's rows in one batch of cotangents: row m of the basis is the
  // m-th unit vector of the outputs taken together (Note in basis.h).
  const StandardBasis basis(r.outputs);
  std::vector<Tensor> rows;  // per primal: [M, *in]
  if (basis.total > 0) {
    rows = vmap(r.vjp_fn)(basis.vectors);
  } else {
    for (const Tensor& p : primals) rows.push_back(zeros(concat_shape({0}, p.sizes()), p.options()));
  }
  std::vector<Tensor> result;
  for (size_t i = 0; i < r.outputs.size(); ++i)
    for (size_t j = 0; j < primals.size(); ++j)
      result.push_back(rows[j]
                           .narrow(0, basis.offsets[i], basis.numels[i])
                           .reshape(concat_shape(r.outputs[i].sizes(), primals[j].sizes())));
  for (Tensor& a : r.aux) result.push_back(std::move(a));
  return result;
}

}  // namespace

Function jacrev(Function f, std::vector<int64_t> argnums, bool has_aux) {
  return [f = std::move(f), argnums = std::move(argnums), has_aux](const std::vector<Tensor>& inputs) {
    return jacrev_impl(f, argnums, has_aux, inputs);
  };
}

std::function<Tensor(const Tensor&)> jacrev(std::function<Tensor(const Tensor&)> f) {
  return detail::one_tensor_form(std::move(f), [](Function h) { return jacrev(std::move(h)); });
}

}  // namespace torch::func
