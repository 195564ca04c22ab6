#include "ember/ops/nn/embedding.h"
#include "ember/core/record_scope.h"

#include <cmath>
#include <set>

#include "ember/autograd/derivatives/nn_embedding_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/core/dispatch.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/embedding_bag_kernel.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/nn/nn_util.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/vmap/rules_nn.h"

namespace torch {
namespace {

// Flattened int64 copy of the indices, each checked against [0, num_rows).
std::vector<int64_t> checked_indices(const char* op, const Tensor& indices, int64_t num_rows) {
  EMBER_CHECK(indices.defined(), op, ": expected defined indices");
  EMBER_CHECK(indices.dtype() == kLong || indices.dtype() == kInt, op,
              ": Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
              "but got ",
              indices.dtype(), " instead");
  const Tensor flat = ops::cast(indices, kLong).contiguous();
  const int64_t* p = flat.data_ptr<int64_t>();
  std::vector<int64_t> out(p, p + flat.numel());
  for (int64_t v : out)
    EMBER_CHECK(v >= 0 && v < num_rows, op, ": index ", v, " is out of range for weight with ", num_rows,
                " rows (index out of range in self)");
  return out;
}

}  // namespace

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq,
                 bool sparse) {
  if (batching::any_batched(weight, indices)) [[unlikely]] {
    EMBER_CHECK(!sparse, "embedding: sparse gradients are not supported");
    return batching::embedding_batched(weight, indices, padding_idx, scale_grad_by_freq);
  }
  EMBER_RECORD_OP("embedding", weight, indices);
  const char* op = "embedding";
  EMBER_CHECK(weight.defined() && weight.dim() == 2, op, ": 'weight' must be 2-D, got ",
              weight.defined() ? shape_str(weight.sizes()) : std::string("an undefined tensor"));
  EMBER_CHECK(!sparse, op, ": sparse gradients are not supported");
  checked_indices(op, indices, weight.size(0));
  DimVector shape(indices.sizes());
  shape.push_back(weight.size(1));
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    out = weight.index_select(0, indices.reshape({-1})).view(shape);
  }
  if (autograd::needs_grad(weight)) autograd::record_embedding(weight, indices, out, padding_idx, scale_grad_by_freq);
  return out;
}

Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                int64_t padding_idx, bool scale_grad_by_freq) {
  if (batching::any_batched(grad_output, indices)) [[unlikely]]
    return batching::embedding_dense_backward_batched(grad_output, indices, num_weights, padding_idx,
                                                      scale_grad_by_freq);
  EMBER_RECORD_OP("embedding_dense_backward", grad_output, indices);
  const char* op = "embedding_dense_backward";
  const std::vector<int64_t> idx = checked_indices(op, indices, num_weights);
  const int64_t n = static_cast<int64_t>(idx.size());
  const int64_t d = n == 0 ? grad_output.size(-1) : grad_output.numel() / n;
  EMBER_CHECK(grad_output.numel() == n * d, op, ": grad of shape ", shape_str(grad_output.sizes()),
              " does not match indices of shape ", shape_str(indices.sizes()));
  Tensor out = zeros({num_weights, d}, grad_output.options());
  std::vector<int64_t> counts;
  if (scale_grad_by_freq) {
    counts.assign(static_cast<size_t>(num_weights), 0);
    for (int64_t v : idx) ++counts[static_cast<size_t>(v)];
  }
  const Tensor g = grad_output.reshape({n, d}).contiguous();
  dispatch_floating(out.dtype(), op, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using Op = opmath_t<T>;
    const T* pg = g.data_ptr<T>();
    T* po = out.data_ptr<T>();
    // Columns are independent: split them across threads, rows stay in order.
    parallel_for(0, d, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, n)), [&](int64_t c0, int64_t c1) {
      for (int64_t i = 0; i < n; ++i) {
        const int64_t row = idx[static_cast<size_t>(i)];
        if (row == padding_idx) continue;
        const Op scale = scale_grad_by_freq ? Op(1) / static_cast<Op>(counts[static_cast<size_t>(row)]) : Op(1);
        const T* src = pg + i * d;
        T* dst = po + row * d;
        for (int64_t j = c0; j < c1; ++j)
          dst[j] = static_cast<T>(static_cast<Op>(dst[j]) + static_cast<Op>(src[j]) * scale);
      }
    });
  });
  if (autograd::needs_grad(grad_output))
    autograd::record_embedding_dense_backward(grad_output, indices, out, padding_idx, scale_grad_by_freq);
  return out;
}

Tensor& embedding_renorm_(Tensor& weight, const Tensor& indices, double max_norm, double norm_type) {
  if (batching::any_batched(weight, indices)) [[unlikely]] {
    // Each sample renormalizes the rows of its own weight that its indices name (a loop over the
    // samples' views); a shared weight cannot take per-sample writes, as in PyTorch.
    const int64_t level = batching::top_level({&weight, &indices});
    const batching::Peeled pw = batching::peel_front(weight, level), pi = batching::peel_front(indices, level);
    EMBER_CHECK(pw.batched, "embedding_renorm_: vmap: in-place renorm of a weight of shape ", shape_str(weight.sizes()),
                " that is not batched, with batched indices, is not possible: every sample would write into the one "
                "shared weight. Pass the weight batched (one per sample), or apply max_norm outside vmap");
    for (int64_t k = 0; k < pw.value.size(0); ++k) {
      Tensor w = pw.value.select(0, k);
      embedding_renorm_(w, pi.batched ? pi.value.select(0, k) : indices, max_norm, norm_type);
    }
    return weight;
  }
  EMBER_RECORD_OP("embedding_renorm_", weight, indices);
  const char* op = "embedding_renorm_";
  EMBER_CHECK(weight.defined() && weight.dim() == 2, op, ": 'weight' must be 2-D");
  const std::vector<int64_t> idx = checked_indices(op, indices, weight.size(0));
  autograd::BelowAutogradGuard no_grad;
  for (int64_t row : std::set<int64_t>(idx.begin(), idx.end())) {
    Tensor r = weight.select(0, row);
    const double norm = r.norm(norm_type).item<double>();
    if (norm > max_norm) r.mul_(max_norm / (norm + 1e-7));
  }
  return weight;
}

std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag(const Tensor& weight, const Tensor& indices_in,
                                                         const Tensor& offsets_in, bool scale_grad_by_freq,
                                                         int64_t mode, bool sparse,
                                                         const std::optional<Tensor>& psw_opt, bool include_last_offset,
                                                         std::optional<int64_t> padding_idx) {
  // Bags are read from the indices' and offsets' values, so under vmap each
  // sample makes its own call (batching::per_sample_loop).
  if (batching::any_batched(weight, indices_in, offsets_in, psw_opt)) [[unlikely]] {
    const Tensor psw_in = nn_detail::opt(psw_opt);
    const std::vector<Tensor> r = batching::per_sample_loop(
        {&weight, &indices_in, &offsets_in, &psw_in}, "embedding_bag", [&](const std::vector<Tensor>& a) {
          auto [o, o2b, bs, mi] = embedding_bag(a[0], a[1], a[2], scale_grad_by_freq, mode, sparse,
                                                a[3].defined() ? std::optional<Tensor>(a[3]) : std::nullopt,
                                                include_last_offset, padding_idx);
          return std::vector<Tensor>{o, o2b, bs, mi};
        });
    return {r[0], r[1], r[2], r[3]};
  }
  EMBER_RECORD_OP("embedding_bag", weight, indices_in, offsets_in);
  const char* op = "embedding_bag";
  const Tensor psw = nn_detail::opt(psw_opt);
  EMBER_CHECK(weight.defined() && weight.dim() == 2, op, ": 'weight' must be 2-D");
  EMBER_CHECK(mode >= 0 && mode <= 2, op, ": mode has to be one of sum (0), mean (1) or max (2), got ", mode);
  EMBER_CHECK(indices_in.defined() && (indices_in.dim() == 1 || indices_in.dim() == 2), op,
              ": input has to be 1D or 2D Tensor, but got Tensor of dimension ",
              indices_in.defined() ? indices_in.dim() : 0);
  const int64_t num_rows = weight.size(0), d = weight.size(1);
  const std::vector<int64_t> idx = checked_indices(op, indices_in, num_rows);
  const int64_t n = static_cast<int64_t>(idx.size());
  // Bag starts; a 2-D input [B, L] is B bags of L.
  std::vector<int64_t> starts;
  if (indices_in.dim() == 2) {
    for (int64_t b = 0; b < indices_in.size(0); ++b) starts.push_back(b * indices_in.size(1));
    starts.push_back(n);
  } else {
    EMBER_CHECK(offsets_in.defined() && offsets_in.dim() == 1, op, ": offsets has to be a 1D Tensor");
    EMBER_CHECK(offsets_in.dtype() == kLong || offsets_in.dtype() == kInt, op,
                ": Expected tensor for argument 'offsets' to have one of the following scalar types: Long, Int; "
                "but got ",
                offsets_in.dtype(), " instead");
    const Tensor o = ops::cast(offsets_in, kLong).contiguous();
    starts.assign(o.data_ptr<int64_t>(), o.data_ptr<int64_t>() + o.numel());
    if (!starts.empty())
      EMBER_CHECK(starts[0] == 0, op,
                  ": offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                  "position 0. However, got ",
                  starts[0]);
    for (size_t i = 0; i < starts.size(); ++i) {
      EMBER_CHECK(starts[i] >= 0 && starts[i] <= n, op, ": offsets[", i, "] = ", starts[i],
                  " is out of range for input of size ", n);
      if (i > 0)
        EMBER_CHECK(starts[i] >= starts[i - 1], op, ": offsets must be non-decreasing, got offsets[", i - 1,
                    "] = ", starts[i - 1], " > offsets[", i, "] = ", starts[i]);
    }
    if (!include_last_offset)
      starts.push_back(n);
    else
      EMBER_CHECK(!starts.empty(), op, ": include_last_offset requires at least one offset");
  }
  const int64_t bags = static_cast<int64_t>(starts.size()) - 1;
  EMBER_CHECK(!(mode == 2 && scale_grad_by_freq), op,
              ": max mode does not support scaling the gradient by the frequency");
  if (psw.defined()) {
    EMBER_CHECK(psw.dtype() == weight.dtype(), op, ": expected per_sample_weights of the weight's dtype ",
                weight.dtype(), ", got ", psw.dtype());
    EMBER_CHECK(mode == 0, op,
                ": embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
                "mode='sum' (got mode='",
                mode == 1 ? "mean" : "max", "'). Please open a feature request on the Pytorch GitHub.");
    EMBER_CHECK(psw.numel() == n, op, ": expected per_sample_weights to have ", n, " elements, got ",
                shape_str(psw.sizes()));
  }
  int64_t pad = -1;   // none
  if (padding_idx) {  // a negative padding_idx counts from the end, as in PyTorch
    pad = *padding_idx;
    EMBER_CHECK(pad >= -num_rows && pad < num_rows, op, ": padding_idx must be within the number of embeddings, -",
                num_rows, " through ", num_rows - 1, ", but got ", pad);
    if (pad < 0) pad += num_rows;
  }
  // Bookkeeping: bag of each index, kept (non-padding) count of each bag.
  // Indices past the last bag's end (include_last_offset) belong to no bag.
  const int64_t used = std::min(starts.back(), n);
  std::vector<int64_t> offset2bag(static_cast<size_t>(used)), bag_size(static_cast<size_t>(bags), 0);
  for (int64_t b = 0; b < bags; ++b)
    for (int64_t i = starts[b]; i < std::min(starts[b + 1], n); ++i) {
      offset2bag[static_cast<size_t>(i)] = b;
      if (idx[static_cast<size_t>(i)] != pad) ++bag_size[static_cast<size_t>(b)];
    }
  auto long_tensor = [](const std::vector<int64_t>& v) {
    Tensor t = empty({static_cast<int64_t>(v.size())}, TensorOptions(kLong));
    std::copy(v.begin(), v.end(), t.data_ptr<int64_t>());
    return t;
  };
  const Tensor o2b = long_tensor(offset2bag), bsize = long_tensor(bag_size);
  if (mode != 2 && !autograd::needs_grad(weight, psw) && kernels::embedding_bag_fused_applies(weight)) {
    // Nothing to record: one pass over the bags (Note [Fused embedding_bag]).
    Tensor output = empty({bags, d}, weight.options());
    kernels::embedding_bag_fused(weight, idx.data(), starts.data(), bags, n, psw, pad, mode == 1, output);
    return {output, o2b, bsize, bsize};
  }
  const Tensor flat = indices_in.reshape({-1}).narrow(0, 0, used);
  Tensor rows = embedding(weight, flat, -1, scale_grad_by_freq);
  Tensor output, max_indices;
  if (mode == 2) {
    std::vector<Tensor> outs;
    std::vector<Tensor> argmax_rows;
    for (int64_t b = 0; b < bags; ++b) {
      std::vector<int64_t> pos;
      for (int64_t i = starts[b]; i < std::min(starts[b + 1], n); ++i)
        if (idx[static_cast<size_t>(i)] != pad) pos.push_back(i);
      if (pos.empty()) {
        outs.push_back(zeros({d}, weight.options()));
        argmax_rows.push_back(zeros({d}, TensorOptions(kLong)));
        continue;
      }
      const Tensor p = long_tensor(pos);
      Tensor sel = embedding(rows, p);  // a gather whose backward is itself differentiable
      outs.push_back(sel.amax({0}));
      autograd::BelowAutogradGuard no_grad;
      argmax_rows.push_back(ops::cast(flat, kLong).index_select(0, p).index_select(0, sel.argmax(0)));
    }
    output = bags > 0 ? stack(outs) : zeros({0, d}, weight.options());
    max_indices = bags > 0 ? stack(argmax_rows) : zeros({0, d}, TensorOptions(kLong));
  } else {
    if (psw.defined()) rows = rows * psw.reshape({-1}).narrow(0, 0, used).reshape({used, 1});
    if (pad >= 0) {
      Tensor keep;
      {
        autograd::BelowAutogradGuard no_grad;
        keep = (flat != pad).to(weight.dtype()).reshape({used, 1});
      }
      rows = rows * keep;
    }
    // Segment sum: the adjoint of a gather, differentiable in rows.
    output = embedding_dense_backward(rows, o2b, bags, -1, false);
    if (mode == 1) {
      Tensor denom;
      {
        autograd::BelowAutogradGuard no_grad;
        denom = bsize.clamp_min(1).to(weight.dtype()).reshape({bags, 1});
      }
      output = output / denom;
    }
    max_indices = bsize;
  }
  return {output, o2b, bsize, max_indices};
}

}  // namespace torch
