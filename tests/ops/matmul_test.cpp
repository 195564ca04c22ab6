// The matmul family against PyTorch golden values (tools/golden/gen_matmul.py).
// Each case applies the same op and view transforms as the generator.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

using ember::Tensor;
using ember::testing::Golden;

namespace {

const Golden& golden() {
  static const Golden g("matmul.golden");
  return g;
}

std::vector<Tensor> inputs(const std::string& name) {
  std::vector<Tensor> in;
  for (int i = 0; golden().has(name + ".in" + std::to_string(i)); ++i)
    in.push_back(golden()[name + ".in" + std::to_string(i)]);
  return in;
}

using Op = std::function<Tensor(const std::vector<Tensor>&)>;

void check_case(const std::string& name, const Op& op) {
  SCOPED_TRACE(name);
  ASSERT_TRUE(golden().has(name + ".out")) << "no golden case " << name;
  const Tensor expected = golden()[name + ".out"];
  const Tensor actual = op(inputs(name));
  EXPECT_TENSOR_CLOSE(actual, expected);
}

const std::vector<std::string> kDtypes = {"f32", "f64", "c64", "i64"};

bool is_int(const std::string& dt) { return dt == "i64"; }

}  // namespace

TEST(Matmul, BroadcastingCases) {
  for (const auto& dt : kDtypes) {
    for (const char* c : {"dot", "mv", "vm", "mm", "b1", "1b", "bcast", "fold", "mb", "bb"}) {
      check_case(std::string("matmul_") + c + "_" + dt,
                 [](const std::vector<Tensor>& in) { return torch::matmul(in[0], in[1]); });
    }
  }
}

TEST(Matmul, NonContiguous) {
  for (const auto& dt : kDtypes) {
    check_case("mm_t_" + dt, [](const std::vector<Tensor>& in) { return torch::mm(in[0].t(), in[1].t()); });
    check_case("matmul_tb_" + dt, [](const std::vector<Tensor>& in) { return in[0].transpose(-1, -2).matmul(in[1]); });
    check_case("matmul_exp_" + dt, [](const std::vector<Tensor>& in) {
      return torch::matmul(in[0].expand({5, 2, 3}), in[1]);
    });
    check_case("mm_slice_" + dt, [](const std::vector<Tensor>& in) {
      return torch::mm(in[0].slice(1, 0, std::nullopt, 2), in[1].slice(0, 0, std::nullopt, 2));
    });
    check_case("mv_t_" + dt, [](const std::vector<Tensor>& in) { return torch::mv(in[0].t(), in[1]); });
  }
  check_case("mm_c128", [](const std::vector<Tensor>& in) { return torch::mm(in[0], in[1]); });
  check_case("matmul_bcast_c128", [](const std::vector<Tensor>& in) { return torch::matmul(in[0], in[1]); });
  check_case("matmul_bcast_f16", [](const std::vector<Tensor>& in) { return torch::matmul(in[0], in[1]); });
  check_case("einsum_nc", [](const std::vector<Tensor>& in) { return torch::einsum("ij,jk->ik", {in[0].t(), in[1]}); });
}

TEST(Matmul, VectorAndBatchOps) {
  for (const auto& dt : kDtypes) {
    check_case("bmm_" + dt, [](const std::vector<Tensor>& in) { return in[0].bmm(in[1]); });
    check_case("mv_" + dt, [](const std::vector<Tensor>& in) { return in[0].mv(in[1]); });
    check_case("dot_" + dt, [](const std::vector<Tensor>& in) { return in[0].dot(in[1]); });
    check_case("vdot_" + dt, [](const std::vector<Tensor>& in) { return in[0].vdot(in[1]); });
    check_case("outer_" + dt, [](const std::vector<Tensor>& in) { return in[0].outer(in[1]); });
  }
  check_case("outer_promote", [](const std::vector<Tensor>& in) { return torch::outer(in[0], in[1]); });
  check_case("outer_bool", [](const std::vector<Tensor>& in) { return torch::ger(in[0], in[1]); });
  for (const char* c : {"mm_i32_wrap", "mm_i8", "mm_u8"})
    check_case(c, [](const std::vector<Tensor>& in) { return torch::mm(in[0], in[1]); });
  check_case("bmm_many_f64", [](const std::vector<Tensor>& in) { return torch::bmm(in[0], in[1]); });
  check_case("mm_big_f32", [](const std::vector<Tensor>& in) { return torch::mm(in[0], in[1].t()); });
}

TEST(Matmul, AddVariants) {
  for (const auto& dt : kDtypes) {
    const ember::Scalar b = is_int(dt) ? ember::Scalar(2) : ember::Scalar(0.5);
    const ember::Scalar a = is_int(dt) ? ember::Scalar(3) : ember::Scalar(2.0);
    check_case("addmm_" + dt, [&](const std::vector<Tensor>& in) { return in[0].addmm(in[1], in[2], b, a); });
    check_case("addmm_bcast_" + dt,
               [&](const std::vector<Tensor>& in) { return torch::addmm(in[0], in[1], in[2], b, a); });
    check_case("addbmm_" + dt, [&](const std::vector<Tensor>& in) { return in[0].addbmm(in[1], in[2], b, a); });
    check_case("baddbmm_" + dt, [&](const std::vector<Tensor>& in) { return in[0].baddbmm(in[1], in[2], b, a); });
    check_case("addmv_" + dt, [&](const std::vector<Tensor>& in) { return in[0].addmv(in[1], in[2], b, a); });
    check_case("addr_" + dt, [&](const std::vector<Tensor>& in) { return in[0].addr(in[1], in[2], b, a); });
  }
  check_case("addmm_beta0", [](const std::vector<Tensor>& in) { return torch::addmm(in[0], in[1], in[2], 0, 1.5); });
  check_case("addmm_int_fbeta",
             [](const std::vector<Tensor>& in) { return torch::addmm(in[0], in[1], in[2], 2.5, 3); });
  check_case("addmm_f16", [](const std::vector<Tensor>& in) { return torch::addmm(in[0], in[1], in[2], 0.5, 2); });
  check_case("mm_bf16", [](const std::vector<Tensor>& in) { return torch::mm(in[0], in[1]); });
}

TEST(Matmul, InPlaceAddmm) {
  std::vector<Tensor> in = inputs("addmm_f32");
  Tensor self = in[0].clone();
  Tensor& r = self.addmm_(in[1], in[2], 0.5, 2.0);
  EXPECT_TRUE(r.is_same(self));
  EXPECT_TENSOR_CLOSE(self, golden()["addmm_f32.out"]);
  // A transposed (non-contiguous) self is written through its view.
  Tensor base = in[0].t().contiguous();
  Tensor view = base.t();
  view.addmm_(in[1], in[2], 0.5, 2.0);
  EXPECT_TENSOR_CLOSE(base.t(), golden()["addmm_f32.out"]);
}

TEST(Matmul, EmptyDims) {
  check_case("mm_k0", [](const std::vector<Tensor>& in) { return torch::mm(in[0], in[1]); });
  check_case("mm_m0", [](const std::vector<Tensor>& in) { return torch::mm(in[0], in[1]); });
  check_case("bmm_b0", [](const std::vector<Tensor>& in) { return torch::bmm(in[0], in[1]); });
  check_case("addmm_k0", [](const std::vector<Tensor>& in) { return torch::addmm(in[0], in[1], in[2], 3, 2); });
  check_case("matmul_k0_i64", [](const std::vector<Tensor>& in) { return torch::matmul(in[0], in[1]); });
}

TEST(Matmul, Einsum) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"transpose", "ij->ji"},
      {"trace", "ii"},
      {"diag", "ii->i"},
      {"diag_sum", "iij->j"},
      {"bmm", "bij,bjk->bik"},
      {"outer", "i,j->ij"},
      {"ell_mm", "...ij,...jk"},
      {"ell_bcast", "...ij,...jk->...ik"},
      {"sum_all", "ij->"},
      {"implicit_mm", "ij,jk"},
      {"implicit_scalar", "ba,ab"},
      {"implicit_upper", "bA,cb"},
      {"ell_sum", "...ij->ij"},
      {"hadamard", "i,i->i"},
      {"inner", "ij,ij->"},
      {"bilinear", "bn,anm,bm->ba"},
      {"sum_rows", "ij->j"},
      {"broadcast_label", "ij,jk->ik"},
      {"spaces", " i j , j k -> i k "},
      {"rank0_out", "i,i"},
      {"ell_mid", "i...j,j...->i..."},
      {"chain3", "ij,jk,kl->il"},
      {"triple_dot", "i,i,i->"},
      {"batch_diag", "bii->bi"},
      {"empty_k", "ij,jk->ik"},
      {"permute3", "abc->cab"},
      {"keep_repeated", "ij,ij->ij"},
  };
  for (const auto& [name, equation] : cases) {
    // A copy, not the binding: clang 14 (the sanitizer build) does not let lambdas use bindings.
    const std::string eq = equation;
    check_case("einsum_" + name, [&](const std::vector<Tensor>& in) { return torch::einsum(eq, in); });
  }
  check_case("einsum_bmm_c64", [](const std::vector<Tensor>& in) { return torch::einsum("bij,bjk->bik", in); });
  check_case("einsum_mm_i64", [](const std::vector<Tensor>& in) { return torch::einsum("ij,jk->ik", in); });
}

TEST(Matmul, TensordotAndChains) {
  check_case("tensordot_int", [](const std::vector<Tensor>& in) { return torch::tensordot(in[0], in[1], 2); });
  check_case("tensordot_lists", [](const std::vector<Tensor>& in) {
    return torch::tensordot(in[0], in[1], {1, 0}, {0, 2});
  });
  check_case("tensordot_0", [](const std::vector<Tensor>& in) { return torch::tensordot(in[0], in[1], 0); });
  check_case("tensordot_f64", [](const std::vector<Tensor>& in) { return torch::tensordot(in[0], in[1], {2}, {1}); });
  check_case("multi_dot", [](const std::vector<Tensor>& in) { return torch::multi_dot(in); });
  check_case("chain_matmul", [](const std::vector<Tensor>& in) { return torch::chain_matmul(in); });
}

TEST(Matmul, Errors) {
  Tensor a = torch::zeros({2, 3}), b = torch::zeros({4, 5});
  EXPECT_EMBER_ERROR(torch::mm(a, b), "mm", "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_EMBER_ERROR(torch::mm(a, torch::zeros({3, 5}, torch::kDouble)), "mm", "same dtype", "float32", "float64");
  EXPECT_EMBER_ERROR(torch::mm(a, torch::zeros({3})), "mm", "mat2 must be a matrix");
  EXPECT_EMBER_ERROR(torch::mm(torch::zeros({2, 2}, torch::kBool), torch::zeros({2, 2}, torch::kBool)), "mm", "Bool");
  EXPECT_EMBER_ERROR(torch::bmm(a, b), "bmm", "batch1 must be a 3D tensor");
  EXPECT_EMBER_ERROR(torch::bmm(torch::zeros({2, 2, 3}), torch::zeros({3, 3, 4})), "bmm", "same number of batches",
                     "2 and 3");
  EXPECT_EMBER_ERROR(torch::bmm(torch::zeros({2, 2, 3}), torch::zeros({2, 4, 4})), "bmm", "[2, 3]", "[2, 4]");
  EXPECT_EMBER_ERROR(torch::matmul(torch::zeros({}), a), "matmul", "0D and 2D");
  EXPECT_EMBER_ERROR(torch::matmul(torch::zeros({2, 2, 3}), torch::zeros({3, 3, 4})), "matmul",
                     "size of tensor a (2) must match the size of tensor b (3)");
  EXPECT_EMBER_ERROR(torch::matmul(torch::zeros({2, 2, 3}), torch::zeros({4, 4})), "matmul", "cannot be multiplied");
  EXPECT_EMBER_ERROR(torch::matmul(torch::zeros({2, 2, 3}), torch::zeros({3, 4}, torch::kDouble)), "matmul",
                     "same dtype");
  EXPECT_EMBER_ERROR(torch::dot(torch::zeros({3}), torch::zeros({4})), "dot", "inconsistent tensor size");
  EXPECT_EMBER_ERROR(torch::dot(torch::zeros({3}), torch::zeros({3}, torch::kDouble)), "dot", "same dtype");
  EXPECT_EMBER_ERROR(torch::dot(torch::zeros({3, 1}), torch::zeros({3})), "dot", "1D tensors expected");
  EXPECT_EMBER_ERROR(torch::vdot(torch::zeros({3}), torch::zeros({2})), "vdot", "inconsistent tensor size");
  EXPECT_EMBER_ERROR(torch::mv(a, torch::zeros({4})), "mv", "size mismatch");
  EXPECT_EMBER_ERROR(torch::mv(torch::zeros({3}), torch::zeros({3})), "mv", "1-D");
  EXPECT_EMBER_ERROR(torch::outer(torch::zeros({3, 1}), torch::zeros({3})), "outer", "Expected 1-D argument self");
  EXPECT_EMBER_ERROR(torch::addmm(torch::zeros({2, 4}, torch::kDouble), a, torch::zeros({3, 4})), "addmm",
                     "same dtype");
  EXPECT_EMBER_ERROR(torch::addmm(torch::zeros({3, 3}), a, torch::zeros({3, 4})), "addmm");
  // beta = 0 ignores self's values, not its shape.
  EXPECT_EMBER_ERROR(torch::addmm(torch::zeros({3, 3}), a, torch::zeros({3, 4}), 0), "addmm");
  EXPECT_EMBER_ERROR(torch::addr(torch::zeros({3, 3}), torch::zeros({2}), torch::zeros({4}), 0), "addr");
  EXPECT_EMBER_ERROR(torch::addmm(torch::zeros({2, 1, 4}), a, torch::zeros({3, 4})), "addmm", "[2, 1, 4]",
                     "cannot be broadcast to the result shape [2, 4]");
  EXPECT_EMBER_ERROR(torch::baddbmm(torch::zeros({3, 2, 4}), torch::zeros({2, 2, 3}), torch::zeros({2, 3, 4})),
                     "baddbmm");
  EXPECT_EMBER_ERROR(torch::addmv(torch::zeros({2}), a, torch::zeros({4})), "addmv", "size mismatch");
  EXPECT_EMBER_ERROR(torch::addbmm(torch::zeros({2, 4}), torch::zeros({2, 2, 3}), torch::zeros({3, 3, 4})), "addbmm",
                     "same number of batches");
  EXPECT_EMBER_ERROR(torch::tensordot(a, b, {1}, {0}), "tensordot", "contracted dimensions need to match",
                     "size 3 in dim 1", "size 4 in dim 0");
  EXPECT_EMBER_ERROR(torch::tensordot(a, b, {1}, {0, 1}), "tensordot", "same length");
  EXPECT_EMBER_ERROR(torch::tensordot(a, b, -1), "tensordot", "dims >= 0");
  EXPECT_EMBER_ERROR(torch::multi_dot({a}), "multi_dot", "at least 2");
}

TEST(Matmul, EinsumErrors) {
  Tensor a = torch::zeros({2, 3}), b = torch::zeros({4, 5});
  EXPECT_EMBER_ERROR(torch::einsum("ij,jk->ik", {a, b}), "einsum()", "subscript j has size 4 for operand 1",
                     "previously seen size 3");
  EXPECT_EMBER_ERROR(torch::einsum("ij,jk", {a}), "einsum()", "fewer operands");
  EXPECT_EMBER_ERROR(torch::einsum("ij", {a, a}), "einsum()", "more operands");
  EXPECT_EMBER_ERROR(torch::einsum("ij", {torch::zeros({2, 3, 4})}), "einsum()",
                     "number of subscripts in the equation (2) does not match the number of dimensions (3)");
  EXPECT_EMBER_ERROR(torch::einsum("ii", {a}), "einsum()", "subscript i is repeated for operand 0",
                     "sizes don't match, 2 != 3");
  EXPECT_EMBER_ERROR(torch::einsum("ij->ik", {a}), "einsum()", "output subscript k does not appear");
  EXPECT_EMBER_ERROR(torch::einsum("ij->ii", {a}), "einsum()", "output subscript i appears more than once");
  EXPECT_EMBER_ERROR(torch::einsum("i1", {a}), "einsum()", "invalid subscript given at index 1");
  EXPECT_EMBER_ERROR(torch::einsum("i..j", {a}), "einsum()", "not part of any ellipsis");
  EXPECT_EMBER_ERROR(torch::einsum("...i...", {a}), "einsum()", "ellipsis was already found");
  EXPECT_EMBER_ERROR(torch::einsum("ij,jk", {a, torch::zeros({3, 4}, torch::kDouble)}), "einsum()", "same dtype");
}

// Shapes that take the gemv path (Note [GEMV for vector products]).
void check_vector_cases() {
  for (const std::string dt : {"f32", "f64"}) {
    check_case("vm_t_" + dt, [](const std::vector<Tensor>& in) { return torch::matmul(in[0], in[1].t()); });
    check_case("vm_tx_" + dt,
               [](const std::vector<Tensor>& in) { return torch::matmul(in[0].slice(0, 0, std::nullopt, 2), in[1]); });
    check_case("mv_strided_" + dt, [](const std::vector<Tensor>& in) {
      return torch::mv(in[0].slice(1, 0, std::nullopt, 2), in[1].slice(0, 0, std::nullopt, 3));
    });
    check_case("addmv_beta0_" + dt,
               [](const std::vector<Tensor>& in) { return torch::addmv(in[0], in[1], in[2], 0, 2); });
  }
}

TEST(Matmul, VectorShapes) { check_vector_cases(); }

// float32 takes oneDNN on one thread and OpenBLAS on more (Note [SGEMM
// backend choice]); both must give the golden result.
TEST(Matmul, BothSgemmBackends) {
  const int saved = torch::get_num_threads();
  for (int t : {1, 2}) {
    torch::set_num_threads(t);
    check_case("mm_big_f32", [](const std::vector<Tensor>& in) { return torch::mm(in[0], in[1].t()); });
    check_case("matmul_bcast_f32", [](const std::vector<Tensor>& in) { return torch::matmul(in[0], in[1]); });
    check_vector_cases();
  }
  torch::set_num_threads(saved);
}

// Matmul must not copy transposed operands: results of a transposed view and
// of its contiguous copy agree bit for bit (same BLAS call shape aside).
TEST(Matmul, TransposedLargeMatchesContiguous) {
  Tensor a = torch::randn({64, 96});
  Tensor b = torch::randn({80, 64});
  Tensor r1 = torch::mm(a.t(), b.t());
  Tensor r2 = torch::mm(a.t().contiguous(), b.t().contiguous());
  EXPECT_TENSOR_CLOSE(r1, r2);
}

// Note [Linear with a fused bias]: float32 bias + a @ b through oneDNN's matmul
// (when float32 GEMMs go to oneDNN) against the same product in float64, for the
// layouts linear produces (w.t()) and the others the path accepts or declines
// (a transposed, a strided bias, a [1, n] bias, empty and single-element dims).
TEST(Matmul, AddmmWithBiasMatchesFloat64) {
  struct Case {
    int64_t m, k, n;
    bool a_t, b_t;
  };
  const std::vector<Case> cases = {{64, 300, 128, false, true}, {33, 17, 5, true, false}, {1, 7, 9, false, true},
                                   {8, 1, 3, true, true},       {5, 4, 1, false, false},  {129, 64, 70, false, true}};
  torch::manual_seed(3);
  for (const Case& c : cases) {
    Tensor a = c.a_t ? torch::randn({c.k, c.m}).t() : torch::randn({c.m, c.k});
    Tensor b = c.b_t ? torch::randn({c.n, c.k}).t() : torch::randn({c.k, c.n});
    const Tensor wide = torch::randn({c.n, 2});
    for (const Tensor& bias : {torch::randn({c.n}), torch::randn({1, c.n}), wide.select(1, 1)}) {
      const Tensor got = torch::addmm(bias, a, b);
      const Tensor want =
          torch::addmm(bias.to(torch::kDouble), a.to(torch::kDouble), b.to(torch::kDouble)).to(torch::kFloat);
      EXPECT_TRUE(torch::allclose(got, want, 1e-4, 1e-4)) << c.m << "x" << c.k << "x" << c.n;
    }
  }
  // The linear layer's forward and backward in float32, against float64.
  Tensor x = torch::randn({16, 40}), w = torch::randn({24, 40}), bias = torch::randn({24});
  Tensor x32 = x.clone().requires_grad_(true), w32 = w.clone().requires_grad_(true),
         b32 = bias.clone().requires_grad_(true);
  Tensor x64 = x.to(torch::kDouble).requires_grad_(true), w64 = w.to(torch::kDouble).requires_grad_(true),
         b64 = bias.to(torch::kDouble).requires_grad_(true);
  Tensor y32 = torch::linear(x32, w32, b32), y64 = torch::linear(x64, w64, b64);
  EXPECT_EQ(y32.grad_fn()->name(), "AddmmBackward0");
  EXPECT_TRUE(torch::allclose(y32, y64.detach().to(torch::kFloat), 1e-5, 1e-5));
  Tensor g = torch::randn({16, 24});
  y32.backward(g);
  y64.backward(g.to(torch::kDouble));
  EXPECT_TRUE(torch::allclose(w32.grad(), w64.grad().to(torch::kFloat), 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(b32.grad(), b64.grad().to(torch::kFloat), 1e-4, 1e-4));
  EXPECT_TRUE(torch::allclose(x32.grad(), x64.grad().to(torch::kFloat), 1e-4, 1e-4));
}

// Note [Tall transposed-A products]: A^T B with M >= 2N and K >= 256 runs on oneDNN's
// matmul primitive (one thread); a linear layer's weight gradient is that shape. Against
// float64, with B plain and transposed, and a slice of a wider buffer as A.
TEST(Matmul, TallTransposedAMatchesFloat64) {
  torch::manual_seed(4);
  const int threads = torch::get_num_threads();
  for (int t : {1, 2}) {
    torch::set_num_threads(t);
    const Tensor wide = torch::randn({300, 700});
    for (const Tensor& a : {torch::randn({256, 512}).t(), wide.narrow(1, 3, 600).t()}) {  // [512, 256], [600, 300]
      const int64_t m = a.size(0), k = a.size(1), n = m / 4;
      for (const Tensor& b : {torch::randn({k, n}), torch::randn({n, k}).t()}) {
        const Tensor got = torch::mm(a, b);
        const Tensor want = torch::mm(a.to(torch::kDouble), b.to(torch::kDouble)).to(torch::kFloat);
        EXPECT_TRUE(torch::allclose(got, want, 1e-4, 1e-3)) << m << "x" << k << "x" << n << ", " << t << " threads";
      }
    }
  }
  torch::set_num_threads(threads);
}
