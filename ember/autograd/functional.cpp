#include "ember/autograd/functional.h"
#include "ember/vmap/vmap.h"

#include "ember/autograd/forward_ad.h"

#include "ember/autograd/backward.h"
#include "ember/autograd/grad_mode.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/ops/shape/view.h"

namespace torch::autograd::functional {

namespace {

// Note [Functional API]: fresh leaves, or aliases that keep the caller's graph.
variable_list preprocess(const variable_list& ts, bool create_graph, bool need_graph) {
  variable_list out;
  out.reserve(ts.size());
  for (const Tensor& t : ts) {
    EMBER_CHECK(t.defined(), "autograd::functional: got an undefined tensor");
    if (create_graph && t.requires_grad())
      out.push_back(t.view_as(t));
    else
      out.push_back(need_graph ? t.detach().requires_grad_(true) : t.detach());
  }
  return out;
}

variable_list postprocess(variable_list ts, bool create_graph) {
  if (!create_graph)
    for (Tensor& t : ts)
      if (t.defined()) t = t.detach();
  return ts;
}

void validate_v(const variable_list& v, const variable_list& other, const char* op) {
  EMBER_CHECK(v.size() == other.size(), op, ": v is a tuple of invalid length: should be ", other.size(), " but got ",
              v.size(), ".");
  for (size_t i = 0; i < v.size(); ++i)
    EMBER_CHECK(v[i].sizes().equals(other[i].sizes()), op, ": Entry ", i, " in v has invalid size: should be ",
                shape_str(other[i].sizes()), " but got ", shape_str(v[i].sizes()), ".");
}

void check_requires_grad(const variable_list& ts, const char* what, bool strict, const char* op) {
  if (!strict) return;
  for (size_t i = 0; i < ts.size(); ++i) {
    if (ts[i].defined() && ts[i].requires_grad()) continue;
    if (std::string(what) == "outputs")
      EMBER_ERROR(op, ": Output ", i,
                  " of the user-provided function does not require gradients. The outputs must be "
                  "computed in a differentiable manner from the input when running in strict mode.");
    if (std::string(what) == "jacobian")
      EMBER_ERROR(op, ": The jacobian of the user-provided function with respect to input ", i,
                  " is independent of the input. This is not allowed in strict mode. You should ensure that your "
                  "function is thrice differentiable and that the jacobian depends on the inputs.");
    if (std::string(what) == "hessian")
      EMBER_ERROR(op, ": The hessian of the user-provided function with respect to input ", i,
                  " is independent of the input. This is not allowed in strict mode. You should ensure that your "
                  "function is thrice differentiable and that the hessian depends on the inputs.");
    EMBER_ERROR(op, ": The gradient with respect to input ", i,
                " is independent of the inputs of the user-provided function. This is not allowed in strict mode.");
  }
}

// autograd::grad over the outputs that require grad; undefined where nothing flows.
variable_list grad_of(const variable_list& outputs, const variable_list& inputs, const variable_list& grad_outputs,
                      bool create_graph, std::optional<bool> retain_graph = std::nullopt) {
  variable_list outs, gos;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].defined() || !outputs[i].requires_grad()) continue;
    outs.push_back(outputs[i]);
    gos.push_back(grad_outputs.empty() ? Tensor() : grad_outputs[i]);
  }
  if (outs.empty()) return variable_list(inputs.size());
  return grad(outs, inputs, gos, retain_graph, create_graph, /*allow_unused=*/true);
}

// Undefined gradients become zeros, or an error in strict mode (messages as PyTorch's by stage).
variable_list fill_in_zeros(variable_list grads, const variable_list& refs, bool strict, const char* stage,
                            const char* op) {
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].defined()) continue;
    if (strict) {
      const std::string s = stage;
      if (s == "back")
        EMBER_ERROR(op, ": The output of the user-provided function is independent of input ", i,
                    ". This is not allowed in strict mode.");
      if (s == "back_trick")
        EMBER_ERROR(op, ": The gradient with respect to the input is independent of entry ", i,
                    " in the grad_outputs when using the double backward trick to compute forward mode gradients. "
                    "This is not allowed in strict mode.");
      if (s == "double_back")
        EMBER_ERROR(op, ": The jacobian of the user-provided function is independent of input ", i,
                    ". This is not allowed in strict mode.");
      EMBER_ERROR(op, ": The hessian of the user-provided function is independent of entry ", i,
                  " in the grad_jacobian. This is not allowed in strict mode as it prevents from using the double "
                  "backward trick to replace forward mode AD.");
    }
    grads[i] = zeros_like(refs[i]);
  }
  return grads;
}

DimVector concat_shape(IntArrayRef a, IntArrayRef b) {
  DimVector s(a);
  for (int64_t d : b) s.push_back(d);
  return s;
}

// The scalar function's single-element output, checked as PyTorch's vhp/hvp/hessian do.
Tensor single_output(const ScalarFunction& func, const variable_list& inputs, const char* op) {
  Tensor out = func(inputs);
  EMBER_CHECK(out.defined(), op, ": The function given to ", op, " should return a single Tensor");
  EMBER_CHECK(out.numel() == 1, op, ": The Tensor returned by the function given to ", op,
              " should contain a single element (got shape ", shape_str(out.sizes()), ")");
  return out;
}

}  // namespace

Result vjp(const Function& func, const variable_list& inputs_in, const variable_list& v_in, bool create_graph,
           bool strict) {
  const char* op = "vjp";
  EnableGradGuard grad_on;
  variable_list inputs = preprocess(inputs_in, create_graph, true);
  variable_list outputs = func(inputs);
  check_requires_grad(outputs, "outputs", strict, op);
  variable_list v;
  if (!v_in.empty()) {
    v = preprocess(v_in, create_graph, false);
    validate_v(v, outputs, op);
  } else {
    EMBER_CHECK(outputs.size() == 1 && outputs[0].numel() == 1, op,
                ": The vector v can only be None if the user-provided function returns a single Tensor with a single "
                "element.");
  }
  variable_list res;
  {
    AutoGradMode mode(create_graph || GradMode::is_enabled());
    res = fill_in_zeros(grad_of(outputs, inputs, v, create_graph), inputs, strict, "back", op);
  }
  return {postprocess(outputs, create_graph), postprocess(res, create_graph)};
}

Result jvp(const Function& func, const variable_list& inputs_in, const variable_list& v_in, bool create_graph,
           bool strict) {
  const char* op = "jvp";
  EnableGradGuard grad_on;
  variable_list inputs = preprocess(inputs_in, create_graph, true);
  variable_list v;
  if (!v_in.empty()) {
    v = preprocess(v_in, create_graph, false);
    validate_v(v, inputs, op);
  } else {
    EMBER_CHECK(inputs.size() == 1 && inputs[0].numel() == 1, op,
                ": The vector v can only be None if the input to the user-provided function is a single Tensor with a "
                "single element.");
  }
  variable_list outputs = func(inputs);
  check_requires_grad(outputs, "outputs", strict, op);
  // Double-vjp trick (Note [Functional API]).
  variable_list grad_outputs;
  for (const Tensor& o : outputs) grad_outputs.push_back(zeros_like(o).requires_grad_(true));
  variable_list grad_inputs = grad_of(outputs, inputs, grad_outputs, /*create_graph=*/true);
  check_requires_grad(grad_inputs, "grad_inputs", strict, op);
  variable_list res =
      fill_in_zeros(grad_of(grad_inputs, grad_outputs, v, create_graph), outputs, strict, "back_trick", op);
  return {postprocess(outputs, create_graph), postprocess(res, create_graph)};
}

std::vector<variable_list> jacobian(const Function& func, const variable_list& inputs_in, bool create_graph,
                                    bool strict, bool vectorize, const std::string& strategy) {
  const char* op = "jacobian";
  EMBER_CHECK(strategy == "forward-mode" || strategy == "reverse-mode", op,
              ": Expected strategy to be either \"forward-mode\" or \"reverse-mode\". Got ", strategy, ".");
  if (strategy == "forward-mode") {
    EMBER_CHECK(!create_graph, op,
                ": `create_graph=True` and `strategy=\"forward-mode\"` are not supported together (yet). Please "
                "either set `create_graph=False` or `strategy=\"reverse-mode\"`.");
    EMBER_CHECK(vectorize, op, ": `strategy=\"forward-mode\"` requires `vectorize=True`.");
  }
  EMBER_CHECK(!(strict && vectorize), op,
              ": `strict=True` and `vectorized=True` are not supported together. Please either set `strict=False` or "
              "`vectorize=False`.");
  EnableGradGuard grad_on;
  variable_list inputs = preprocess(inputs_in, create_graph, true);
  variable_list outputs = func(inputs);
  check_requires_grad(outputs, "outputs", strict, op);
  std::vector<variable_list> jac(outputs.size(), variable_list(inputs.size()));

  if (strategy == "forward-mode") {
    // Column k of input j: the tangents of the outputs when input j carries
    // the unit tangent e_k (forward-mode AD, one forward pass per column).
    for (size_t j = 0; j < inputs.size(); ++j) {
      std::vector<variable_list> cols(outputs.size());
      const int64_t n = inputs[j].numel();
      for (int64_t k = 0; k < n; ++k) {
        Tensor e = zeros({n}, inputs[j].options().requires_grad(false));
        e.select(0, k).fill_(1);
        forward_ad::DualLevel level;
        variable_list duals = inputs;
        duals[j] = forward_ad::make_dual(inputs[j], e.reshape(inputs[j].sizes()));
        variable_list outs = func(duals);
        for (size_t i = 0; i < outputs.size(); ++i) {
          Tensor t = i < outs.size() && outs[i].defined() ? forward_ad::fw_grad(outs[i]) : Tensor();
          cols[i].push_back(t.defined() ? t.detach().reshape({-1}) : zeros({outputs[i].numel()}, outputs[i].options()));
        }
      }
      for (size_t i = 0; i < outputs.size(); ++i) {
        const DimVector shape = concat_shape(outputs[i].sizes(), inputs[j].sizes());
        jac[i][j] = n == 0 ? zeros(shape, outputs[i].options()) : stack(cols[i], 1).reshape(shape);
      }
    }
    return jac;
  }

  // Reverse mode, vectorized: all rows of output i from one backward pass
  // under vmap, its grad_outputs the batch of unit vectors (the rows of an
  // identity), as PyTorch's vectorize=True does with batched gradients.
  if (vectorize) {
    for (size_t i = 0; i < outputs.size(); ++i) {
      const int64_t n = outputs[i].numel();
      if (n == 0 || !outputs[i].requires_grad()) {
        for (size_t j = 0; j < inputs.size(); ++j)
          jac[i][j] = zeros(concat_shape(outputs[i].sizes(), inputs[j].sizes()), inputs[j].options());
        continue;
      }
      const Tensor units =
          eye(n, outputs[i].options().requires_grad(false)).view(concat_shape({n}, outputs[i].sizes()));
      const VmapFunction rows = vmap([&](const variable_list& v) {
        variable_list g = grad_of({outputs[i]}, inputs, {v[0]}, create_graph, /*retain_graph=*/true);
        for (size_t j = 0; j < g.size(); ++j)
          if (!g[j].defined()) g[j] = zeros_like(inputs[j]);
        return g;
      });
      variable_list r = rows({units});
      for (size_t j = 0; j < inputs.size(); ++j)
        jac[i][j] = r[j].reshape(concat_shape(outputs[i].sizes(), inputs[j].sizes()));
    }
    for (variable_list& row : jac) row = postprocess(std::move(row), create_graph);
    return jac;
  }

  // Reverse mode: row r of output i from one backward pass (retain_graph for the next rows).
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::vector<variable_list> rows(inputs.size());
    const Tensor flat = outputs[i].reshape({-1});
    for (int64_t r = 0; r < flat.numel(); ++r) {
      variable_list vj = grad_of({flat[r]}, inputs, {}, create_graph, /*retain_graph=*/true);
      for (size_t j = 0; j < inputs.size(); ++j) {
        if (vj[j].defined()) {
          EMBER_CHECK(!(strict && create_graph && !vj[j].requires_grad()), op,
                      ": The jacobian of the user-provided function is independent of input ", j,
                      ". This is not allowed in strict mode when create_graph=True.");
          rows[j].push_back(vj[j]);
        } else {
          EMBER_CHECK(!strict, op, ": Output ", i, " of the user-provided function is independent of input ", j,
                      ". This is not allowed in strict mode.");
          rows[j].push_back(zeros_like(inputs[j]));
        }
      }
    }
    for (size_t j = 0; j < inputs.size(); ++j) {
      const DimVector shape = concat_shape(outputs[i].sizes(), inputs[j].sizes());
      jac[i][j] = rows[j].empty() ? zeros(shape, inputs[j].options()) : stack(rows[j], 0).view(shape);
    }
  }
  for (variable_list& row : jac) row = postprocess(std::move(row), create_graph);
  return jac;
}

Tensor jacobian(const std::function<Tensor(const Tensor&)>& func, const Tensor& input, bool create_graph, bool strict,
                bool vectorize, const std::string& strategy) {
  return jacobian([&](const variable_list& in) { return variable_list{func(in[0])}; }, {input}, create_graph, strict,
                  vectorize, strategy)[0][0];
}

std::vector<variable_list> hessian(const ScalarFunction& func, const variable_list& inputs, bool create_graph,
                                   bool strict, bool vectorize, const std::string& outer_jacobian_strategy) {
  const char* op = "hessian";
  EMBER_CHECK(outer_jacobian_strategy == "forward-mode" || outer_jacobian_strategy == "reverse-mode", op,
              ": Expected strategy to be either \"forward-mode\" or \"reverse-mode\". Got ", outer_jacobian_strategy,
              ".");
  auto single = [&](const variable_list& in) { return variable_list{single_output(func, in, op).reshape({})}; };
  auto jac_func = [&](const variable_list& in) {
    variable_list jac = jacobian(single, in, /*create_graph=*/true)[0];
    check_requires_grad(jac, "jacobian", strict, op);
    return jac;
  };
  return jacobian(jac_func, inputs, create_graph, strict, vectorize, outer_jacobian_strategy);
}

Tensor hessian(const std::function<Tensor(const Tensor&)>& func, const Tensor& input, bool create_graph, bool strict,
               bool vectorize, const std::string& outer_jacobian_strategy) {
  return hessian([&](const variable_list& in) { return func(in[0]); }, {input}, create_graph, strict, vectorize,
                 outer_jacobian_strategy)[0][0];
}

namespace {
// The shared first half of vhp and hvp: inputs, v, output and its gradient (with graph).
struct SecondOrder {
  variable_list inputs, v, outputs, jac;
};
SecondOrder second_order(const ScalarFunction& func, const variable_list& inputs_in, const variable_list& v_in,
                         bool create_graph, bool strict, const char* op) {
  SecondOrder s;
  s.inputs = preprocess(inputs_in, create_graph, true);
  if (!v_in.empty()) {
    s.v = preprocess(v_in, create_graph, false);
    validate_v(s.v, s.inputs, op);
  } else {
    EMBER_CHECK(s.inputs.size() == 1 && s.inputs[0].numel() == 1, op,
                ": The vector v can only be None if the input to the user-provided function is a single Tensor with a "
                "single element.");
  }
  s.outputs = {single_output(func, s.inputs, op)};
  check_requires_grad(s.outputs, "outputs", strict, op);
  s.jac = grad_of(s.outputs, s.inputs, {}, /*create_graph=*/true);
  check_requires_grad(s.jac, "jacobian", strict, op);
  return s;
}
}  // namespace

Result vhp(const ScalarFunction& func, const variable_list& inputs, const variable_list& v, bool create_graph,
           bool strict) {
  const char* op = "vhp";
  EnableGradGuard grad_on;
  SecondOrder s = second_order(func, inputs, v, create_graph, strict, op);
  variable_list res = fill_in_zeros(grad_of(s.jac, s.inputs, s.v, create_graph), s.inputs, strict, "double_back", op);
  return {postprocess(s.outputs, create_graph), postprocess(res, create_graph)};
}

Result hvp(const ScalarFunction& func, const variable_list& inputs, const variable_list& v, bool create_graph,
           bool strict) {
  const char* op = "hvp";
  EnableGradGuard grad_on;
  SecondOrder s = second_order(func, inputs, v, create_graph, strict, op);
  // Double-vjp trick: (grad_jac^T H) is linear in grad_jac; its vjp against v is H v.
  variable_list grad_jac;
  for (const Tensor& t : s.inputs) grad_jac.push_back(zeros_like(t).requires_grad_(true));
  variable_list double_back = grad_of(s.jac, s.inputs, grad_jac, /*create_graph=*/true);
  check_requires_grad(s.jac, "hessian", strict, op);
  variable_list res =
      fill_in_zeros(grad_of(double_back, grad_jac, s.v, create_graph), s.inputs, strict, "double_back_trick", op);
  return {postprocess(s.outputs, create_graph), postprocess(res, create_graph)};
}

}  // namespace torch::autograd::functional
