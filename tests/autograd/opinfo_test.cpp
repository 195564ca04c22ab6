// Walks the OpInfo registry: every sample of every differentiable op must pass
// gradcheck, (unless the entry says otherwise) gradgradcheck, and the
// forward-mode check (dual-tensor tangents against finite differences) in
// float64; then the transform checks: second-order transforms against the
// double backward, vmap and per-sample gradients against a per-sample loop.
#include <gtest/gtest.h>

#include "opinfo.h"

using namespace ember;
using namespace ember::testing;

TEST(OpInfo, RegistryIsPopulated) { EXPECT_FALSE(op_registry().empty()); }

namespace {
// The registry is walked in kShards interleaved shards (entry i goes to shard
// i % kShards), each its own ctest test: the walk takes minutes under the
// sanitizers, and shards run in parallel and keep under the per-test timeout.
constexpr int kShards = 16;

// Runs `check` on every sample of every entry of `shard`; an exception is a failure of that entry.
template <typename Check>
void for_each_sample(int shard, bool skip_no_gradgrad, Check check) {
  const auto& ops = op_registry();
  for (size_t k = static_cast<size_t>(shard); k < ops.size(); k += kShards) {
    const OpInfo& op = ops[k];
    if (skip_no_gradgrad && !op.gradgrad) continue;
    int i = 0;
    for (const variable_list& inputs : op.samples()) {
      std::string err;
      try {
        err = check(op, inputs);
      } catch (const std::exception& e) {
        err = std::string("threw: ") + e.what();
      }
      EXPECT_TRUE(err.empty()) << op.name << " sample " << i << ": " << err;
      ++i;
    }
  }
}
}  // namespace

class OpInfoShard : public ::testing::TestWithParam<int> {};

TEST_P(OpInfoShard, Gradcheck) {
  for_each_sample(GetParam(), false,
                  [](const OpInfo& op, const variable_list& x) { return autograd::gradcheck(op.fn, x); });
}

TEST_P(OpInfoShard, Gradgradcheck) {
  for_each_sample(GetParam(), true,
                  [](const OpInfo& op, const variable_list& x) { return autograd::gradgradcheck(op.fn, x); });
}

TEST_P(OpInfoShard, ForwardAD) {
  for_each_sample(GetParam(), false, [](const OpInfo& op, const variable_list& x) {
    return op.forward_ad ? autograd::forward_ad_check(op.fn, x) : std::string();
  });
}

INSTANTIATE_TEST_SUITE_P(OpInfo, OpInfoShard, ::testing::Range(0, kShards));

TEST(OpInfo, GradFnNames) {
  for (const OpInfo& op : op_registry()) {
    if (op.grad_fn_name.empty()) continue;
    variable_list out = op.fn(op.samples().front());
    ASSERT_TRUE(out[0].grad_fn()) << op.name;
    EXPECT_EQ(out[0].grad_fn()->name(), op.grad_fn_name) << op.name;
  }
}

namespace {
// The second-order transforms run an op's backward formula on a batched
// gradient (jacrev vmaps over cotangents) and need that formula's result to
// keep its history in the op's inputs; func::hessian also pushes batched
// tangents through it. For each differentiable float64 input, the Hessian of
// a fixed random weighting of the squared outputs from jacrev(jacrev) and
// from func::hessian (jacfwd over jacrev) must match the row-by-row double
// backward, which gradgradcheck has checked against finite differences. The
// outputs are squared so that the gradient reaching the op depends on its
// inputs: a linear op's formula that drops the history of its batched
// gradient (e.g. a write into zeros below autograd) then shows.
// Refusals torch.func makes too for such samples: random ops under the default
// randomness="error", data-dependent shapes, an in-place write of a batched
// value into an unbatched tensor, item() of a batched tensor, and
// as_strided's backward when its input overlaps in memory. (A batched stft
// window is Ember's own limit, stated in its error.) Anything else, e.g. a
// missing batching rule, is a failure.
bool refused_as_pytorch(const std::string& what) {
  for (const char* s : {"randomness error mode", "output dynamic shape", "in-place arithmetic is not possible",
                        "is not possible because there exists a Tensor in extra_args", "called on a tensor batched",
                        "a window batched by vmap"})
    if (what.find(s) != std::string::npos) return true;
  return false;
}

// The scalar the transform checks differentiate: the sum over the float64
// and complex128 outputs of out^2 * w (a complex output through its real and
// imaginary parts), w a fixed random weight per output.
variable_list output_weights(const variable_list& out, uint64_t seed) {
  variable_list w;
  for (size_t k = 0; k < out.size(); ++k) {
    const Tensor& t = out[k];
    if (!t.defined() || (t.scalar_type() != kDouble && t.scalar_type() != kComplexDouble)) {
      w.push_back(Tensor());
      continue;
    }
    DimVector shape(t.sizes());
    if (t.is_complex()) shape.push_back(2);
    w.push_back(sample(shape, -1, 1, seed + k).detach());
  }
  return w;
}

Tensor weighted_square_sum(const variable_list& out, const variable_list& weights) {
  Tensor s = zeros({}, kDouble);
  for (size_t k = 0; k < out.size(); ++k) {
    if (!weights[k].defined()) continue;
    Tensor r = out[k].is_complex() ? view_as_real(out[k]) : out[k];
    s = s + (r * r * weights[k]).sum();
  }
  return s;
}

std::string transform_hessian_check(const OpInfo& op, const variable_list& x) {
  std::string err;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!x[i].defined() || !x[i].requires_grad() || x[i].scalar_type() != kDouble) continue;
    variable_list fixed;
    for (const Tensor& t : x) fixed.push_back(t.defined() ? t.detach() : t);
    variable_list weights;
    {
      NoGradGuard ng;
      weights = output_weights(op.fn(fixed), 100);
    }
    auto f = [&](const Tensor& t) {
      variable_list in = fixed;
      in[i] = t;
      return weighted_square_sum(op.fn(in), weights);
    };
    Tensor hess = autograd::functional::hessian(f, fixed[i], false, false, false);
    Tensor leaf = fixed[i].clone().requires_grad_();
    Tensor value = f(leaf);
    Tensor grad = value.requires_grad()
                      ? autograd::grad({value}, {leaf}, {}, std::nullopt, false, /*allow_unused=*/true)[0]
                      : Tensor();
    if (!grad.defined()) grad = zeros_like(leaf);
    // First order too: jacfwd runs f on the primal expanded over the basis
    // (Note [jvp under vmap]), which the other transforms never do.
    const std::tuple<const char*, std::function<Tensor(const Tensor&)>, Tensor> forms[] = {
        {"jacfwd", func::jacfwd(f), grad},
        {"jacrev(jacrev)", func::jacrev(func::jacrev(f)), hess},
        {"func::hessian", func::hessian(f), hess}};
    for (const auto& [name, h, ref] : forms) {
      std::string e;
      try {
        Tensor got = h(fixed[i]);
        if (!got.sizes().equals(ref.sizes()) || !allclose(got, ref, 1e-6, 1e-8))
          e = "differs: max |got - ref| = " + (got.sizes().equals(ref.sizes())
                                                   ? std::to_string((got - ref).abs().max().item<double>())
                                                   : std::string("(shape)"));
      } catch (const std::exception& ex) {
        if (!refused_as_pytorch(ex.what())) e = std::string("threw: ") + ex.what();
      }
      if (!e.empty()) err += std::string(err.empty() ? "" : "; ") + "input " + std::to_string(i) + " " + name + " " + e;
    }
  }
  return err;
}
}  // namespace

TEST_P(OpInfoShard, TransformHessian) { for_each_sample(GetParam(), true, transform_hessian_check); }

namespace {
// vmap over batched primal inputs, against the per-sample loop. The Hessian
// check above batches only gradients and tangents; this walk batches the op's
// own inputs, so every op's forward batching rule is checked on the shapes,
// dtypes and arguments of its samples, and then the outer backward through
// it. For each float64 or complex128 input alone (batch dim last, so rules see a
// non-leading batch dim) and then for all of them at once (batch dim 0), the
// batch holds three copies, each scaled and shifted a little differently so
// that a rule mixing up samples shows. Each sample of the loop is a fresh
// tensor (a clone of its slice): that is what vmap's as_strided addresses
// (storage offsets count from each sample's start, as in functorch), and no
// other op can tell the difference. When the loop raises, vmap must raise too.
// vmap may refuse what torch.vmap refuses: refused_as_pytorch's cases, and an
// error the op also raises on the plain slice (a layout refusal).
constexpr int64_t kVmapBatch = 3;

Tensor batch_of_copies(const Tensor& x, int64_t dim, uint64_t seed) {
  std::vector<Tensor> copies;
  for (int64_t k = 0; k < kVmapBatch; ++k) {
    Tensor noise = sample(x.sizes(), -1, 1, seed + static_cast<uint64_t>(k)).detach();
    copies.push_back(x.detach() * (1.0 - 0.02 * static_cast<double>(k)) + noise * (0.005 * static_cast<double>(k)));
  }
  return stack(copies, dim).requires_grad_(x.requires_grad());
}

std::string compare_tensors(const std::string& at, const Tensor& got, const Tensor& want) {
  if (got.defined() != want.defined()) return at + "defined differs";
  if (!got.defined()) return {};
  if (!got.sizes().equals(want.sizes()))
    return at + "shape " + shape_str(got.sizes()) + " vs " + shape_str(want.sizes());
  if (got.scalar_type() != want.scalar_type())
    return at + "dtype " + dtype_name(got.scalar_type()) + " vs " + dtype_name(want.scalar_type());
  if (!allclose(got.detach(), want.detach(), 1e-7, 1e-9, /*equal_nan=*/true))
    return at + "values differ (max |got - want| = " +
           std::to_string((got.detach().to(kDouble) - want.detach().to(kDouble)).abs().max().item<double>()) + ")";
  // (allclose of two empty tensors is true, so the max above has elements)
  return {};
}

// The weighted square sum of the outputs, differentiated to `leaves`.
variable_list grads_of_outputs(const variable_list& out, const variable_list& leaves) {
  Tensor s = weighted_square_sum(out, output_weights(out, 900));
  if (!s.requires_grad()) return {};
  return autograd::grad({s}, leaves, {}, std::nullopt, false, /*allow_unused=*/true);
}

// The batch dim of vmap's as_strided is only meaningful outermost in memory
// (functorch's definition); the loop cannot express the other layouts.
bool batch_dim_outermost_only(const OpInfo& op) { return op.name.rfind("as_strided", 0) == 0; }

// Whether the op raises `what` on the plain (uncloned) slices too: a layout
// refusal, e.g. view_as_complex of a slice whose last dim is not contiguous,
// which torch.vmap makes as well.
bool slice_raises(const OpInfo& op, const variable_list& in, const std::vector<std::optional<int64_t>>& dims,
                  const std::vector<size_t>& pattern, const std::string& what) {
  variable_list args = in;
  for (size_t i : pattern) args[i] = in[i].select(*dims[i], 0);
  try {
    op.fn(args);
  } catch (const std::exception& ex) {
    return what == ex.what();
  }
  return false;
}

// One way of batching a sample: which inputs carry the batch and where.
struct VmapCase {
  std::vector<size_t> batched;               // input indices
  std::vector<std::optional<int64_t>> dims;  // in_dims for vmap
  variable_list in;                          // the inputs, batched ones stacked
  std::string label;
};

std::vector<VmapCase> vmap_cases(const OpInfo& op, const variable_list& x) {
  std::vector<size_t> batchable;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i].defined() && (x[i].scalar_type() == kDouble || x[i].scalar_type() == kComplexDouble))
      batchable.push_back(i);
  std::vector<std::vector<size_t>> patterns;
  if (!batch_dim_outermost_only(op))
    for (size_t i : batchable) patterns.push_back({i});
  if (!batchable.empty()) patterns.push_back(batchable);
  std::vector<VmapCase> cases;
  for (size_t p = 0; p < patterns.size(); ++p) {
    VmapCase c{patterns[p], std::vector<std::optional<int64_t>>(x.size()), x, "inputs {"};
    const bool alone = p + 1 < patterns.size();
    for (size_t i : c.batched) {
      const int64_t d = alone ? x[i].dim() : 0;
      c.dims[i] = d;
      c.in[i] = batch_of_copies(x[i], d, 500 + i);
      c.label += (c.label.back() == '{' ? "" : ",") + std::to_string(i);
    }
    c.label += "} batched at dim " + std::to_string(*c.dims[c.batched[0]]) + ": ";
    cases.push_back(std::move(c));
  }
  return cases;
}

// Sample b of a case's inputs, each batched input a fresh tensor.
variable_list sample_of(const VmapCase& c, int64_t b) {
  variable_list args = c.in;
  for (size_t i : c.batched)
    args[i] = c.in[i].select(*c.dims[i], b).detach().clone().requires_grad_(c.in[i].requires_grad());
  return args;
}

variable_list stack_samples(const std::vector<variable_list>& per_sample) {
  variable_list out;
  for (size_t j = 0; j < per_sample[0].size(); ++j) {
    std::vector<Tensor> outs;
    for (const variable_list& s : per_sample) outs.push_back(s[j]);
    out.push_back(outs[0].defined() ? stack(outs, 0) : Tensor());
  }
  return out;
}

std::string transform_vmap_check(const OpInfo& op, const variable_list& x) {
  std::string err;
  for (const VmapCase& c : vmap_cases(op, x)) {
    variable_list leaves;
    for (size_t i : c.batched)
      if (c.in[i].requires_grad()) leaves.push_back(c.in[i]);
    std::string e;
    std::vector<variable_list> per_sample;
    std::string loop_error;
    try {
      for (int64_t b = 0; b < kVmapBatch; ++b) {
        variable_list args = c.in;
        for (size_t i : c.batched) args[i] = c.in[i].select(*c.dims[i], b).clone();
        per_sample.push_back(op.fn(args));
      }
    } catch (const std::exception& ex) {
      loop_error = ex.what();
    }
    try {
      variable_list got = vmap(op.fn, c.dims)(c.in);
      if (!loop_error.empty()) {
        e = "vmap returned where the loop raised: " + loop_error;
      } else {
        variable_list want = stack_samples(per_sample);
        if (got.size() != want.size()) e = "output count differs";
        for (size_t j = 0; j < got.size() && e.empty(); ++j)
          e = compare_tensors("output " + std::to_string(j) + ": ", got[j], want[j]);
        if (e.empty() && !leaves.empty()) {
          variable_list g_got = grads_of_outputs(got, leaves);
          variable_list g_want = grads_of_outputs(want, leaves);
          for (size_t l = 0; l < g_got.size() && e.empty(); ++l)
            e = compare_tensors("gradient of batched input " + std::to_string(l) + ": ", g_got[l], g_want[l]);
        }
      }
    } catch (const std::exception& ex) {
      if (loop_error.empty() && !refused_as_pytorch(ex.what()) && !slice_raises(op, c.in, c.dims, c.batched, ex.what()))
        e = std::string("threw: ") + ex.what();
    }
    if (!e.empty()) err += std::string(err.empty() ? "" : "; ") + c.label + e;
  }
  return err;
}

// Per-sample gradients, the common use of transforms: vmap(func::grad(g))
// with g the weighted square sum of the op's outputs (w shared by all
// samples), against autograd::grad run on each sample. Here the backward
// formulas run on batched saved tensors and batched gradients, inside vmap.
std::string transform_vmap_grad_check(const OpInfo& op, const variable_list& x) {
  std::string err;
  for (const VmapCase& c : vmap_cases(op, x)) {
    std::vector<int64_t> argnums;
    for (size_t i : c.batched)
      if (c.in[i].requires_grad()) argnums.push_back(static_cast<int64_t>(i));
    if (argnums.empty()) continue;
    std::string e;
    variable_list weights;
    std::vector<variable_list> want;
    try {
      for (int64_t b = 0; b < kVmapBatch; ++b) {
        variable_list args = sample_of(c, b);
        variable_list out = op.fn(args);
        if (weights.empty()) weights = output_weights(out, 900);
        Tensor s = weighted_square_sum(out, weights);
        variable_list wrt;
        for (int64_t i : argnums) wrt.push_back(args[static_cast<size_t>(i)]);
        variable_list g = autograd::grad({s}, wrt, {}, std::nullopt, false, /*allow_unused=*/true);
        for (size_t l = 0; l < g.size(); ++l)
          if (!g[l].defined()) g[l] = zeros_like(wrt[l]);
        want.push_back(g);
      }
    } catch (const std::exception&) {
      continue;  // the loop itself refuses (checked by the walk above); nothing to compare
    }
    auto g = [&](const variable_list& in) { return variable_list{weighted_square_sum(op.fn(in), weights)}; };
    try {
      variable_list got = vmap(func::grad(g, argnums), c.dims)(c.in);
      variable_list expected = stack_samples(want);
      for (size_t l = 0; l < got.size() && e.empty(); ++l)
        e = compare_tensors("gradient of input " + std::to_string(argnums[l]) + ": ", got[l], expected[l]);
    } catch (const std::exception& ex) {
      if (!refused_as_pytorch(ex.what()) && !slice_raises(op, c.in, c.dims, c.batched, ex.what()))
        e = std::string("threw: ") + ex.what();
    }
    if (!e.empty()) err += std::string(err.empty() ? "" : "; ") + c.label + e;
  }
  return err;
}

// Forward mode under vmap: vmap(func::jvp) with per-sample primals and
// tangents, against func::jvp on each sample, so the forward-mode formulas
// run on batched primals (the Hessian check only batches tangents).
std::string transform_vmap_jvp_check(const OpInfo& op, const variable_list& x) {
  if (!op.forward_ad) return {};
  std::string err;
  for (const VmapCase& c : vmap_cases(op, x)) {
    std::vector<size_t> diff;
    for (size_t i : c.batched)
      if (c.in[i].requires_grad()) diff.push_back(i);
    if (diff.empty()) continue;
    // f(inputs..., tangents of the inputs in `diff`...) -> {outputs..., output tangents...}
    auto f = [&](const variable_list& a) {
      variable_list primals, tangents;
      for (size_t k = 0; k < diff.size(); ++k) {
        primals.push_back(a[diff[k]]);
        tangents.push_back(a[c.in.size() + k]);
      }
      auto g = [&](const variable_list& p) {
        variable_list args(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(c.in.size()));
        for (size_t k = 0; k < diff.size(); ++k) args[diff[k]] = p[k];
        return op.fn(args);
      };
      func::JvpResult r = func::jvp(g, primals, tangents);
      variable_list out = r.outputs;
      out.insert(out.end(), r.tangents.begin(), r.tangents.end());
      return out;
    };
    variable_list in = c.in;
    std::vector<std::optional<int64_t>> dims = c.dims;
    for (size_t k = 0; k < diff.size(); ++k) {
      in.push_back(batch_of_copies(sample(c.in[diff[k]].select(*c.dims[diff[k]], 0).sizes(), -1, 1, 700 + k),
                                   *c.dims[diff[k]], 800 + 10 * k));
      dims.push_back(c.dims[diff[k]]);
    }
    for (Tensor& t : in) t = t.defined() ? t.detach() : t;
    std::string e;
    std::vector<variable_list> per_sample;
    try {
      for (int64_t b = 0; b < kVmapBatch; ++b) {
        variable_list args = in;
        for (size_t i = 0; i < in.size(); ++i)
          if (dims[i]) args[i] = in[i].select(*dims[i], b).clone();
        per_sample.push_back(f(args));
      }
    } catch (const std::exception&) {
      continue;  // the loop itself refuses; the walks above check vmap raises then
    }
    try {
      variable_list got = vmap(f, dims)(in);
      variable_list want = stack_samples(per_sample);
      if (got.size() != want.size()) e = "output count differs";
      for (size_t j = 0; j < got.size() && e.empty(); ++j)
        e = compare_tensors(
            (j < got.size() / 2 ? "output " : "tangent of output ") + std::to_string(j % (got.size() / 2)) + ": ",
            got[j], want[j]);
    } catch (const std::exception& ex) {
      if (!refused_as_pytorch(ex.what()) && !slice_raises(op, c.in, c.dims, c.batched, ex.what()))
        e = std::string("threw: ") + ex.what();
    }
    if (!e.empty()) err += std::string(err.empty() ? "" : "; ") + c.label + e;
  }
  return err;
}
}  // namespace

TEST_P(OpInfoShard, TransformVmap) { for_each_sample(GetParam(), false, transform_vmap_check); }
TEST_P(OpInfoShard, TransformVmapGrad) { for_each_sample(GetParam(), false, transform_vmap_grad_check); }
TEST_P(OpInfoShard, TransformVmapJvp) { for_each_sample(GetParam(), false, transform_vmap_jvp_check); }

namespace {
// Layouts: every op must give the same outputs and input gradients when its
// inputs (index tensors too) are strided views as when they are contiguous:
// every other element of a larger buffer at a non-zero offset, and the dims
// reversed in memory. Kernels that assume a layout show here.
Tensor relaid(const Tensor& t, bool reversed) {
  Tensor v;
  {
    NoGradGuard ng;
    if (reversed) {
      std::vector<int64_t> perm;
      for (int64_t d = t.dim() - 1; d >= 0; --d) perm.push_back(d);
      v = t.detach().permute(perm).contiguous().permute(perm);
    } else {
      DimVector shape(t.sizes());
      shape.push_back(2);
      v = zeros(shape, t.options()).select(-1, 1);
      v.copy_(t.detach());
    }
  }
  return v.requires_grad_(t.requires_grad());
}

// Ops defined on the memory layout itself, which PyTorch too answers
// differently (as_strided reads storage) or refuses (view, view_as_complex)
// for other strides.
bool reads_layout(const OpInfo& op) {
  return op.name.rfind("as_strided", 0) == 0 || op.name == "view" || op.name == "view_as_complex";
}

std::string layout_check(const OpInfo& op, const variable_list& x) {
  if (reads_layout(op)) return {};
  variable_list leaves;
  variable_list contiguous;
  for (const Tensor& t : x) {
    contiguous.push_back(t.defined() ? t.detach().clone().requires_grad_(t.requires_grad()) : t);
    if (t.defined() && t.requires_grad()) leaves.push_back(contiguous.back());
  }
  variable_list want = op.fn(contiguous);
  variable_list want_grads = grads_of_outputs(want, leaves);
  std::string err;
  for (bool reversed : {false, true}) {
    variable_list in;
    variable_list in_leaves;
    for (const Tensor& t : x) {
      in.push_back(t.defined() ? relaid(t, reversed) : t);
      if (t.defined() && t.requires_grad()) in_leaves.push_back(in.back());
    }
    std::string e;
    try {
      variable_list got = op.fn(in);
      if (got.size() != want.size()) e = "output count differs";
      for (size_t j = 0; j < got.size() && e.empty(); ++j)
        e = compare_tensors("output " + std::to_string(j) + ": ", got[j], want[j]);
      variable_list got_grads = e.empty() ? grads_of_outputs(got, in_leaves) : variable_list{};
      for (size_t l = 0; l < got_grads.size() && e.empty(); ++l)
        e = compare_tensors("gradient of input " + std::to_string(l) + ": ", got_grads[l], want_grads[l]);
    } catch (const std::exception& ex) {
      e = std::string("threw: ") + ex.what();
    }
    if (!e.empty())
      err += std::string(err.empty() ? "" : "; ") + (reversed ? "dims reversed: " : "every other element: ") + e;
  }
  return err;
}
}  // namespace

TEST_P(OpInfoShard, StridedInputs) { for_each_sample(GetParam(), false, layout_check); }

namespace {
// Unusual inputs: every op must either run or raise ember::Error (never
// another exception, a crash or, under the sanitizers, a memory error) when
// one input is emptied along one of its dims, or converted to another dtype
// (float32, float16, int64, bool, complex128); the backward runs too where
// the outputs have float64 gradients. And with all floating inputs in float32
// it must agree with its float64 run to float32 accuracy (entries that mix in
// float64 constants of their own promote or refuse, and are not compared).
std::string run_or_raise(const OpInfo& op, const variable_list& in, const std::string& what) {
  try {
    variable_list out = op.fn(in);
    variable_list leaves;
    for (const Tensor& t : in)
      if (t.defined() && t.requires_grad()) leaves.push_back(t);
    Tensor s = weighted_square_sum(out, output_weights(out, 7));
    if (s.requires_grad() && !leaves.empty())  // the backward formulas on such inputs too
      autograd::grad({s}, leaves, {}, std::nullopt, false, /*allow_unused=*/true);
  } catch (const Error&) {
  } catch (const std::exception& ex) {
    return what + ": threw a non-ember exception: " + ex.what();
  }
  return {};
}

std::string edge_inputs_check(const OpInfo& op, const variable_list& x) {
  std::string err;
  auto add = [&](const std::string& e) {
    if (!e.empty()) err += std::string(err.empty() ? "" : "; ") + e;
  };
  for (size_t i = 0; i < x.size(); ++i) {
    if (!x[i].defined()) continue;
    for (int64_t d = 0; d < x[i].dim(); ++d) {
      variable_list in = x;
      in[i] = x[i].detach().narrow(d, 0, 0).requires_grad_(x[i].requires_grad() && x[i].is_floating_point());
      add(run_or_raise(op, in, "input " + std::to_string(i) + " empty along dim " + std::to_string(d)));
    }
    for (ScalarType t : {kFloat, kHalf, kLong, kBool, kComplexDouble}) {
      if (t == x[i].scalar_type()) continue;
      variable_list in = x;
      in[i] = x[i].detach().to(t);
      add(run_or_raise(op, in, "input " + std::to_string(i) + " as " + dtype_name(t)));
    }
  }
  // float32 against float64.
  variable_list lo = x;
  bool any = false;
  for (Tensor& t : lo)
    if (t.defined() && t.scalar_type() == kDouble) {
      t = t.detach().to(kFloat);
      any = true;
    }
  if (!any) return err;
  try {
    variable_list want = op.fn(x);
    variable_list got = op.fn(lo);
    for (size_t j = 0; j < got.size() && j < want.size(); ++j) {
      if (!got[j].defined() || !want[j].defined() || !got[j].is_floating_point()) continue;
      if (!got[j].sizes().equals(want[j].sizes())) {
        add("float32 output " + std::to_string(j) + ": shape differs");
        continue;
      }
      // An entry whose function makes float64 constants (weights, an identity,
      // a module's parameters) promotes or refuses: nothing to compare.
      if (got[j].scalar_type() != kFloat) continue;
      if (!allclose(got[j].detach().to(kDouble), want[j].detach(), 1e-3, 1e-4, /*equal_nan=*/true))
        add("float32 output " + std::to_string(j) + ": differs from float64 by " +
            std::to_string((got[j].detach().to(kDouble) - want[j].detach()).abs().max().item<double>()));
    }
  } catch (const Error&) {
  }
  return err;
}
}  // namespace

TEST_P(OpInfoShard, EdgeInputs) { for_each_sample(GetParam(), false, edge_inputs_check); }

namespace {
// Backward leaves everything as it found it: with retain_graph, a second
// backward over the same graph gives the same gradients, and neither the
// inputs, the outputs nor the incoming gradient change. Catches formulas that
// write over a saved tensor or over a gradient someone else still holds
// (Note [Gradients overwritten in place]).
std::string backward_is_pure_check(const OpInfo& op, const variable_list& x) {
  variable_list leaves;
  for (const Tensor& t : x)
    if (t.defined() && t.requires_grad()) leaves.push_back(t);
  if (leaves.empty()) return {};
  variable_list out = op.fn(x);
  variable_list grad_outputs, roots;
  for (size_t k = 0; k < out.size(); ++k) {
    if (!out[k].defined() || !out[k].requires_grad() || !out[k].is_floating_point()) continue;
    roots.push_back(out[k]);
    grad_outputs.push_back(sample(out[k].sizes(), -1, 1, 300 + k).detach());
  }
  if (roots.empty()) return {};
  variable_list inputs_before, outputs_before, grads_before;
  for (const Tensor& t : x) inputs_before.push_back(t.defined() ? t.detach().clone() : t);
  for (const Tensor& t : roots) outputs_before.push_back(t.detach().clone());
  for (const Tensor& g : grad_outputs) grads_before.push_back(g.clone());
  variable_list g1 = autograd::grad(roots, leaves, grad_outputs, /*retain_graph=*/true, false, true);
  variable_list g2 = autograd::grad(roots, leaves, grad_outputs, /*retain_graph=*/true, false, true);
  std::string e;
  for (size_t l = 0; l < g1.size() && e.empty(); ++l)
    e = compare_tensors("second backward, gradient " + std::to_string(l) + ": ", g2[l], g1[l]);
  for (size_t i = 0; i < x.size() && e.empty(); ++i)
    if (x[i].defined()) e = compare_tensors("input " + std::to_string(i) + " after backward: ", x[i], inputs_before[i]);
  for (size_t k = 0; k < roots.size() && e.empty(); ++k)
    e = compare_tensors("output " + std::to_string(k) + " after backward: ", roots[k], outputs_before[k]);
  for (size_t k = 0; k < grad_outputs.size() && e.empty(); ++k)
    e = compare_tensors("grad_output " + std::to_string(k) + " after backward: ", grad_outputs[k], grads_before[k]);
  return e;
}
}  // namespace

TEST_P(OpInfoShard, BackwardIsPure) { for_each_sample(GetParam(), false, backward_is_pure_check); }

namespace {
// Without grad mode (NoGradGuard, InferenceMode) an op gives the same values,
// and outputs that neither require grad nor carry a grad_fn.
std::string no_grad_check(const OpInfo& op, const variable_list& x) {
  const variable_list want = op.fn(x);
  std::string e;
  auto check = [&](const char* mode, const variable_list& got) {
    if (got.size() != want.size()) e = std::string(mode) + ": output count differs";
    for (size_t j = 0; j < got.size() && e.empty(); ++j) {
      // No history; a view of an input that requires grad reports requires_grad (PyTorch's rule).
      const auto view_of_grad_input = [&](const Tensor& t) {
        for (const Tensor& in : x)
          if (in.defined() && in.requires_grad() && t.storage().is_alias_of(in.storage())) return true;
        return false;
      };
      if (got[j].defined() && (got[j].grad_fn() || (got[j].requires_grad() && !view_of_grad_input(got[j]))))
        e = std::string(mode) + ": output " + std::to_string(j) + " requires grad";
      else
        e = compare_tensors(std::string(mode) + ": output " + std::to_string(j) + ": ", got[j], want[j]);
    }
  };
  {
    NoGradGuard ng;
    check("no_grad", op.fn(x));
  }
  if (e.empty()) {
    InferenceMode im;
    check("inference_mode", op.fn(x));
  }
  return e;
}
}  // namespace

TEST_P(OpInfoShard, NoGradMatchesGrad) { for_each_sample(GetParam(), false, no_grad_check); }
