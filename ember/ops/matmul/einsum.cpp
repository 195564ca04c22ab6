// einsum and tensordot. Both are shape bookkeeping around bmm/mm: no
// contraction runs as an elementwise loop (Note [einsum as bmm]).
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/matmul/matmul.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batched_tensor.h"

namespace torch {
namespace {

// Note [einsum as bmm]
// Every operand is first viewed with one dim per "global" dim of the
// equation (ellipsis dims, then labels): absent dims get size 1, repeated
// labels in one operand become a single dim whose stride is the sum of their
// strides (a diagonal, via as_strided). The global order puts the output dims
// first, in output order, then the summed dims. Operands are then contracted
// left to right; each pair becomes one bmm of [batch, lhs-only, contracted] x
// [batch, contracted, rhs-only], and a dim summed on one side only is reduced
// as a matrix-vector product with ones. Summed dims end at size 1, so the
// result is a plain reshape of the global-order tensor.

constexpr int kNumLetters = 52;

// PyTorch orders implicit outputs with upper case before lower case.
int letter_index(char c) { return c >= 'A' && c <= 'Z' ? c - 'A' : 26 + (c - 'a'); }
bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

constexpr int kEllipsis = -1;

struct Term {
  std::vector<int> items;  // letter indices, kEllipsis for "..."
  bool has_ellipsis = false;
};

// Parses one comma-free term; `pos0` is its offset in the equation for messages.
Term parse_term(const std::string& s, size_t pos0, const std::string& what) {
  Term t;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '.') {
      EMBER_CHECK(i + 2 < s.size() && s[i + 1] == '.' && s[i + 2] == '.', "einsum(): found '.' for ", what,
                  " that is not part of any ellipsis");
      EMBER_CHECK(!t.has_ellipsis, "einsum(): found '.' for ", what, " for which an ellipsis was already found");
      t.has_ellipsis = true;
      t.items.push_back(kEllipsis);
      i += 2;
    } else {
      EMBER_CHECK(is_letter(c), "einsum(): invalid subscript given at index ", pos0 + i,
                  " in the equation string, subscripts must be in [a-zA-Z]");
      t.items.push_back(letter_index(c));
    }
  }
  return t;
}

char letter_char(int l) { return l < 26 ? static_cast<char>('A' + l) : static_cast<char>('a' + l - 26); }

// Sums `t` over the dims flagged in `mask` that have size != 1, keeping them as size 1.
Tensor sum_keep(const Tensor& t, const std::vector<bool>& mask) {
  const int64_t g = t.dim();
  DimVector keep, summed;
  for (int64_t d = 0; d < g; ++d) (mask[d] && t.size(d) != 1 ? summed : keep).push_back(d);
  if (summed.empty()) return t;
  DimVector perm(keep), keep_sizes;
  int64_t rows = 1, cols = 1;
  for (int64_t d : keep) rows *= t.size(d), keep_sizes.push_back(t.size(d));
  for (int64_t d : summed) cols *= t.size(d), perm.push_back(d), keep_sizes.push_back(1);
  Tensor r = mm(t.permute(perm).reshape({rows, cols}), ones({cols, 1}, t.options()));
  DimVector inv(static_cast<size_t>(g));
  for (int64_t i = 0; i < g; ++i) inv[perm[i]] = i;
  return r.view(keep_sizes).permute(inv);
}

// Contracts two global-order operands, summing the dims in `sum_mask`.
Tensor contract_pair(Tensor l, Tensor r, const std::vector<bool>& sum_mask) {
  const int64_t g = l.dim();
  std::vector<bool> l_only(g, false), r_only(g, false);
  for (int64_t d = 0; d < g; ++d) {
    if (!sum_mask[d]) continue;
    if (l.size(d) != 1 && r.size(d) == 1) l_only[d] = true;
    if (r.size(d) != 1 && l.size(d) == 1) r_only[d] = true;
  }
  l = sum_keep(l, l_only);
  r = sum_keep(r, r_only);
  DimVector batch, lo, ro, con, rest;
  for (int64_t d = 0; d < g; ++d) {
    const bool lp = l.size(d) != 1, rp = r.size(d) != 1;
    if (lp && rp)
      (sum_mask[d] ? con : batch).push_back(d);
    else if (lp)
      lo.push_back(d);
    else if (rp)
      ro.push_back(d);
    else
      rest.push_back(d);
  }
  auto prod = [](const Tensor& t, const DimVector& dims) {
    int64_t p = 1;
    for (int64_t d : dims) p *= t.size(d);
    return p;
  };
  const int64_t nb = prod(l, batch), ni = prod(l, lo), nk = prod(l, con), nj = prod(r, ro);
  // Dims of size 1 on both sides (rest) go last and vanish in the reshape.
  DimVector pl(batch), pr(batch);
  for (int64_t d : lo) pl.push_back(d);
  for (int64_t d : con) pl.push_back(d), pr.push_back(d);
  for (int64_t d : ro) pr.push_back(d);
  for (int64_t d : rest) pl.push_back(d);
  for (int64_t d : lo) pr.push_back(d);  // size 1 in r
  for (int64_t d : rest) pr.push_back(d);
  for (int64_t d : ro) pl.push_back(d);  // size 1 in l
  Tensor c = bmm(l.permute(pl).reshape({nb, ni, nk}), r.permute(pr).reshape({nb, nk, nj}));
  // c is [batch..., lo..., ro...]; put every global dim back in place.
  DimVector order(batch), sizes;
  for (int64_t d : lo) order.push_back(d);
  for (int64_t d : ro) order.push_back(d);
  for (int64_t d : batch) sizes.push_back(l.size(d));
  for (int64_t d : lo) sizes.push_back(l.size(d));
  for (int64_t d : ro) sizes.push_back(r.size(d));
  for (int64_t d : con) order.push_back(d), sizes.push_back(1);
  for (int64_t d : rest) order.push_back(d), sizes.push_back(1);
  DimVector inv(static_cast<size_t>(g));
  for (int64_t i = 0; i < g; ++i) inv[order[i]] = i;
  return c.view(sizes).permute(inv);
}

}  // namespace

Tensor einsum(std::string_view equation_in, TensorList tensors) {
  EMBER_RECORD_COMPOSITE_OP("einsum", tensors);
  std::string eq;
  for (char c : equation_in)
    if (c != ' ') eq.push_back(c);
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  // ---- parse the inputs
  std::vector<Term> terms;
  size_t start = 0;
  while (true) {
    const size_t comma = lhs.find(',', start);
    const std::string s = lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    terms.push_back(parse_term(s, start, str("operand ", terms.size())));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  EMBER_CHECK(terms.size() <= tensors.size(), "einsum(): fewer operands were provided than specified in the equation");
  EMBER_CHECK(terms.size() >= tensors.size(), "einsum(): more operands were provided than specified in the equation");
  EMBER_CHECK(!tensors.empty(), "einsum(): must provide at least one operand");
  for (const Tensor& t : tensors)
    EMBER_CHECK(t.dtype() == tensors[0].dtype(), "einsum(): expected all operands to have the same dtype, but got ",
                tensors[0].dtype(), " and ", t.dtype());

  // ---- dims covered by each ellipsis, label counts
  const size_t nops = terms.size();
  std::vector<int64_t> ell_ndims(nops, 0);
  int64_t ell = 0;
  std::array<int, kNumLetters> count{};
  for (size_t i = 0; i < nops; ++i) {
    const int64_t nlabels = static_cast<int64_t>(terms[i].items.size()) - (terms[i].has_ellipsis ? 1 : 0);
    const int64_t nd = tensors[i].dim();
    if (terms[i].has_ellipsis) {
      EMBER_CHECK(nlabels <= nd, "einsum(): the number of subscripts in the equation (", nlabels,
                  ") is more than the number of dimensions (", nd, ") for operand ", i);
      ell_ndims[i] = nd - nlabels;
      ell = std::max(ell, ell_ndims[i]);
    } else {
      EMBER_CHECK(nlabels == nd, "einsum(): the number of subscripts in the equation (", nlabels,
                  ") does not match the number of dimensions (", nd, ") for operand ", i, " and no ellipsis was given");
    }
    for (int l : terms[i].items)
      if (l != kEllipsis) ++count[l];
  }

  // ---- output term
  Term out;
  if (arrow != std::string::npos) {
    out = parse_term(eq.substr(arrow + 2), arrow + 2, "the output");
    std::array<bool, kNumLetters> seen{};
    for (int l : out.items) {
      if (l == kEllipsis) continue;
      EMBER_CHECK(count[l] > 0, "einsum(): output subscript ", letter_char(l),
                  " does not appear in the equation for any input operand");
      EMBER_CHECK(!seen[l], "einsum(): output subscript ", letter_char(l), " appears more than once in the output");
      seen[l] = true;
    }
  } else {
    bool any_ellipsis = false;
    for (const Term& t : terms) any_ellipsis = any_ellipsis || t.has_ellipsis;
    if (any_ellipsis) out.items.push_back(kEllipsis), out.has_ellipsis = true;
    for (int l = 0; l < kNumLetters; ++l)
      if (count[l] == 1) out.items.push_back(l);
  }

  // ---- global dims: output dims first (Note [einsum as bmm])
  std::array<int64_t, kNumLetters> label_dim;
  label_dim.fill(-1);
  std::vector<int64_t> ell_dim(static_cast<size_t>(ell));
  int64_t g = 0;
  for (int l : out.items) {
    if (l == kEllipsis) {
      for (int64_t e = 0; e < ell; ++e) ell_dim[e] = g++;
    } else {
      label_dim[l] = g++;
    }
  }
  const int64_t n_out = g;
  if (!out.has_ellipsis)
    for (int64_t e = 0; e < ell; ++e) ell_dim[e] = g++;
  for (int l = 0; l < kNumLetters; ++l)
    if (count[l] > 0 && label_dim[l] < 0) label_dim[l] = g++;

  // ---- operands as global-order views (diagonals for repeated labels)
  std::vector<Tensor> ops;
  DimVector seen_size(static_cast<size_t>(g), 1);
  for (size_t i = 0; i < nops; ++i) {
    const Tensor& t = tensors[i];
    DimVector sizes(static_cast<size_t>(g), 1), strides(static_cast<size_t>(g), 0);
    std::vector<bool> set(static_cast<size_t>(g), false);
    std::vector<int64_t> global_of(static_cast<size_t>(t.dim()), 0);
    bool repeated = false;
    int64_t d = 0;
    auto place = [&](int64_t gd, int l) {
      global_of[d] = gd;
      if (set[gd]) {
        repeated = true;
        EMBER_CHECK(sizes[gd] == t.size(d), "einsum(): subscript ", letter_char(l), " is repeated for operand ", i,
                    " but the sizes don't match, ", sizes[gd], " != ", t.size(d));
        strides[gd] += t.stride(d);
      } else {
        set[gd] = true;
        sizes[gd] = t.size(d);
        strides[gd] = t.stride(d);
      }
      ++d;
    };
    for (int l : terms[i].items) {
      if (l == kEllipsis) {
        for (int64_t e = ell - ell_ndims[i]; e < ell; ++e) place(ell_dim[e], -1);
      } else {
        place(label_dim[l], l);
      }
    }
    for (int64_t gd = 0; gd < g; ++gd) {
      if (sizes[gd] == 1) continue;
      if (seen_size[gd] == 1) {
        seen_size[gd] = sizes[gd];
        continue;
      }
      if (seen_size[gd] == sizes[gd]) continue;
      int label = -1;
      for (int l = 0; l < kNumLetters; ++l)
        if (label_dim[l] == gd) label = l;
      if (label >= 0) {
        EMBER_ERROR("einsum(): subscript ", letter_char(label), " has size ", sizes[gd], " for operand ", i,
                    " which does not broadcast with previously seen size ", seen_size[gd]);
      }
      EMBER_ERROR("einsum(): operands do not broadcast: an ellipsis dim of operand ", i, " has size ", sizes[gd],
                  ", previously seen size ", seen_size[gd]);
    }
    if (repeated) {
      // A repeated label is a diagonal: only a strided view expresses it.
      ops.push_back(t.as_strided(sizes, strides, t.storage_offset()));
    } else {
      // Otherwise the same view through permute + reshape, which autograd differentiates.
      std::vector<int64_t> perm(static_cast<size_t>(t.dim()));
      for (int64_t k = 0; k < t.dim(); ++k) perm[k] = k;
      std::stable_sort(perm.begin(), perm.end(), [&](int64_t x, int64_t y) { return global_of[x] < global_of[y]; });
      ops.push_back(t.permute(perm).reshape(sizes));
    }
  }

  // ---- contract left to right
  auto summable_after = [&](size_t i) {  // dims not in the output nor in operands after i
    std::vector<bool> m(static_cast<size_t>(g), false);
    for (int64_t gd = n_out; gd < g; ++gd) {
      bool later = false;
      for (size_t j = i + 1; j < nops; ++j) later = later || ops[j].size(gd) != 1;
      m[gd] = !later;
    }
    return m;
  };
  Tensor result = sum_keep(ops[0], summable_after(0));
  for (size_t i = 1; i < nops; ++i) result = contract_pair(result, ops[i], summable_after(i));
  DimVector out_sizes;
  for (int64_t gd = 0; gd < n_out; ++gd) out_sizes.push_back(result.size(gd));
  return result.reshape(out_sizes);
}

Tensor tensordot(const Tensor& a, const Tensor& b, IntArrayRef dims_a, IntArrayRef dims_b) {
  EMBER_RECORD_COMPOSITE_OP("tensordot", a, b);
  EMBER_CHECK(dims_a.size() == dims_b.size(), "tensordot: both dimension lists should have same length");
  const uint64_t mask_a = dim_mask(dims_a, a.dim(), "tensordot");
  const uint64_t mask_b = dim_mask(dims_b, b.dim(), "tensordot");
  EMBER_CHECK(a.dtype() == b.dtype(), "tensordot: expected both operands to have the same dtype, but got ", a.dtype(),
              " and ", b.dtype());
  DimVector pa, pb, out_sizes;
  int64_t k = 1, fa = 1, fb = 1;
  for (int64_t d = 0; d < a.dim(); ++d)
    if (!(mask_a >> d & 1)) pa.push_back(d), out_sizes.push_back(a.size(d)), fa *= a.size(d);
  for (size_t i = 0; i < dims_a.size(); ++i) {
    const int64_t da = wrap_dim(dims_a[i], a.dim(), "tensordot"), db = wrap_dim(dims_b[i], b.dim(), "tensordot");
    EMBER_CHECK(a.size(da) == b.size(db), "tensordot: contracted dimensions need to match, but first has size ",
                a.size(da), " in dim ", da, " and second has size ", b.size(db), " in dim ", db);
    pa.push_back(da);
    pb.push_back(db);
    k *= a.size(da);
  }
  for (int64_t d = 0; d < b.dim(); ++d)
    if (!(mask_b >> d & 1)) pb.push_back(d), out_sizes.push_back(b.size(d)), fb *= b.size(d);
  return mm(a.permute(pa).reshape({fa, k}), b.permute(pb).reshape({k, fb})).view(out_sizes);
}

Tensor tensordot(const Tensor& a, const Tensor& b, int64_t dims) {
  EMBER_CHECK(dims >= 0, "tensordot: expects dims >= 0, but got dims=", dims);
  EMBER_CHECK(dims <= a.dim() && dims <= b.dim(), "tensordot: expects dims <= the number of dims of both operands (",
              a.dim(), " and ", b.dim(), "), but got dims=", dims);
  DimVector da, db;
  for (int64_t i = 0; i < dims; ++i) da.push_back(a.dim() - dims + i), db.push_back(i);
  return tensordot(a, b, da, db);
}

}  // namespace torch
