// OpInfo entries for the matmul family (formula: record_gemm in
// ember/autograd/derivatives/matmul_grad.cpp; composites reach it through views).
#include "opinfo.h"

namespace torch::testing {
namespace {

using Shapes = std::vector<std::vector<int64_t>>;

OpInfo op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes, const char* grad_fn = "") {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x)}; };
  o.samples = [shapes] {
    variable_list in;
    uint64_t seed = 41;
    for (const auto& s : shapes) in.push_back(sample(s, -1, 1, seed++));
    return std::vector<variable_list>{in};
  };
  o.grad_fn_name = grad_fn;
  return o;
}

// Complex128 inputs (conjugate Wirtinger convention): the matmul formula's
// conj() placement, row- and column-major operands alike.
OpInfo complex_op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes) {
  OpInfo o = op(name, std::move(f), shapes);
  o.samples = [shapes] {
    variable_list in;
    uint64_t seed = 73;
    for (const auto& s : shapes) {
      Tensor re = sample(s, -1, 1, seed++).detach(), im = sample(s, -1, 1, seed++).detach();
      in.push_back(ember::complex(re, im).requires_grad_(true));
    }
    return std::vector<variable_list>{in};
  };
  return o;
}

// The "column-major" entries take the gradient of an operand stored as the
// transpose of a contiguous matrix (Note [GEMM gradient layout]).
RegisterOps reg({
    op(
        "mm", [](const variable_list& x) { return x[0].mm(x[1]); }, {{2, 3}, {3, 4}}, "MmBackward0"),
    op("mm(transposed)", [](const variable_list& x) { return x[0].t().mm(x[1]); }, {{3, 2}, {3, 4}}),
    op("mm(column-major mat2)", [](const variable_list& x) { return x[0].mm(x[1].t()); }, {{2, 3}, {4, 3}}),
    op("mm(column-major both)", [](const variable_list& x) { return x[0].t().mm(x[1].t()); }, {{3, 2}, {4, 3}}),
    op("addmm(column-major mat2)", [](const variable_list& x) { return ember::addmm(x[0], x[1], x[2].t(), 0.5, 2.0); },
       {{4}, {2, 3}, {4, 3}}),
    complex_op("mm(complex)", [](const variable_list& x) { return x[0].mm(x[1]); }, {{2, 3}, {3, 4}}),
    complex_op("mm(complex, column-major both)", [](const variable_list& x) { return x[0].t().mm(x[1].t()); },
               {{3, 2}, {4, 3}}),
    op(
        "bmm", [](const variable_list& x) { return x[0].bmm(x[1]); }, {{2, 2, 3}, {2, 3, 2}}, "BmmBackward0"),
    op("mv", [](const variable_list& x) { return x[0].mv(x[1]); },
       {{2, 3}, {3}}),  // grad_fn is SqueezeBackward1 here (PyTorch: MvBackward0)
    op("dot", [](const variable_list& x) { return x[0].dot(x[1]); },
       {{4}, {4}}),  // grad_fn is ViewBackward0 here (PyTorch: DotBackward0)
    op("outer", [](const variable_list& x) { return x[0].outer(x[1]); }, {{3}, {2}}),
    op(
        "addmm", [](const variable_list& x) { return ember::addmm(x[0], x[1], x[2], 0.5, 2.0); }, {{4}, {2, 3}, {3, 4}},
        "AddmmBackward0"),
    op("baddbmm", [](const variable_list& x) { return ember::baddbmm(x[0], x[1], x[2], 1.5, 0.5); },
       {{2, 2, 2}, {2, 2, 3}, {2, 3, 2}}),
    op("addbmm", [](const variable_list& x) { return ember::addbmm(x[0], x[1], x[2]); },
       {{2, 2}, {3, 2, 3}, {3, 3, 2}}),
    op("addmv", [](const variable_list& x) { return ember::addmv(x[0], x[1], x[2]); }, {{2}, {2, 3}, {3}}),
    op("addr", [](const variable_list& x) { return ember::addr(x[0], x[1], x[2]); }, {{3, 2}, {3}, {2}}),
    op("matmul(1D,1D)", [](const variable_list& x) { return x[0].matmul(x[1]); }, {{3}, {3}}),
    op("matmul(1D,2D)", [](const variable_list& x) { return x[0].matmul(x[1]); }, {{3}, {3, 2}}),
    op("matmul(3D,2D)", [](const variable_list& x) { return x[0].matmul(x[1]); }, {{2, 2, 3}, {3, 2}}),
    op("matmul(broadcast batch)", [](const variable_list& x) { return x[0].matmul(x[1]); }, {{2, 1, 2, 3}, {3, 3, 2}}),
    op("matmul(1D,3D)", [](const variable_list& x) { return x[0].matmul(x[1]); }, {{3}, {2, 3, 2}}),
    op("einsum(bij,bjk->bik)",
       [](const variable_list& x) {
         return ember::einsum("bij,bjk->bik", {x[0], x[1]});
       },
       {{2, 2, 3}, {2, 3, 2}}),
    op("einsum(ij,jk->)",
       [](const variable_list& x) {
         return ember::einsum("ij,jk->", {x[0], x[1]});
       },
       {{2, 3}, {3, 2}}),
    op("tensordot",
       [](const variable_list& x) {
         return ember::tensordot(x[0], x[1], {1, 2}, {0, 1});
       },
       {{2, 3, 2}, {3, 2, 2}}),
});

}  // namespace
}  // namespace torch::testing
