// Outputs that share memory with themselves or with an input, against what
// PyTorch does for the same calls (tools/golden/gen_mem_overlap.py): per case
// either the resulting buffer or the kind of error PyTorch raises. The rules
// are ops/shape/mem_overlap.h; the n-ary loop ops share them through
// ops::run_elementwise (Note [Elementwise overlap]), copy_ and the unary
// family call them directly.
#include <functional>
#include <map>
#include <string>

#include "common/golden.h"
#include "common/test_util.h"

namespace torch {
namespace {

using ::ember::testing::Golden;

const Golden& golden() {
  static const Golden g("mem_overlap.golden");
  return g;
}

Tensor ar(int64_t n) { return arange(n, kFloat); }
Tensor expanded() { return zeros({3}).expand({2, 3}); }  // [2, 3], strides [0, 1]
Tensor full_f(IntArrayRef shape, double v) { return full(shape, v, kFloat); }
const Tensor c4 = tensor({true, false, true, false});
const Tensor c3 = tensor({true, false, true});
// x.clamp_(min, max) with tensor bounds (LibTorch's free function; a view is a temporary here).
Tensor clamp_t(Tensor x, const std::optional<Tensor>& lo, const std::optional<Tensor>& hi) { return clamp_(x, lo, hi); }
// x.lerp_(end, weight) with a tensor weight: Ember has no such Tensor method
// yet; out= into self runs the same path as the in-place form.
Tensor lerp_t(Tensor x, const Tensor& end, const Tensor& weight) { return lerp_out(x, x, end, weight); }

// A case replays the Python call and returns the tensor holding the result;
// `op` is the name Ember's error message starts with.
struct Case {
  const char* op;
  std::function<Tensor()> run;
};

void add_where(std::map<std::string, Case>& m) {
  m["where_out_expanded"] = {"where", [] {
                               Tensor o = zeros({4}).expand({2, 4});
                               return where_out(o, c4, ones({2, 4}), zeros({2, 4}));
                             }};
  m["where_out_partial_self"] = {"where", [] {
                                   Tensor x = ar(5), o = x.slice(0, 1);
                                   where_out(o, c4, x.slice(0, 0, 4), full_f({4}, -1));
                                   return x;
                                 }};
  m["where_out_partial_condition"] = {"where", [] {
                                        Tensor b = tensor({true, false, true, false, true});
                                        Tensor o = b.slice(0, 1), h = b.slice(0, 0, 4);
                                        where_out(o, h, h, h);
                                        return b;
                                      }};
  m["where_out_same_as_self"] = {"where", [] {
                                   Tensor x = ar(4);
                                   where_out(x, c4, x, -x);
                                   return x;
                                 }};
  m["where_out_same_as_other"] = {"where", [] {
                                    Tensor x = ar(4);
                                    where_out(x, c4, -x, x);
                                    return x;
                                  }};
  m["where_out_non_dense_input"] = {"where", [] {
                                      Tensor x = ar(6), o = x.slice(0, 0, 3);
                                      where_out(o, c3, x.slice(0, 0, 6, 2), full_f({3}, -1));
                                      return x;
                                    }};
}

void add_clamp(std::map<std::string, Case>& m) {
  m["clamp_tensor_expanded"] = {"clamp", [] {
                                  Tensor x = expanded();
                                  return clamp_t(x, ones({2, 3}), full_f({2, 3}, 2));
                                }};
  m["clamp_tensor_min_only_expanded"] = {"clamp_min", [] {
                                           Tensor x = expanded();
                                           return clamp_t(x, ones({2, 3}), std::nullopt);
                                         }};
  m["clamp_partial_min"] = {"clamp", [] {
                              Tensor x = ar(5);
                              clamp_t(x.slice(0, 1), x.slice(0, 0, 4), full_f({4}, 10));
                              return x;
                            }};
  m["clamp_partial_max"] = {"clamp", [] {
                              Tensor x = ar(5);
                              clamp_t(x.slice(0, 1), zeros({4}), x.slice(0, 0, 4));
                              return x;
                            }};
  m["clamp_min_is_self"] = {"clamp", [] {
                              Tensor x = ar(4);
                              clamp_t(x, x, full_f({4}, 2));
                              return x;
                            }};
  m["clamp_out_partial"] = {"clamp", [] {
                              Tensor x = ar(5), o = x.slice(0, 1);
                              clamp_out(o, x.slice(0, 0, 4), std::optional<Tensor>(zeros({4})), full_f({4}, 2));
                              return x;
                            }};
  m["clamp_non_dense_min"] = {"clamp", [] {
                                Tensor x = ar(6);
                                clamp_t(x.slice(0, 0, 3), x.slice(0, 0, 6, 2), full_f({3}, 10));
                                return x;
                              }};
}

// addcmul and addcdiv: the same cases, by name.
void add_addc(std::map<std::string, Case>& m, const std::string& nm, bool mul) {
  using InPlace = Tensor& (Tensor::*)(const Tensor&, const Tensor&, const Scalar&) const;
  const InPlace ip = mul ? &Tensor::addcmul_ : &Tensor::addcdiv_;
  auto out_fn = mul ? &addcmul_out : &addcdiv_out;
  const char* op = mul ? "addcmul" : "addcdiv";
  m[nm + "_expanded"] = {op, [=] {
                           Tensor x = expanded();
                           return (x.*ip)(ones({2, 3}), ones({2, 3}), 1);
                         }};
  m[nm + "_partial_tensor1"] = {op, [=] {
                                  Tensor x = ar(5) + 1, o = x.slice(0, 1);
                                  (o.*ip)(x.slice(0, 0, 4), full_f({4}, 2), 1);
                                  return x;
                                }};
  m[nm + "_partial_tensor2"] = {op, [=] {
                                  Tensor x = ar(5) + 1, o = x.slice(0, 1);
                                  (o.*ip)(full_f({4}, 2), x.slice(0, 0, 4), 1);
                                  return x;
                                }};
  m[nm + "_self_as_both_tensors"] = {op, [=] {
                                       Tensor x = ar(4) + 1;
                                       (x.*ip)(x, x, 0.5);
                                       return x;
                                     }};
  m[nm + "_non_dense_tensor1"] = {op, [=] {
                                    Tensor x = ar(6) + 1, o = x.slice(0, 0, 3);
                                    (o.*ip)(x.slice(0, 0, 6, 2), full_f({3}, 2), 1);
                                    return x;
                                  }};
  m[nm + "_transposed_tensor1"] = {op, [=] {
                                     Tensor x = (ar(4) + 1).reshape({2, 2});
                                     (x.*ip)(x.t(), ones({2, 2}), 1);
                                     return x;
                                   }};
  // tensor2 is float64: the inputs are cast to it, the overlap is still seen.
  m[nm + "_partial_tensor1_promoted"] = {op, [=] {
                                           Tensor x = ar(5) + 1, o = x.slice(0, 1);
                                           (o.*ip)(x.slice(0, 0, 4), full({4}, 2.0, kDouble), 1);
                                           return x;
                                         }};
  m[nm + "_out_partial"] = {op, [=] {
                              Tensor x = ar(5) + 1, o = x.slice(0, 1);
                              out_fn(o, x.slice(0, 0, 4), ones({4}), ones({4}), 1);
                              return x;
                            }};
  m[nm + "_out_expanded"] = {op, [=] {
                               Tensor o = expanded();
                               return out_fn(o, ones({2, 3}), ones({2, 3}), ones({2, 3}), 1);
                             }};
}

void add_lerp(std::map<std::string, Case>& m) {
  m["lerp_scalar_expanded"] = {"lerp", [] { return expanded().lerp_(ones({2, 3}), 0.5); }};
  m["lerp_tensor_expanded"] = {"lerp", [] { return lerp_t(expanded(), ones({2, 3}), full_f({2, 3}, 0.5)); }};
  m["lerp_scalar_partial_end"] = {"lerp", [] {
                                    Tensor x = ar(5);
                                    x.slice(0, 1).lerp_(x.slice(0, 0, 4), 0.5);
                                    return x;
                                  }};
  m["lerp_tensor_partial_weight"] = {"lerp", [] {
                                       Tensor x = ar(5) / 10;
                                       lerp_t(x.slice(0, 1), ones({4}), x.slice(0, 0, 4));
                                       return x;
                                     }};
  m["lerp_weight_is_self"] = {"lerp", [] {
                                Tensor x = ar(4) / 10;
                                lerp_t(x, ones({4}), x);
                                return x;
                              }};
  m["lerp_non_dense_end"] = {"lerp", [] {
                               Tensor x = ar(6);
                               x.slice(0, 0, 3).lerp_(x.slice(0, 0, 6, 2), 0.5);
                               return x;
                             }};
  m["lerp_out_partial"] = {"lerp", [] {
                             Tensor x = ar(5), o = x.slice(0, 1);
                             lerp_out(o, x.slice(0, 0, 4), ones({4}), 0.5);
                             return x;
                           }};
}

void add_binary(std::map<std::string, Case>& m) {
  // int64 out, float result: the overlap is reported before the dtype error.
  m["add_out_partial_before_dtype_check"] = {"add", [] {
                                               Tensor x = arange(5), o = x.slice(0, 1);
                                               add_out(o, x.slice(0, 0, 4), 1.5);
                                               return x;
                                             }};
}

void add_copy(std::map<std::string, Case>& m) {
  m["copy_into_expanded"] = {"copy_", [] { return expanded().copy_(ones({2, 3})); }};
  m["copy_into_expanded_broadcast_src"] = {"copy_", [] { return expanded().copy_(ones({3})); }};
  m["copy_into_expanded_0dim_src"] = {"copy_", [] { return zeros({1}).expand({3}).copy_(scalar_tensor(1.0f)); }};
  m["copy_into_expanded_int_src"] = {"copy_", [] { return expanded().copy_(ones({2, 3}, kLong)); }};
  m["copy_into_expand_size_1"] = {"copy_", [] { return zeros({3}).expand({1, 3}).copy_(ones({1, 3})); }};
  m["copy_into_empty_expanded"] = {"copy_", [] { return zeros({0}).expand({2, 0}).copy_(ones({2, 0})); }};
  m["copy_expanded_into_itself"] = {"copy_", [] {
                                      Tensor e = expanded();
                                      return e.copy_(e);
                                    }};
  m["copy_expanded_into_other_view_of_it"] = {"copy_", [] {
                                                Tensor z = zeros({3});
                                                return z.expand({2, 3}).copy_(z.expand({2, 3}));
                                              }};
}

void add_float_class(std::map<std::string, Case>& m) {
  for (const char* nm : {"isposinf", "isneginf"}) {
    for (ScalarType dt : {kLong, kFloat}) {
      const std::string name = std::string(nm) + "_out_expanded_" + (dt == kLong ? "int64" : "float32");
      const bool pos = std::string(nm) == "isposinf";
      m[name] = {nm, [pos, dt] {
                   Tensor out = zeros({3}, kBool).expand({2, 3});
                   return pos ? isposinf_out(out, ones({2, 3}, dt)) : isneginf_out(out, ones({2, 3}, dt));
                 }};
    }
  }
}

Tensor scatter_index() { return tensor({int64_t{0}, int64_t{1}}).reshape({2, 1}); }

void add_inplace(std::map<std::string, Case>& m) {
  const std::map<std::string, std::pair<const char*, std::function<void(Tensor&)>>> ops = {
      {"neg_", {"neg_", [](Tensor& x) { x.neg_(); }}},
      {"abs_", {"abs_", [](Tensor& x) { x.abs_(); }}},
      {"sigmoid_", {"sigmoid_", [](Tensor& x) { x.sigmoid_(); }}},
      {"round_", {"round", [](Tensor& x) { x.round_(); }}},
      {"nan_to_num_", {"nan_to_num", [](Tensor& x) { x.nan_to_num_(); }}},
      {"add_scalar_", {"add", [](Tensor& x) { x.add_(1); }}},
      {"sub_alpha_",
       {"sub",
        [](Tensor& x) {
          x.sub_(ones({2, 3}), 2);
        }}},
      {"mul_tensor_",
       {"mul",
        [](Tensor& x) {
          x.mul_(ones({2, 3}));
        }}},
      {"div_tensor_",
       {"div",
        [](Tensor& x) {
          x.div_(ones({2, 3}));
        }}},
      {"pow_scalar_", {"pow", [](Tensor& x) { x.pow_(2); }}},
      {"lt_", {"lt", [](Tensor& x) { x.lt_(1.0); }}},
      {"clamp_scalar_", {"clamp", [](Tensor& x) { x.clamp_(1, 2); }}},
      {"clamp_min_", {"clamp_min", [](Tensor& x) { x.clamp_min_(1); }}},
      {"clamp_max_", {"clamp_max", [](Tensor& x) { x.clamp_max_(1); }}},
      {"relu_", {"relu_", [](Tensor& x) { x.relu_(); }}},
      {"hardtanh_", {"clamp", [](Tensor& x) { hardtanh_(x); }}},
      {"relu6_", {"clamp", [](Tensor& x) { relu6_(x); }}},
      {"leaky_relu_", {"leaky_relu", [](Tensor& x) { leaky_relu_(x); }}},
      {"elu_", {"elu", [](Tensor& x) { elu_(x); }}},
      {"celu_", {"elu", [](Tensor& x) { celu_(x); }}},
      {"rrelu_eval_", {"rrelu_", [](Tensor& x) { rrelu_(x, 0.125, 1.0 / 3, false); }}},
      {"threshold_", {"threshold_", [](Tensor& x) { threshold_(x, 0.5, 2.0); }}},
      {"masked_fill_",
       {"masked_fill_",
        [](Tensor& x) {
          x.masked_fill_(ones({2, 3}, kBool), 1.0);
        }}},
      {"fill_", {"fill_", [](Tensor& x) { x.fill_(1.0); }}},
      {"zero_", {"zero_", [](Tensor& x) { x.zero_(); }}},
      // the index family, and ops Ember writes through copy_
      {"index_add_",
       {"index_add_",
        [](Tensor& x) {
          x.index_add_(1, tensor({int64_t{0}}), ones({2, 1}));
        }}},
      {"index_copy_",
       {"index_copy_",
        [](Tensor& x) {
          x.index_copy_(1, tensor({int64_t{0}}), ones({2, 1}));
        }}},
      {"index_fill_", {"index_fill_", [](Tensor& x) { x.index_fill_(1, tensor({int64_t{0}}), 1.0); }}},
      {"index_put_accumulate_",
       {"index_put_",
        [](Tensor& x) { index_put_(x, {std::optional<Tensor>(tensor({int64_t{0}}))}, ones({3}), true); }}},
      {"scatter_src_",
       {"scatter",
        [](Tensor& x) {
          x.scatter_(1, scatter_index(), ones({2, 1}));
        }}},
      {"scatter_value_", {"scatter", [](Tensor& x) { x.scatter_(1, scatter_index(), 1.0); }}},
      {"scatter_reduce_add_",
       {"scatter",
        [](Tensor& x) {
          scatter_(x, 1, scatter_index(), ones({2, 1}), "add");
        }}},
      {"scatter_add_",
       {"scatter_add",
        [](Tensor& x) {
          x.scatter_add_(1, scatter_index(), ones({2, 1}));
        }}},
      {"scatter_reduce_sum_",
       {"scatter_reduce",
        [](Tensor& x) {
          x.scatter_reduce_(1, scatter_index(), ones({2, 1}), "sum");
        }}},
      {"cumsum_", {"cumsum_", [](Tensor& x) { x.cumsum_(1); }}},
      {"addmm_",
       {"addmm_",
        [](Tensor& x) {
          x.addmm_(ones({2, 2}), ones({2, 3}));
        }}},
  };
  for (const auto& [name, op] : ops) {
    auto f = op.second;
    m["inplace_expanded:" + name] = {op.first, [f] {
                                       Tensor x = expanded();
                                       f(x);
                                       return x;
                                     }};
  }
}

// A source or index sharing memory with self: PyTorch refuses any shared
// element for the index family, the very same tensor included.
void add_index_family(std::map<std::string, Case>& m) {
  const auto l = [](std::initializer_list<int64_t> v) { return tensor(std::vector<int64_t>(v)); };
  const Tensor r6 = l({5, 4, 3, 2, 1, 0}), r3 = l({2, 1, 0});
  const std::map<std::string, std::pair<const char*, std::function<void(Tensor&)>>> on_float = {
      {"index_add_src_is_self", {"index_add_()", [=](Tensor& x) { x.index_add_(0, r6, x); }}},
      {"index_add_src_partial",
       {"index_add_()",
        [=](Tensor& x) {
          x.slice(0, 1).index_add_(0, l({0, 1}), x.slice(0, 0, 2));
        }}},
      {"index_add_src_non_dense",
       {"index_add_()", [=](Tensor& x) { x.slice(0, 0, 3).index_add_(0, r3, x.slice(0, 0, 6, 2)); }}},
      {"index_add_src_disjoint",
       {"index_add_()", [=](Tensor& x) { x.slice(0, 0, 3).index_add_(0, r3, x.slice(0, 3)); }}},
      {"index_copy_src_is_self", {"index_copy_()", [=](Tensor& x) { x.index_copy_(0, r6, x); }}},
      {"scatter_src_is_self", {"scatter()", [=](Tensor& x) { x.scatter_(0, r6, x); }}},
      {"scatter_src_disjoint", {"scatter()", [=](Tensor& x) { x.slice(0, 0, 3).scatter_(0, r3, x.slice(0, 3)); }}},
      {"scatter_add_src_is_self", {"scatter_add()", [=](Tensor& x) { x.scatter_add_(0, r6, x); }}},
      {"scatter_add_src_non_dense",
       {"scatter_add()", [=](Tensor& x) { x.slice(0, 0, 3).scatter_add_(0, r3, x.slice(0, 0, 6, 2)); }}},
      {"scatter_reduce_src_is_self", {"scatter_reduce()", [=](Tensor& x) { x.scatter_reduce_(0, r6, x, "sum"); }}},
      {"index_put_values_is_self", {"index_put_", [=](Tensor& x) { index_put_(x, {std::optional<Tensor>(r6)}, x); }}},
      // x[i] = v through Tensor::index_put_ with TensorIndex
      {"setitem_values_partial",
       {"index_put_",
        [=](Tensor& x) {
          x.index_put_({l({0, 1})}, x.slice(0, 2, 4));
        }}},
      {"setitem_view_values_partial",
       {"index_put_",
        [=](Tensor& x) {
          x.slice(0, 1).index_put_({l({0, 1})}, x.slice(0, 0, 2));
        }}},
      {"setitem_values_disjoint", {"index_put_", [=](Tensor& x) { x.slice(0, 0, 3).index_put_({r3}, x.slice(0, 3)); }}},
  };
  for (const auto& [name, op] : on_float) {
    auto f = op.second;
    m["index_family:" + name] = {op.first, [f] {
                                   Tensor x = ar(6);
                                   f(x);
                                   return x;
                                 }};
  }
  // int64 self read as an index
  const std::map<std::string, std::pair<const char*, std::function<void(Tensor&)>>> on_int = {
      {"scatter_index_is_self",
       {"scatter()",
        [=](Tensor& x) {
          x.scatter_(0, x.slice(0, 0, 2), l({5, 6}));
        }}},
      {"index_copy_index_is_self",
       {"index_copy_()",
        [=](Tensor& x) {
          x.index_copy_(0, x.slice(0, 0, 2), l({5, 6}));
        }}},
      {"index_fill_index_is_self", {"index_fill_()", [=](Tensor& x) { x.index_fill_(0, x.slice(0, 0, 2), 7); }}},
      {"setitem_index_is_self", {"index_put_", [=](Tensor& x) { x.index_put_({x.slice(0, 0, 2)}, 7); }}},
      {"index_add_index_is_self",
       {"index_add_()",
        [=](Tensor& x) {
          x.index_add_(0, x.slice(0, 0, 2), l({5, 6}));
        }}},
  };
  for (const auto& [name, op] : on_int) {
    auto f = op.second;
    m["index_family:" + name] = {op.first, [f] {
                                   Tensor x = arange(6);
                                   f(x);
                                   return x;
                                 }};
  }
}

std::map<std::string, Case> all_cases() {
  std::map<std::string, Case> m;
  add_where(m);
  add_clamp(m);
  add_addc(m, "addcmul", true);
  add_addc(m, "addcdiv", false);
  add_lerp(m);
  add_binary(m);
  add_copy(m);
  add_inplace(m);
  add_float_class(m);
  add_index_family(m);
  return m;
}

TEST(MemOverlap, EveryCaseAsPyTorch) {
  const Golden& g = golden();
  const std::map<std::string, Case> cases = all_cases();
  int checked = 0;
  for (const auto& [name, c] : cases) {
    SCOPED_TRACE(name);
    if (g.has(name + ":error")) {
      const int64_t kind = g[name + ":error"].item<int64_t>();
      const char* what = kind == 1 ? "more than one element of the written-to tensor refers to a single memory location"
                                   : "some elements of the input tensor and the written-to tensor refer to a single "
                                     "memory location";
      EXPECT_EMBER_ERROR(c.run(), c.op, what, "strides", "Please clone() the tensor");
    } else {
      ASSERT_TRUE(g.has(name)) << "no golden entry";
      EXPECT_TENSOR_CLOSE(c.run(), g[name]);  // float32 tolerance
    }
    ++checked;
  }
  // Every golden case has a C++ replay.
  for (const std::string& n : g.names_with_prefix("")) {
    const std::string base = n.size() > 6 && n.substr(n.size() - 6) == ":error" ? n.substr(0, n.size() - 6) : n;
    EXPECT_TRUE(cases.count(base)) << "golden case without a replay: " << n;
  }
  EXPECT_EQ(checked, 106);
}

// An error leaves the written-to tensor as it was.
TEST(MemOverlap, ErrorsWriteNothing) {
  Tensor x = ar(5) + 1, o = x.slice(0, 1);
  EXPECT_EMBER_ERROR(o.addcmul_(x.slice(0, 0, 4), ones({4}), 1), "addcmul");
  EXPECT_TENSOR_EQ(x, ar(5) + 1);
  Tensor e = expanded();
  EXPECT_EMBER_ERROR(e.copy_(ones({2, 3})), "copy_", "[2, 3]", "[0, 1]");
  EXPECT_TENSOR_EQ(e, zeros({2, 3}));
}

}  // namespace
}  // namespace torch
