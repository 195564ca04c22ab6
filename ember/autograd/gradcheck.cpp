#include "ember/autograd/gradcheck.h"

#include <cmath>
#include <sstream>

#include "ember/autograd/backward.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/factory/random.h"

namespace torch::autograd {

namespace {

// Real degrees of freedom of a tensor: numel, or 2*numel for complex.
int64_t dof(const Tensor& t) { return t.numel() * (t.is_complex() ? 2 : 1); }

// Flat double view of a tensor's values (complex: re, im interleaved); copies.
std::vector<double> values(const Tensor& t) {
  Tensor c = t.is_complex() ? t.detach().to(kComplexDouble).contiguous() : t.detach().to(kDouble).contiguous();
  const double* p = static_cast<const double*>(c.data_ptr());
  return std::vector<double>(p, p + dof(t));
}

// Adds `delta` to real degree of freedom k of a contiguous float64/complex128 tensor.
void perturb(Tensor& t, int64_t k, double delta) {
  double* p = static_cast<double*>(t.data_ptr());
  p[k] += delta;
}

variable_list fresh_inputs(const variable_list& inputs) {
  // As PyTorch: a check with nothing to differentiate would pass vacuously.
  bool any_requires_grad = false;
  for (const Tensor& t : inputs) any_requires_grad |= t.defined() && t.requires_grad();
  EMBER_CHECK(any_requires_grad,
              "gradcheck expects at least one input tensor to require gradient, but none of them have "
              "requires_grad=True");
  variable_list out;
  for (const Tensor& t : inputs) {
    if (!t.defined()) {
      out.push_back(t);
      continue;
    }
    EMBER_CHECK(!t.requires_grad() || t.dtype() == kDouble || t.dtype() == kComplexDouble,
                "gradcheck: inputs that require grad must be float64 or complex128 (got ", t.dtype(), ")");
    Tensor c = t.detach().clone();
    if (t.requires_grad()) c.requires_grad_(true);
    out.push_back(c);
  }
  return out;
}

std::string describe(size_t out_i, int64_t out_k, size_t in_i, int64_t in_k, double a, double n) {
  std::ostringstream os;
  os.precision(10);
  os << "Jacobian mismatch for output " << out_i << " (element " << out_k << ") with respect to input " << in_i
     << " (element " << in_k << "): analytical " << a << " vs numerical " << n;
  return os.str();
}

}  // namespace

// Note [gradcheck for complex]
// A complex value counts as two real variables (re, im). For a real input x
// the Jacobian entry d out_k / d x_i is compared directly. For a complex input
// z = a + ib, autograd's gradient for grad_output v is sum conj-Wirtinger
// terms; its real and imaginary parts equal the derivatives of
// Re(sum conj(v) * out) with respect to a and b. We therefore probe each real
// output degree of freedom with v = 1 (real part) and v = i (imaginary part)
// and compare against finite differences of that real scalar.
std::string gradcheck(const DifferentiableFn& fn, const variable_list& inputs_in, const GradcheckOptions& o) {
  variable_list inputs = fresh_inputs(inputs_in);
  variable_list outputs = fn(inputs);
  // Base values of outputs (for numerical differences).
  for (size_t oi = 0; oi < outputs.size(); ++oi) {
    const Tensor& out = outputs[oi];
    if (!out.defined() || !(out.is_floating_point() || out.is_complex())) continue;
    const int64_t out_dof = dof(out);
    for (int64_t ok = 0; ok < out_dof; ++ok) {
      // Analytical: the vjp with v = 1 (even dof: real part) or v = i (odd dof:
      // imaginary part) at this output element.
      Tensor vd = zeros(out.sizes(), TensorOptions(out.is_complex() ? kComplexDouble : kDouble));
      static_cast<double*>(vd.data_ptr())[ok] = 1.0;
      Tensor v = vd.to(out.dtype());
      variable_list diff_inputs;
      std::vector<size_t> diff_index;
      for (size_t i = 0; i < inputs.size(); ++i)
        if (inputs[i].defined() && inputs[i].requires_grad()) {
          diff_inputs.push_back(inputs[i]);
          diff_index.push_back(i);
        }
      if (diff_inputs.empty()) return "";
      variable_list analytical;
      if (out.requires_grad()) {
        variable_list outs_again = fn(inputs);
        analytical = grad({outs_again[oi]}, diff_inputs, {v}, /*retain_graph=*/false, /*create_graph=*/false,
                          /*allow_unused=*/true);
      } else {
        analytical.resize(diff_inputs.size());
      }
      for (size_t di = 0; di < diff_inputs.size(); ++di) {
        const size_t ii = diff_index[di];
        Tensor x = inputs[ii].detach().contiguous().clone();
        std::vector<double> ana = analytical[di].defined() ? values(analytical[di]) : std::vector<double>(dof(x), 0.0);
        for (int64_t k = 0; k < dof(x); ++k) {
          // Numerical derivative of real dof ok of output oi w.r.t. real dof k of input ii.
          auto eval = [&](double delta) {
            Tensor xp = x.clone();
            perturb(xp, k, delta);
            if (inputs[ii].requires_grad()) xp.requires_grad_(true);  // keeps fn's output structure
            variable_list args = inputs;
            args[ii] = xp;
            // Grad mode stays on: fn may itself differentiate (gradgradcheck's vjp).
            variable_list outs = fn(args);
            EMBER_CHECK(oi < outs.size() && outs[oi].defined() && dof(outs[oi]) > ok,
                        "gradcheck: the function returned a different set of outputs for a perturbed input");
            return values(outs[oi])[ok];
          };
          double num = (eval(o.eps) - eval(-o.eps)) / (2 * o.eps);
          // Conjugate Wirtinger convention: for complex x, autograd gives d/da + i d/db of the real dof,
          // and the imaginary part's derivative sits in the odd slot: both compare directly.
          double a = ana[k];
          if (!(std::fabs(a - num) <= o.atol + o.rtol * std::fabs(num)) && !(std::isnan(a) && std::isnan(num)))
            return describe(oi, ok, ii, k, a, num);
        }
      }
    }
  }
  return "";
}

std::string gradgradcheck(const DifferentiableFn& fn, const variable_list& inputs_in, const GradcheckOptions& o) {
  variable_list inputs = fresh_inputs(inputs_in);
  variable_list outputs = fn(inputs);
  // Random grad_outputs (fixed seed) that are themselves differentiated.
  Generator gen(1234);
  variable_list grad_outputs;
  for (const Tensor& out : outputs) {
    if (!out.defined() || !out.requires_grad()) {
      grad_outputs.push_back(Tensor());
      continue;
    }
    Tensor g = randn(out.sizes(), gen, TensorOptions(out.dtype()));
    g.requires_grad_(true);
    grad_outputs.push_back(g);
  }
  bool any_output = false;
  for (const Tensor& g : grad_outputs) any_output |= g.defined();
  EMBER_CHECK(any_output, "gradgradcheck: no output of the function requires grad, so there is no backward to check");
  const size_t n_in = inputs.size();
  DifferentiableFn vjp = [&](const variable_list& args) -> variable_list {
    variable_list xs(args.begin(), args.begin() + n_in);
    variable_list gs(args.begin() + n_in, args.end());
    variable_list outs = fn(xs);
    variable_list diff_out, diff_g, diff_in;
    for (size_t i = 0; i < outs.size(); ++i)
      if (outs[i].defined() && outs[i].requires_grad() && gs[i].defined()) {
        diff_out.push_back(outs[i]);
        diff_g.push_back(gs[i]);
      }
    for (const Tensor& x : xs)
      if (x.defined() && x.requires_grad()) diff_in.push_back(x);
    if (diff_out.empty() || diff_in.empty()) return {};
    variable_list r =
        grad(diff_out, diff_in, diff_g, /*retain_graph=*/true, /*create_graph=*/true, /*allow_unused=*/true);
    for (size_t i = 0; i < r.size(); ++i)
      if (!r[i].defined()) r[i] = zeros_like(diff_in[i]);
    return r;
  };
  variable_list args = inputs;
  args.insert(args.end(), grad_outputs.begin(), grad_outputs.end());
  return gradcheck(vjp, args, o);
}

// Note [Forward-mode check]
// Random tangents t (fixed seed) for the inputs that require grad; the JVP
// from dual tensors must match the central difference along t,
// (f(x + eps t) - f(x - eps t)) / (2 eps), output element by element (complex
// outputs by real and imaginary part). Outputs without a tangent count as zero.
std::string forward_ad_check(const DifferentiableFn& fn, const variable_list& inputs_in, const GradcheckOptions& o) {
  variable_list inputs = fresh_inputs(inputs_in);
  Generator gen(4321);
  variable_list tangents(inputs.size());
  bool any = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined() || !inputs[i].requires_grad()) continue;
    tangents[i] = randn(inputs[i].sizes(), gen, TensorOptions(inputs[i].dtype()));
    any = true;
  }
  if (!any) return "";
  auto primals = [&](double step) {
    variable_list args(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!inputs[i].defined()) continue;
      args[i] = inputs[i].detach();
      if (tangents[i].defined() && step != 0) args[i] = (args[i] + tangents[i] * step).detach();
    }
    return args;
  };
  variable_list jvps;
  {
    forward_ad::DualLevel level;
    variable_list duals = primals(0);
    for (size_t i = 0; i < inputs.size(); ++i)
      if (tangents[i].defined()) duals[i] = forward_ad::make_dual(duals[i], tangents[i]);
    for (const Tensor& out : fn(duals)) jvps.push_back(out.defined() ? forward_ad::fw_grad(out) : Tensor());
  }
  variable_list plus = fn(primals(o.eps));
  variable_list minus = fn(primals(-o.eps));
  EMBER_CHECK(plus.size() == jvps.size() && minus.size() == jvps.size(),
              "forward_ad_check: the function returned a different number of outputs for a perturbed input");
  for (size_t k = 0; k < jvps.size(); ++k) {
    if (!plus[k].defined() || !(plus[k].is_floating_point() || plus[k].is_complex())) continue;
    std::vector<double> p = values(plus[k]), m = values(minus[k]);
    std::vector<double> a =
        jvps[k].defined() ? values(jvps[k].to(plus[k].dtype())) : std::vector<double>(p.size(), 0.0);
    EMBER_CHECK(a.size() == p.size(), "forward_ad_check: output ", k, " has ", p.size(),
                " real values but its tangent has ", a.size());
    for (size_t e = 0; e < p.size(); ++e) {
      const double num = (p[e] - m[e]) / (2 * o.eps);
      if (!(std::fabs(a[e] - num) <= o.atol + o.rtol * std::fabs(num)) && !(std::isnan(a[e]) && std::isnan(num))) {
        std::ostringstream os;
        os.precision(10);
        os << "forward-mode JVP mismatch for output " << k << " (real value " << e << "): dual-tensor tangent " << a[e]
           << " vs numerical " << num << (jvps[k].defined() ? "" : " (the output carries no tangent)");
        return os.str();
      }
    }
  }
  return "";
}

}  // namespace torch::autograd
