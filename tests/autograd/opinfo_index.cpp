// OpInfo entries for the indexing family (formulas:
// ember/autograd/derivatives/index_grad.cpp). Indices that write (scatter,
// index_put without accumulate, index_copy) are unique, as the gradient of an
// overwritten value is defined only then.
#include "opinfo.h"

namespace torch::testing {
namespace {

using Fn = std::function<Tensor(const variable_list&)>;
using ember::indexing::Slice;

OpInfo op(const char* name, Fn f, std::vector<std::vector<int64_t>> shapes, const char* grad_fn = "") {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x)}; };
  o.samples = [=] {
    variable_list in;
    uint64_t seed = 307;
    for (const auto& s : shapes) in.push_back(sample(s, -2, 2, seed++));
    return std::vector<variable_list>{in};
  };
  o.grad_fn_name = grad_fn;
  return o;
}

Tensor idx(std::initializer_list<int64_t> v) { return tensor(std::vector<int64_t>(v), kLong); }
Tensor idx2(std::initializer_list<int64_t> v, int64_t rows) { return idx(v).view({rows, -1}); }
Tensor mask34() { return (idx({1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0}) != 0).view({3, 4}); }
std::vector<std::optional<Tensor>> opt(std::initializer_list<std::optional<Tensor>> v) { return v; }

RegisterOps reg({
    // advanced indexing
    op(
        "index(tensor)",
        [](const variable_list& x) {
          return x[0].index({idx({2, 0, 2, -1})});
        },
        {{3, 4}}, "IndexBackward0"),
    op("index(slice, tensor)",
       [](const variable_list& x) {
         return x[0].index({Slice(), idx2({1, 3, 3, 0}, 2)});
       },
       {{3, 4}}),
    op("index(two tensors)",
       [](const variable_list& x) {
         return x[0].index({idx({0, 2, 2}), idx({1, 3, 1})});
       },
       {{3, 4}}),
    op("index(mask)", [](const variable_list& x) { return x[0].index({mask34()}); }, {{3, 4}}),
    op(
        "index_put(accumulate)",
        [](const variable_list& x) {
          return index_put(x[0], opt({idx({0, 2, 0})}), x[1], true);
        },
        {{3, 4}, {3, 4}}, "IndexPutBackward0"),
    op("index_put",
       [](const variable_list& x) {
         return index_put(x[0], opt({std::nullopt, idx({3, 1})}), x[1], false);
       },
       {{3, 4}, {3, 2}}),
    op("index_put(broadcast values)",
       [](const variable_list& x) {
         return index_put(x[0], opt({idx({2, 0})}), x[1], false);
       },
       {{3, 4}, {1, 1, 4}}),
    op("index_put_(tensor index)",
       [](const variable_list& x) {
         Tensor y = x[0] * 1;
         y.index_put_({idx({1, 2})}, x[1]);
         return y;
       },
       {{3, 4}, {4}}),
    op("index_put_(mask, scalar)",
       [](const variable_list& x) {
         Tensor y = x[0] * 1;
         y.index_put_({mask34()}, 0.5);
         return y;
       },
       {{3, 4}}),
    op(
        "take",
        [](const variable_list& x) {
          return x[0].take(idx2({0, -1, 5, 5}, 2));
        },
        {{3, 4}}, "TakeBackward0"),
    op(
        "masked_select", [](const variable_list& x) { return x[0].masked_select(mask34()); }, {{3, 4}},
        "MaskedSelectBackward0"),
    op("masked_select(broadcast)", [](const variable_list& x) { return x[0].masked_select(mask34()); }, {{4}}),
    // scatter / gather family
    op(
        "scatter(src)",
        [](const variable_list& x) {
          return x[0].scatter(1, idx2({3, 0, 1, 2, 0, 3}, 3), x[1]);
        },
        {{3, 4}, {3, 2}}, "ScatterBackward0"),
    op(
        "scatter(value)",
        [](const variable_list& x) {
          return x[0].scatter(0, idx2({2, 0, 1, 1}, 1), 0.5);
        },
        {{3, 4}}, "ScatterBackward1"),
    op(
        "scatter_add",
        [](const variable_list& x) {
          return x[0].scatter_add(1, idx2({3, 3, 1, 2, 0, 0}, 3), x[1]);
        },
        {{3, 4}, {3, 2}}, "ScatterAddBackward0"),
    op(
        "scatter_reduce(sum)",
        [](const variable_list& x) {
          return x[0].scatter_reduce(1, idx2({3, 3, 1, 2, 0, 0}, 3), x[1], "sum");
        },
        {{3, 4}, {3, 2}}, "ScatterReduceBackward0"),
    op("scatter_reduce(mean, exclude self)",
       [](const variable_list& x) {
         return x[0].scatter_reduce(1, idx2({3, 3, 1, 2, 0, 0}, 3), x[1], "mean", false);
       },
       {{3, 4}, {3, 2}}),
    op(
        "gather",
        [](const variable_list& x) {
          return x[0].gather(1, idx2({0, 2, 1, 1, 0, 3}, 3));
        },
        {{3, 4}}, "GatherBackward0"),
    op(
        "index_select",
        [](const variable_list& x) {
          return x[0].index_select(1, idx({2, 0, 2}));
        },
        {{3, 4}}, "IndexSelectBackward0"),
    op(
        "index_add",
        [](const variable_list& x) {
          return x[0].index_add(0, idx({2, 0, 2}), x[1], 1.5);
        },
        {{3, 4}, {3, 4}}, "IndexAddBackward0"),
    op(
        "index_copy",
        [](const variable_list& x) {
          return x[0].index_copy(1, idx({3, 0}), x[1]);
        },
        {{3, 4}, {3, 2}}, "IndexCopyBackward0"),
    op(
        "index_fill",
        [](const variable_list& x) {
          return x[0].index_fill(1, idx({3, -4}), 0.5);
        },
        {{3, 4}}, "IndexFillBackward0"),
    op(
        "index_fill(tensor value)", [](const variable_list& x) { return index_fill(x[0], 0, idx({1}), x[1]); },
        {{3, 4}, {}}, "IndexFillBackward1"),
    // the *_scatter ops: clone, view, copy_ (ops/shape/scatter_views.cpp)
    op("slice_scatter", [](const variable_list& x) { return slice_scatter(x[0], x[1], 1, 1, 5, 2); }, {{3, 5}, {3, 2}}),
    op("select_scatter", [](const variable_list& x) { return select_scatter(x[0], x[1], 0, -1); }, {{3, 4}, {4}}),
    op("diagonal_scatter", [](const variable_list& x) { return diagonal_scatter(x[0], x[1], 1); }, {{3, 4}, {3}}),
    op("as_strided_scatter",
       [](const variable_list& x) {
         return as_strided_scatter(x[0], x[1], {2, 2}, {1, 2}, 1);
       },
       {{3, 3}, {2, 2}}),
    // the mask broadcasts over rows: 9 trues take source's first 9 of 10 elements
    op("masked_scatter",
       [](const variable_list& x) {
         return masked_scatter(x[0], idx({1, 0, 1, 1}) != 0, x[1]);
       },
       {{3, 4}, {10}}),
    op("put",
       [](const variable_list& x) {
         return put(x[0], idx({0, 5, -1}), x[1]);
       },
       {{3, 4}, {3}}),
    op("put(accumulate)",
       [](const variable_list& x) {
         return x[0].put(idx({1, 7, 1}), x[1], true);
       },
       {{3, 4}, {3}}),
    // in place on a copy; a tall matrix wraps its diagonal
    op("fill_diagonal_(wrap)",
       [](const variable_list& x) {
         Tensor y = x[0] * 1;
         return y.fill_diagonal_(2.5, true);
       },
       {{7, 3}}),
    op("fill_diagonal_(3-d)",
       [](const variable_list& x) {
         Tensor y = x[0] * 1;
         return y.fill_diagonal_(-1);
       },
       {{3, 3, 3}}),
});

}  // namespace
}  // namespace torch::testing
