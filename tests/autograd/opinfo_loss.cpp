// OpInfo entries for softmax and the losses (formulas: ember/autograd/derivatives/nn_loss_grad.cpp;
// the other losses compose differentiable ops). Targets that are not differentiated are
// captured constants; float64 targets that PyTorch differentiates are sample inputs.
#include "opinfo.h"

#include "ember/ops/nn/loss.h"
#include "ember/ops/nn/softmax.h"

namespace torch::testing {
namespace {

using Fn = std::function<Tensor(const variable_list&)>;

OpInfo entry(const char* name, Fn f, std::function<variable_list()> make, const char* grad_fn = "",
             bool gradgrad = true) {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x)}; };
  o.samples = [make] { return std::vector<variable_list>{make()}; };
  o.grad_fn_name = grad_fn;
  o.gradgrad = gradgrad;
  return o;
}
std::function<variable_list()> s1(std::vector<int64_t> shape, double lo = -2, double hi = 2) {
  return [=] { return variable_list{sample(shape, lo, hi, 401)}; };
}
std::function<variable_list()> s2(std::vector<int64_t> a, std::vector<int64_t> b, double lo = -2, double hi = 2) {
  return [=] { return variable_list{sample(a, lo, hi, 402), sample(b, lo, hi, 403)}; };
}
// A non-differentiated float64 input.
Tensor fixed(std::vector<int64_t> shape, double lo, double hi, uint64_t seed) {
  return sample(shape, lo, hi, seed).detach();
}
Tensor tgt() { return tensor({0, 3, 1, 3}); }
Tensor tgt_ign() { return tensor({0, -100, 1, 3}); }
Tensor cweight() { return tensor({0.5, 1.5, 1.0, 2.0}, TensorOptions(kDouble)); }
Tensor signs() { return tensor({1.0, -1.0, -1.0, 1.0}, TensorOptions(kDouble)); }

RegisterOps reg({
    entry(
        "softmax(dim=1)", [](const variable_list& x) { return softmax(x[0], 1); }, s1({3, 4}), "SoftmaxBackward0"),
    entry(
        "softmax(dim=0)", [](const variable_list& x) { return softmax(x[0], 0); }, s1({3, 4, 2}), "SoftmaxBackward0"),
    entry(
        "softmax(0-dim)", [](const variable_list& x) { return softmax(x[0], 0); }, s1({})),
    entry(
        "log_softmax(dim=-1)", [](const variable_list& x) { return log_softmax(x[0], -1); }, s1({3, 4}),
        "LogSoftmaxBackward0"),
    entry(
        "log_softmax(dim=1)", [](const variable_list& x) { return log_softmax(x[0], 1); }, s1({2, 3, 4}),
        "LogSoftmaxBackward0"),

    entry(
        "nll_loss", [](const variable_list& x) { return nll_loss(x[0], tgt()); }, s1({4, 4}), "NllLossBackward0"),
    entry(
        "nll_loss(weight, ignore, none)",
        [](const variable_list& x) { return nll_loss(x[0], tgt_ign(), cweight(), Reduction::None); }, s1({4, 4}),
        "NllLossBackward0"),
    entry(
        "nll_loss(weight, sum)",
        [](const variable_list& x) { return nll_loss(x[0], tgt(), cweight(), Reduction::Sum); }, s1({4, 4})),
    entry(
        "nll_loss2d",
        [](const variable_list& x) {
          return nll_loss2d(x[0], tensor({0, 2, 1, 1, 0, 2}).view({1, 2, 3}));
        },
        s1({1, 3, 2, 3}), "NllLoss2DBackward0"),
    entry(
        "nll_loss(1D)", [](const variable_list& x) { return nll_loss(x[0], tensor(int64_t{2})); }, s1({4})),
    entry(
        "cross_entropy_loss", [](const variable_list& x) { return cross_entropy_loss(x[0], tgt()); }, s1({4, 4}),
        "NllLossBackward0"),
    entry(
        "cross_entropy_loss(weight, ignore, smoothing)",
        [](const variable_list& x) {
          return cross_entropy_loss(x[0], tgt_ign(), cweight(), Reduction::Mean, -100, 0.2);
        },
        s1({4, 4})),
    entry(
        "cross_entropy_loss(probabilities)",
        [](const variable_list& x) {
          return cross_entropy_loss(x[0], softmax(x[1], 1), cweight(), Reduction::Mean, -100, 0.1);
        },
        s2({3, 4}, {3, 4})),

    entry(
        "mse_loss", [](const variable_list& x) { return mse_loss(x[0], x[1]); }, s2({3, 4}, {3, 4})),
    entry(
        "l1_loss", [](const variable_list& x) { return l1_loss(x[0], x[1], Reduction::Sum); }, s2({3, 4}, {3, 4})),
    entry(
        "smooth_l1_loss", [](const variable_list& x) { return smooth_l1_loss(x[0], x[1], Reduction::None, 0.7); },
        s2({3, 4}, {3, 4})),
    entry(
        "huber_loss", [](const variable_list& x) { return huber_loss(x[0], x[1], Reduction::Mean, 0.6); },
        s2({3, 4}, {3, 4})),
    entry(
        "binary_cross_entropy",
        [](const variable_list& x) {
          return binary_cross_entropy(x[0], x[1], fixed({3, 4}, 0.5, 2, 404));
        },
        s2({3, 4}, {3, 4}, 0.1, 0.9)),
    entry(
        "binary_cross_entropy_with_logits",
        [](const variable_list& x) {
          return binary_cross_entropy_with_logits(x[0], x[1], fixed({3, 4}, 0.5, 2, 405), fixed({4}, 0.5, 2, 406));
        },
        s2({3, 4}, {3, 4})),
    entry(
        "kl_div", [](const variable_list& x) { return kl_div(x[0], x[1], Reduction::Sum); },
        s2({3, 4}, {3, 4}, 0.1, 1)),
    entry(
        "kl_div(log_target)", [](const variable_list& x) { return kl_div(x[0], x[1], Reduction::Mean, true); },
        s2({3, 4}, {3, 4})),
    entry(
        "poisson_nll_loss(log_input, full)",
        [](const variable_list& x) { return poisson_nll_loss(x[0], x[1] * 3, true, true, 1e-8, Reduction::Mean); },
        s2({3, 4}, {3, 4}, 0.1, 1.5)),
    entry(
        "poisson_nll_loss",
        [](const variable_list& x) { return poisson_nll_loss(x[0], x[1], false, false, 1e-8, Reduction::Sum); },
        s2({3, 4}, {3, 4}, 0.1, 1.5)),
    entry(
        "soft_margin_loss",
        [](const variable_list& x) {
          return soft_margin_loss(x[0], signs().view({2, 2}));
        },
        s1({2, 2})),
    entry(
        "margin_ranking_loss",
        [](const variable_list& x) { return margin_ranking_loss(x[0], x[1], signs(), 0.1, Reduction::Sum); },
        s2({4}, {4})),
    entry(
        "hinge_embedding_loss", [](const variable_list& x) { return hinge_embedding_loss(x[0], signs(), 0.5); },
        s1({4})),
    entry(
        "multi_margin_loss(p=2, weight)",
        [](const variable_list& x) { return multi_margin_loss(x[0], tgt(), 2, 0.5, cweight()); }, s1({4, 4})),
    entry(
        "multilabel_margin_loss",
        [](const variable_list& x) {
          return multilabel_margin_loss(x[0], tensor({0, 2, -1, 1, 3, -1, 0, 0}).view({2, 4}));
        },
        s1({2, 4})),
    entry(
        "multilabel_soft_margin_loss",
        [](const variable_list& x) { return multilabel_soft_margin_loss(x[0], x[1], cweight()); },
        s2({3, 4}, {3, 4}, 0.1, 0.9)),
    entry(
        "cosine_similarity", [](const variable_list& x) { return cosine_similarity(x[0], x[1], 1); },
        s2({3, 4}, {3, 4})),
    entry(
        "pairwise_distance", [](const variable_list& x) { return pairwise_distance(x[0], x[1]); }, s2({3, 4}, {3, 4})),
    entry(
        "pairwise_distance(p=3)", [](const variable_list& x) { return pairwise_distance(x[0], x[1], 3); },
        s2({3, 4}, {3, 4})),
    entry(
        "cosine_embedding_loss",
        [](const variable_list& x) { return cosine_embedding_loss(x[0], x[1], signs(), 0.2, Reduction::Sum); },
        s2({4, 3}, {4, 3})),
    entry(
        "triplet_margin_loss",
        [](const variable_list& x) {
          return triplet_margin_loss(x[0], x[1], fixed({3, 4}, -2, 2, 407), 3.0);
        },
        s2({3, 4}, {3, 4})),
    // gradgrad = false: like PyTorch, CTC's gradient (the beta recursion) is a constant
    // computed by the kernel, so its own derivative in log_probs is not available.
    entry(
        "ctc_loss",
        [](const variable_list& x) {
          return ctc_loss(log_softmax(x[0], 2), tensor({1, 2, 2, 1, 3, 0}).view({2, 3}), std::vector<int64_t>{5, 4},
                          std::vector<int64_t>{3, 2});
        },
        s1({5, 2, 4}), "", /*gradgrad=*/false),
});

}  // namespace
}  // namespace torch::testing
