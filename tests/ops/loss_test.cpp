// Losses against PyTorch (tests/golden/loss.golden, tools/golden/gen_loss.py): every case
// below is rebuilt by name from the stored inputs; ":grad" entries are d out.sum() / d input 0.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/ops/nn/loss.h"

using namespace ember;
using ember::testing::Golden;

namespace {

const Golden& golden() {
  static Golden g("loss.golden");
  return g;
}
Tensor in(const std::string& name) { return golden()["in:" + name]; }

using Args = std::vector<Tensor>;
struct Case {
  std::string name;  // "<name>:<reduction>" in the golden file
  std::vector<std::string> inputs;
  std::function<Tensor(const Args&, int64_t)> fn;
};

const char* kReductionNames[] = {"none", "mean", "sum"};

// Runs one case for every reduction; compares the value and, when stored, the gradient.
void check(const Case& c) {
  for (int64_t r = 0; r < 3; ++r) {
    const std::string key = c.name + ":" + kReductionNames[r];
    SCOPED_TRACE(key);
    ASSERT_TRUE(golden().has(key)) << key;
    Args args;
    for (const auto& n : c.inputs) args.push_back(in(n).clone());
    const bool grad = golden().has(key + ":grad");
    if (grad) args[0].requires_grad_(true);
    const Tensor out = c.fn(args, r);
    const Tensor expected = golden()[key];
    const double tol = expected.scalar_type() == kDouble ? 1e-9 : 2e-5;
    EXPECT_TENSOR_CLOSE_TOL(out, expected, tol, tol);
    if (grad) {
      out.sum().backward();
      ASSERT_TRUE(args[0].grad().defined());
      EXPECT_TENSOR_CLOSE_TOL(args[0].grad(), golden()[key + ":grad"], tol, tol);
    }
  }
}

std::optional<Tensor> opt(const Tensor& t) { return t; }

}  // namespace

TEST(LossGolden, NllLoss) {
  const std::vector<Case> cases = {
      {"nll", {"logits", "tgt"}, [](const Args& a, int64_t r) { return nll_loss(a[0], a[1], {}, r); }},
      {"nll:w", {"logits", "tgt", "cw"}, [](const Args& a, int64_t r) { return nll_loss(a[0], a[1], a[2], r); }},
      {"nll:ign", {"logits", "tgt_ign", "cw"}, [](const Args& a, int64_t r) { return nll_loss(a[0], a[1], a[2], r); }},
      {"nll:ign2", {"logits", "tgt_ign2"}, [](const Args& a, int64_t r) { return nll_loss(a[0], a[1], {}, r, 2); }},
      {"nll:img", {"img", "img_t"}, [](const Args& a, int64_t r) { return nll_loss2d(a[0], a[1], {}, r); }},
      {"nll:seq",
       {"seq", "seq_t", "cw"},
       [](const Args& a, int64_t r) { return nll_loss(a[0], a[1], a[2].slice(0, 0, 3), r); }},
      {"nll:vec", {"vec", "vec_t"}, [](const Args& a, int64_t r) { return nll_loss(a[0], a[1], {}, r); }},
  };
  for (const auto& c : cases) check(c);
}

TEST(LossGolden, CrossEntropy) {
  const std::vector<Case> cases = {
      {"ce", {"logits", "tgt"}, [](const Args& a, int64_t r) { return cross_entropy_loss(a[0], a[1], {}, r); }},
      {"ce:d", {"logits_d", "tgt"}, [](const Args& a, int64_t r) { return cross_entropy_loss(a[0], a[1], {}, r); }},
      {"ce:w:ign",
       {"logits", "tgt_ign", "cw"},
       [](const Args& a, int64_t r) { return cross_entropy_loss(a[0], a[1], a[2], r); }},
      {"ce:ls",
       {"logits", "tgt_ign"},
       [](const Args& a, int64_t r) { return cross_entropy_loss(a[0], a[1], {}, r, -100, 0.1); }},
      {"ce:w:ls",
       {"logits", "tgt_ign", "cw"},
       [](const Args& a, int64_t r) { return cross_entropy_loss(a[0], a[1], a[2], r, -100, 0.2); }},
      {"ce:img", {"img", "img_t"}, [](const Args& a, int64_t r) { return cross_entropy_loss(a[0], a[1], {}, r); }},
      {"ce:vec", {"vec", "vec_t"}, [](const Args& a, int64_t r) { return cross_entropy_loss(a[0], a[1], {}, r); }},
      {"ce:prob", {"logits", "probs"}, [](const Args& a, int64_t r) { return cross_entropy_loss(a[0], a[1], {}, r); }},
      {"ce:prob:w:ls",
       {"logits", "probs", "cw"},
       [](const Args& a, int64_t r) { return cross_entropy_loss(a[0], a[1], a[2], r, -100, 0.3); }},
      {"ce:prob:img", {"img", "img_p"}, [](const Args& a, int64_t r) { return cross_entropy_loss(a[0], a[1], {}, r); }},
  };
  for (const auto& c : cases) check(c);
}

TEST(LossGolden, PointwiseLosses) {
  std::vector<Case> cases = {
      {"mse", {"a", "b"}, [](const Args& a, int64_t r) { return mse_loss(a[0], a[1], r); }},
      {"mse:bcast", {"a", "brow"}, [](const Args& a, int64_t r) { return mse_loss(a[0], a[1], r); }},
      {"l1", {"a", "b"}, [](const Args& a, int64_t r) { return l1_loss(a[0], a[1], r); }},
      {"soft_margin", {"a", "sgn"}, [](const Args& a, int64_t r) { return soft_margin_loss(a[0], a[1], r); }},
      {"bce", {"p", "t"}, [](const Args& a, int64_t r) { return binary_cross_entropy(a[0], a[1], {}, r); }},
      {"bce:w", {"p", "t", "ew"}, [](const Args& a, int64_t r) { return binary_cross_entropy(a[0], a[1], a[2], r); }},
      {"bcel",
       {"a", "t"},
       [](const Args& a, int64_t r) { return binary_cross_entropy_with_logits(a[0], a[1], {}, {}, r); }},
      {"bcel:w:pw",
       {"a", "t", "ew", "pw"},
       [](const Args& a, int64_t r) { return binary_cross_entropy_with_logits(a[0], a[1], a[2], a[3], r); }},
      {"kl", {"a", "kt"}, [](const Args& a, int64_t r) { return kl_div(a[0], a[1], r); }},
      {"kl:log", {"a", "b"}, [](const Args& a, int64_t r) { return kl_div(a[0], a[1], r, true); }},
      {"margin_ranking",
       {"a", "b", "sgn"},
       [](const Args& a, int64_t r) { return margin_ranking_loss(a[0], a[1], a[2], 0.3, r); }},
      {"hinge", {"a", "sgn"}, [](const Args& a, int64_t r) { return hinge_embedding_loss(a[0], a[1], 0.7, r); }},
      {"mlsm", {"a", "t"}, [](const Args& a, int64_t r) { return multilabel_soft_margin_loss(a[0], a[1], {}, r); }},
      {"mlsm:w",
       {"a", "t", "pw"},
       [](const Args& a, int64_t r) { return multilabel_soft_margin_loss(a[0], a[1], a[2], r); }},
  };
  for (double beta : {1.0, 0.5, 0.0}) {
    char name[32];
    std::snprintf(name, sizeof name, "smooth_l1:%g", beta);
    cases.push_back(
        {name, {"a", "b"}, [beta](const Args& a, int64_t r) { return smooth_l1_loss(a[0], a[1], r, beta); }});
  }
  for (double delta : {1.0, 0.3}) {
    char name[32];
    std::snprintf(name, sizeof name, "huber:%g", delta);
    cases.push_back({name, {"a", "b"}, [delta](const Args& a, int64_t r) { return huber_loss(a[0], a[1], r, delta); }});
  }
  for (int log_input : {1, 0})
    for (int full : {1, 0}) {
      const std::string name = "poisson:" + std::to_string(log_input) + std::to_string(full);
      cases.push_back({name, {log_input ? "a" : "pos", "counts"}, [=](const Args& a, int64_t r) {
                         return poisson_nll_loss(a[0], a[1], log_input, full, 1e-8, r);
                       }});
    }
  for (const auto& c : cases) check(c);
}

TEST(LossGolden, BinaryCrossEntropyGradientInsideTheInterval) {
  Tensor p = in("p").clone().requires_grad_(true);
  binary_cross_entropy(p, in("t"), {}, Reduction::Sum).backward();
  Tensor mask = ones({3, 4});
  mask.index_put_({0, 0}, 0);
  mask.index_put_({0, 1}, 0);
  mask.index_put_({1, 0}, 0);
  EXPECT_TENSOR_CLOSE_TOL(p.grad() * mask, golden()["bce:sum:grad_interior"], 1e-5, 1e-5);
}

TEST(LossGolden, MarginLossesOverClasses) {
  std::vector<Case> cases = {
      {"multi_margin:w",
       {"logits", "mm_t", "cw"},
       [](const Args& a, int64_t r) { return multi_margin_loss(a[0], a[1], 1, 1, a[2], r); }},
      {"multilabel_margin",
       {"logits", "ml_t"},
       [](const Args& a, int64_t r) { return multilabel_margin_loss(a[0], a[1], r); }},
  };
  for (int p : {1, 2})
    cases.push_back({"multi_margin:p" + std::to_string(p), {"logits", "mm_t"}, [p](const Args& a, int64_t r) {
                       return multi_margin_loss(a[0], a[1], p, 0.8, {}, r);
                     }});
  for (const auto& c : cases) check(c);
  EXPECT_TENSOR_CLOSE(multi_margin_loss(in("vec"), in("vec_t"), 1, 1, {}, Reduction::None),
                      golden()["multi_margin:vec:none"]);
}

TEST(LossGolden, Distances) {
  for (int64_t d : {0, 1, -1}) {
    Tensor u = in("u").clone().requires_grad_(true);
    Tensor out = cosine_similarity(u, in("v"), d);
    EXPECT_TENSOR_CLOSE_TOL(out, golden()["cos_sim:" + std::to_string(d)], 1e-5, 1e-5);
    out.sum().backward();
    EXPECT_TENSOR_CLOSE_TOL(u.grad(), golden()["cos_sim:" + std::to_string(d) + ":grad"], 1e-5, 1e-5);
  }
  EXPECT_TENSOR_CLOSE_TOL(cosine_similarity(in("u"), in("vrow")), golden()["cos_sim:bcast"], 1e-5, 1e-5);
  for (const char* p : {"2", "1", "3", "inf"}) {
    SCOPED_TRACE(p);
    Tensor u = in("u").clone().requires_grad_(true);
    Tensor out = pairwise_distance(u, in("v"), std::stod(p));
    EXPECT_TENSOR_CLOSE_TOL(out, golden()[std::string("pdist:") + p], 1e-5, 1e-5);
    out.sum().backward();
    EXPECT_TENSOR_CLOSE_TOL(u.grad(), golden()[std::string("pdist:") + p + ":grad"], 1e-5, 1e-5);
  }
  EXPECT_TENSOR_CLOSE_TOL(pairwise_distance(in("u"), in("v"), 2, 1e-6, true), golden()["pdist:keep"], 1e-5, 1e-5);
  const std::vector<Case> cases = {
      {"cos_emb",
       {"u", "v", "et"},
       [](const Args& a, int64_t r) { return cosine_embedding_loss(a[0], a[1], a[2], 0.1, r); }},
      {"triplet",
       {"u", "v", "n"},
       [](const Args& a, int64_t r) { return triplet_margin_loss(a[0], a[1], a[2], 1.0, 2, 1e-6, false, r); }},
      {"triplet:swap:p1",
       {"u", "v", "n"},
       [](const Args& a, int64_t r) { return triplet_margin_loss(a[0], a[1], a[2], 2.0, 1, 1e-6, true, r); }},
  };
  for (const auto& c : cases) check(c);
}

TEST(Loss, NllLossEdgeCases) {
  // All targets ignored with mean reduction: 0 / 0 = nan (as PyTorch); sum gives 0.
  const Tensor x = in("logits");
  const Tensor ign = full({6}, -100, TensorOptions(kLong));
  EXPECT_TRUE(std::isnan(nll_loss(x, ign).item<float>()));
  EXPECT_EQ(nll_loss(x, ign, {}, Reduction::Sum).item<float>(), 0.0f);
  EXPECT_TRUE(std::isnan(nll_loss(empty({0, 5}), empty({0}, TensorOptions(kLong))).item<float>()));
  EXPECT_EQ(Reduction::Sum, 2);  // torch::Reduction::Sum through ember/torch.h
  // The node's name, as PyTorch's.
  Tensor xr = x.clone().requires_grad_(true);
  EXPECT_EQ(nll_loss(xr, in("tgt")).grad_fn()->name(), "NllLossBackward0");
  EXPECT_EQ(cross_entropy_loss(xr, in("tgt")).grad_fn()->name(), "NllLossBackward0");
  EXPECT_EQ(nll_loss2d(in("img").clone().requires_grad_(true), in("img_t")).grad_fn()->name(), "NllLoss2DBackward0");
}

TEST(Loss, NllLossErrors) {
  const Tensor x = in("logits");
  EXPECT_EMBER_ERROR(nll_loss(x, tensor({0, 1, 2, 3, 4, 5})), "nll_loss", "target 5", "out of bounds", "[6, 5]",
                     "float32", "[6]", "int64");
  EXPECT_EMBER_ERROR(nll_loss(x, tensor({0, 1, 2, 3, 4, -1})), "nll_loss", "target -1");
  EXPECT_EMBER_ERROR(nll_loss(x, in("tgt").to(kInt)), "nll_loss", "int64", "int32");
  EXPECT_EMBER_ERROR(cross_entropy_loss(x, in("tgt").to(kInt)), "nll_loss", "int64", "int32");
  EXPECT_EMBER_ERROR(nll_loss(x, in("tgt").slice(0, 0, 4)), "nll_loss", "batch_size", "[6, 5]", "[4]");
  EXPECT_EMBER_ERROR(nll_loss(x, in("tgt"), in("cw").slice(0, 0, 3)), "nll_loss", "weight", "[3]");
  EXPECT_EMBER_ERROR(nll_loss(x, in("tgt"), {}, 7), "nll_loss", "reduction");
  EXPECT_EMBER_ERROR(nll_loss(in("img"), in("img_t").slice(2, 0, 2)), "nll_loss", "target size");
  EXPECT_EMBER_ERROR(nll_loss2d(x, in("tgt")), "nll_loss2d", "4D");
  EXPECT_EMBER_ERROR(cross_entropy_loss(x, in("tgt"), {}, 1, -100, 1.5), "cross_entropy_loss", "label_smoothing");
  EXPECT_EMBER_ERROR(cross_entropy_loss(x, x.to(kLong)), "cross_entropy_loss", "floating");
}

TEST(Loss, OtherLossErrors) {
  EXPECT_EMBER_ERROR(binary_cross_entropy(in("a"), in("t")), "binary_cross_entropy", "between 0 and 1");
  EXPECT_EMBER_ERROR(binary_cross_entropy(in("p"), in("brow")), "binary_cross_entropy", "[4]", "[3, 4]");
  EXPECT_EMBER_ERROR(smooth_l1_loss(in("a"), in("b"), 1, -1), "smooth_l1_loss", "beta");
  EXPECT_EMBER_ERROR(huber_loss(in("a"), in("b"), 1, 0), "huber_loss", "delta");
  EXPECT_EMBER_ERROR(mse_loss(in("a"), in("b"), 3), "mse_loss", "reduction");
  EXPECT_EMBER_ERROR(multi_margin_loss(in("logits"), in("mm_t"), 3), "multi_margin_loss", "p == 1");
  EXPECT_EMBER_ERROR(multi_margin_loss(in("logits"), in("mm_t") + 5), "multi_margin_loss", "out of range");
  EXPECT_EMBER_ERROR(cosine_embedding_loss(in("u"), in("v"), in("u")), "cosine_embedding_loss", "target");
  EXPECT_EMBER_ERROR(triplet_margin_loss(in("u"), in("v"), in("vrow")), "triplet_margin_loss", "dimensions");
  EXPECT_EMBER_ERROR(cosine_similarity(in("mm_t"), in("mm_t"), 0), "cosine_similarity", "floating");
}

TEST(LossGolden, CtcLoss) {
  auto ctc = [](int64_t blank, bool zinf) {
    return [=](const Args& a, int64_t r) { return ctc_loss(a[0], a[1], a[2], a[3], blank, r, zinf); };
  };
  const std::vector<Case> cases = {
      {"ctc", {"ctc_lp", "ctc_tg", "ctc_il", "ctc_tl"}, ctc(0, false)},
      {"ctc:f", {"ctc_lp_f", "ctc_tg", "ctc_il", "ctc_tl"}, ctc(0, false)},
      {"ctc:cat:blank5",
       {"ctc_lp", "ctc_tg_cat", "ctc_il", "ctc_tl"},
       [](const Args& a, int64_t r) { return ctc_loss(a[0], a[1].clamp_max(4), a[2], a[3], 5, r); }},
      {"ctc:zinf", {"ctc_lp", "ctc_tg", "ctc_il_inf", "ctc_tl_inf"}, ctc(0, true)},
      {"ctc:inf", {"ctc_lp", "ctc_tg", "ctc_il_inf", "ctc_tl_inf"}, ctc(0, false)},
  };
  for (const auto& c : cases) check(c);
  // IntArrayRef lengths and an unbatched [T, C] input with a 1-D target.
  const Tensor lp = in("ctc_lp");
  EXPECT_TENSOR_CLOSE(ctc_loss(lp.select(1, 0), in("ctc_tg")[0].slice(0, 0, 4), std::vector<int64_t>{12},
                               std::vector<int64_t>{4}, 0, Reduction::None),
                      golden()["ctc:unbatched:none"]);
  Tensor x = lp.clone().requires_grad_(true);
  EXPECT_EQ(
      ctc_loss(x, in("ctc_tg"), std::vector<int64_t>{12, 10, 9}, std::vector<int64_t>{4, 3, 5}, 0, Reduction::None)
          .grad_fn()
          ->name(),
      "CtcLossBackward0");
}

TEST(Loss, CtcLossErrors) {
  const Tensor lp = in("ctc_lp");
  const Tensor tg = in("ctc_tg");
  const std::vector<int64_t> il{12, 10, 9}, tl{4, 3, 5};
  EXPECT_EMBER_ERROR(ctc_loss(lp, tg, std::vector<int64_t>{12, 13, 9}, tl), "ctc_loss", "at most 12");
  EXPECT_EMBER_ERROR(ctc_loss(lp, tg, std::vector<int64_t>{12, 10}, tl), "ctc_loss", "input_lengths");
  EXPECT_EMBER_ERROR(ctc_loss(lp, tg, il, tl, 6), "ctc_loss", "blank");
  EXPECT_EMBER_ERROR(ctc_loss(lp, tg + 6, il, tl), "ctc_loss", "out of range");
  EXPECT_EMBER_ERROR(ctc_loss(lp, tg, il, std::vector<int64_t>{4, 3, 6}), "ctc_loss", "targets");
  EXPECT_EMBER_ERROR(ctc_loss(lp, in("ctc_tg_cat").slice(0, 0, 10), il, tl), "ctc_loss", "target_lengths");
  EXPECT_EMBER_ERROR(ctc_loss(lp, tg.to(kFloat), il, tl), "ctc_loss", "int32 or int64");
}
