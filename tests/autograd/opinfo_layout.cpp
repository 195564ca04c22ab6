// OpInfo entries for repeat/tile, roll, tril/triu, diagonal, diag/diag_embed/diagflat, unfold and
// as_strided (formulas: ember/autograd/derivatives/shape_layout_grad.cpp).
#include "opinfo.h"

namespace torch::testing {
namespace {

using Fn = std::function<Tensor(const Tensor&)>;

OpInfo op(const char* name, Fn f, std::vector<int64_t> shape, const char* grad_fn = "") {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x[0])}; };
  o.samples = [shape] { return std::vector<variable_list>{{sample(shape, -2, 2, 401)}}; };
  o.grad_fn_name = grad_fn;
  return o;
}

RegisterOps reg({
    op(
        "repeat",
        [](const Tensor& x) {
          return x.repeat({2, 1, 3});
        },
        {2, 3}, "RepeatBackward0"),
    op("repeat(zero)",
       [](const Tensor& x) {
         return x.repeat({0, 2});
       },
       {2, 3}),
    op(
        "tile", [](const Tensor& x) { return x.tile({2}); }, {2, 3}, "RepeatBackward0"),
    op(
        "roll",
        [](const Tensor& x) {
          return x.roll({1, -2}, {0, 1});
        },
        {3, 4}, "RollBackward0"),
    op(
        "roll(flat)", [](const Tensor& x) { return x.roll({5}); }, {3, 4}, "RollBackward0"),
    op(
        "tril", [](const Tensor& x) { return x.tril(); }, {3, 4}, "TrilBackward0"),
    op(
        "triu(-1)", [](const Tensor& x) { return x.triu(-1); }, {2, 3, 4}, "TriuBackward0"),
    op(
        "tril_", [](const Tensor& x) { return (x * 1).tril_(1); }, {3, 4}, "TrilBackward0"),
    op(
        "diagonal", [](const Tensor& x) { return x.diagonal(); }, {3, 4}, "DiagonalBackward0"),
    op("diagonal(offset, dims)", [](const Tensor& x) { return x.diagonal(-1, 2, 0); }, {3, 2, 4}),
    op(
        "diag(vector)", [](const Tensor& x) { return x.diag(); }, {4}, "DiagBackward0"),
    op(
        "diag(vector, -2)", [](const Tensor& x) { return ember::diag(x, -2); }, {3}, "DiagBackward0"),
    op(
        "diag(matrix, 1)", [](const Tensor& x) { return x.diag(1); }, {3, 4}, "DiagBackward0"),
    op(
        "diag(matrix, -1)", [](const Tensor& x) { return ember::diag(x, -1); }, {4, 3}, "DiagBackward0"),
    op(
        "diag_embed", [](const Tensor& x) { return x.diag_embed(); }, {2, 3}, "DiagEmbedBackward0"),
    op(
        "diag_embed(offset, dims)", [](const Tensor& x) { return ember::diag_embed(x, -1, 2, 0); }, {2, 3},
        "DiagEmbedBackward0"),
    op(
        "diagflat", [](const Tensor& x) { return x.diagflat(1); }, {2, 2}, "DiagBackward0"),
    op(
        "unfold", [](const Tensor& x) { return x.unfold(1, 3, 2); }, {2, 7}, "UnfoldBackward0"),
    op("unfold(gaps)", [](const Tensor& x) { return x.unfold(0, 2, 3); }, {7, 2}),
    op(
        "as_strided",
        [](const Tensor& x) {
          return x.as_strided({2, 2}, {1, 4}, 1);
        },
        {3, 4}, "AsStridedBackward0"),
    op("as_strided(overlapping out)",
       [](const Tensor& x) {
         return x.as_strided({3, 3}, {1, 1});
       },
       {6}),
    op("as_strided(of a view)",
       [](const Tensor& x) {
         return x.t().as_strided({2, 3}, {2, 1}, 2);
       },
       {3, 4}),
});

}  // namespace
}  // namespace torch::testing
