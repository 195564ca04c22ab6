// OpInfo entries for lerp, addcmul, addcdiv and clamp with tensor bounds,
// with their in-place forms (formulas: ember/autograd/derivatives/elementwise_grad.cpp).
#include "opinfo.h"

namespace torch::testing {
namespace {

using Fn = std::function<Tensor(const variable_list&)>;

OpInfo op(const char* name, Fn f, std::vector<std::vector<int64_t>> shapes, const char* grad_fn = "", double lo = -2,
          double hi = 2) {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x)}; };
  o.samples = [=] {
    variable_list in;
    uint64_t seed = 503;
    for (const auto& s : shapes) in.push_back(sample(s, lo, hi, seed++));
    return std::vector<variable_list>{in};
  };
  o.grad_fn_name = grad_fn;
  return o;
}

RegisterOps reg({
    op(
        "lerp(scalar)", [](const variable_list& x) { return x[0].lerp(x[1], 0.3); }, {{3, 4}, {4}}, "LerpBackward0"),
    op(
        "lerp(tensor)", [](const variable_list& x) { return x[0].lerp(x[1], x[2]); }, {{3, 4}, {3, 4}, {4}},
        "LerpBackward1"),
    op(
        "lerp_", [](const variable_list& x) { return (x[0] * 1).lerp_(x[1], 0.7); }, {{3, 4}, {3, 4}}, "LerpBackward0"),
    op(
        "lerp_(tensor)", [](const variable_list& x) { return (x[0] * 1).lerp_(x[1], x[2]); }, {{3, 4}, {3, 4}, {4}},
        "LerpBackward1"),
    op(
        "addcmul", [](const variable_list& x) { return x[0].addcmul(x[1], x[2], 0.5); }, {{3, 4}, {3, 1}, {4}},
        "AddcmulBackward0"),
    op(
        "addcmul_", [](const variable_list& x) { return (x[0] * 1).addcmul_(x[1], x[2], -2); }, {{3, 4}, {3, 4}, {4}},
        "AddcmulBackward0"),
    op(
        "addcdiv", [](const variable_list& x) { return x[0].addcdiv(x[1], x[2] + 3, 0.5); }, {{3, 4}, {3, 4}, {4}},
        "AddcdivBackward0"),
    op(
        "addcdiv_", [](const variable_list& x) { return (x[0] * 1).addcdiv_(x[1], x[2] + 3); }, {{3, 4}, {3, 4}, {4}},
        "AddcdivBackward0"),
    op(
        "clamp(tensor min, max)",
        [](const variable_list& x) {
          return x[0].clamp(std::optional<Tensor>(x[1] - 1), std::optional<Tensor>(x[2] + 1));
        },
        {{3, 4}, {3, 4}, {4}}, "ClampBackward0"),
    op(
        "clamp_min(tensor)", [](const variable_list& x) { return clamp_min(x[0], x[1]); }, {{3, 4}, {4}},
        "ClampMinBackward1"),
    op(
        "clamp_max(tensor)", [](const variable_list& x) { return clamp_max(x[0], x[1]); }, {{3, 4}, {3, 1}},
        "ClampMaxBackward1"),
    op(
        "clamp_(tensor)",
        [](const variable_list& x) {
          Tensor y = x[0] * 1;
          return clamp_(y, std::optional<Tensor>(x[1] - 1), std::optional<Tensor>(x[2] + 1));
        },
        {{3, 4}, {3, 4}, {4}}, "ClampBackward0"),
    op(
        "clamp_min(scalar)", [](const variable_list& x) { return x[0].clamp_min(0.5); }, {{3, 4}}, "ClampMinBackward0"),
    op(
        "clamp_max(scalar)", [](const variable_list& x) { return x[0].clamp_max(-0.5); }, {{3, 4}},
        "ClampMaxBackward0"),
    op(
        "clamp_(scalar)", [](const variable_list& x) { return (x[0] * 1).clamp_(-1, 1); }, {{3, 4}}, "ClampBackward1"),
    op(
        "masked_fill_", [](const variable_list& x) { return (x[0] * 1).masked_fill_(x[0].detach() > 0, 0.5); },
        {{3, 4}}, "MaskedFillBackward0"),
    op(
        "fmod", [](const variable_list& x) { return x[0].fmod(x[1] + 3); }, {{3, 4}, {4}}, "FmodBackward1"),
    op(
        "remainder", [](const variable_list& x) { return x[0].remainder(x[1] + 3); }, {{3, 4}, {4}},
        "RemainderBackward1"),
});

}  // namespace
}  // namespace torch::testing
