#include "ember/vmap/vmap.h"

#include <sstream>
#include <string>
#include <utility>

#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/vmap/batched_tensor.h"
#include "ember/vmap/level_sizes.h"

namespace torch {

namespace {

std::string dims_str(const std::vector<std::optional<int64_t>>& in_dims) {
  std::ostringstream s;
  s << "(";
  for (size_t i = 0; i < in_dims.size(); ++i) {
    if (i) s << ", ";
    if (in_dims[i])
      s << *in_dims[i];
    else
      s << "None";
  }
  s << (in_dims.size() == 1 ? ",)" : ")");
  return s.str();
}

// A result of f, moved out of the batched world: its batch (or, when it does
// not depend on the batch, a broadcast of it) at `out_dim`.
Tensor unwrap_output(const Tensor& out, int64_t level, int64_t batch, int64_t out_dim, size_t index) {
  if (!out.defined()) return out;
  const batching::BatchedMeta* m = batching::batched_meta(out);
  EMBER_CHECK(m == nullptr || m->level <= level, "vmap: output ", index,
              " is batched by a vmap that has already returned (a batched tensor escaped its vmap)");
  const int64_t rank = out.dim() + 1;
  EMBER_CHECK(out_dim >= -rank && out_dim < rank, "vmap: out_dims=", out_dim, " for output ", index,
              ", but the output has ", out.dim(), " dims (per sample), so out_dims must satisfy ", -rank,
              " <= out_dims < ", rank);
  const int64_t d = out_dim < 0 ? out_dim + rank : out_dim;
  if (m != nullptr && m->level == level) return m->value.movedim(m->bdim, d);
  // Not batched at this level: every sample has the same value.
  DimVector shape(out.sizes());
  shape.insert(d, batch);
  return out.unsqueeze(d).expand(shape);
}

// level_sizes.h: t_level_sizes[l - 1] is level l's batch size while that
// vmap runs on this thread (set and restored around the call of f), and
// t_level_randomness[l - 1] its randomness (randomness.h).
thread_local std::vector<int64_t> t_level_sizes;
thread_local std::vector<Randomness> t_level_randomness;

class LevelSizeScope {
 public:
  LevelSizeScope(int64_t level, int64_t batch, Randomness randomness) : level_(level) {
    if (static_cast<int64_t>(t_level_sizes.size()) < level) {
      t_level_sizes.resize(level, -1);
      t_level_randomness.resize(level, Randomness::Error);
    }
    prev_ = t_level_sizes[level - 1];
    prev_randomness_ = t_level_randomness[level - 1];
    t_level_sizes[level - 1] = batch;
    t_level_randomness[level - 1] = randomness;
  }
  ~LevelSizeScope() {
    t_level_sizes[level_ - 1] = prev_;
    t_level_randomness[level_ - 1] = prev_randomness_;
  }
  LevelSizeScope(const LevelSizeScope&) = delete;
  LevelSizeScope& operator=(const LevelSizeScope&) = delete;

 private:
  int64_t level_;
  int64_t prev_ = -1;
  Randomness prev_randomness_ = Randomness::Error;
};

}  // namespace

namespace batching {
int64_t level_batch_size(int64_t level) {
  EMBER_CHECK(level >= 1 && level <= current_level() && level <= static_cast<int64_t>(t_level_sizes.size()) &&
                  t_level_sizes[level - 1] >= 0,
              "vmap: no vmap is running at level ", level, " on this thread (current level ", current_level(), ")");
  return t_level_sizes[level - 1];
}
Randomness level_randomness(int64_t level) {
  level_batch_size(level);  // checks that the level is running here
  return t_level_randomness[level - 1];
}
}  // namespace batching

Randomness parse_randomness(std::string_view name) {
  if (name == "error") return Randomness::Error;
  if (name == "different") return Randomness::Different;
  if (name == "same") return Randomness::Same;
  EMBER_ERROR("Only allowed values for randomness are 'error', 'different', or 'same'. Got ", std::string(name));
  return Randomness::Error;
}

const char* randomness_name(Randomness r) {
  switch (r) {
    case Randomness::Error:
      return "error";
    case Randomness::Different:
      return "different";
    case Randomness::Same:
      return "same";
  }
  return "error";
}

VmapFunction vmap(VmapFunction func, std::vector<std::optional<int64_t>> in_dims, std::vector<int64_t> out_dims,
                  Randomness randomness) {
  return [func = std::move(func), in_dims = std::move(in_dims), out_dims = std::move(out_dims),
          randomness](const std::vector<Tensor>& inputs) -> std::vector<Tensor> {
    std::vector<std::optional<int64_t>> dims = in_dims;
    if (dims.empty()) dims.assign(inputs.size(), 0);
    EMBER_CHECK(dims.size() == inputs.size(), "vmap(f, in_dims=", dims_str(dims),
                ", ...)(<inputs>): in_dims is not compatible with the structure of `inputs`: in_dims has ", dims.size(),
                " elements, but inputs has ", inputs.size());
    int64_t batch = -1;
    std::vector<int64_t> sizes;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!dims[i]) continue;
      EMBER_CHECK(inputs[i].defined(), "vmap(f, in_dims=", dims_str(dims), ", ...)(<inputs>): input ", i,
                  " is an undefined tensor but in_dims gives it a batch dim");
      const int64_t rank = inputs[i].dim();
      const int64_t d = *dims[i];
      EMBER_CHECK(d >= -rank && d < rank, "vmap(f, in_dims=", dims_str(dims), ", ...)(<inputs>): Got in_dim=", d,
                  " for input ", i, ", but input ", i, " is a tensor of dimensionality ", rank,
                  " so expected in_dim to satisfy -", rank, " <= in_dim < ", rank, ".");
      const int64_t b = inputs[i].size(d);
      sizes.push_back(b);
      if (batch < 0) batch = b;
    }
    EMBER_CHECK(batch >= 0, "vmap(f, in_dims=", dims_str(dims),
                ", ...)(<inputs>): at least one input must be batched (in_dims is all None)");
    for (int64_t b : sizes)
      EMBER_CHECK(b == batch, "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes ",
                  shape_str(sizes), " for the mapped dimension");

    std::vector<Tensor> outputs;
    int64_t level = 0;
    {
      batching::LevelScope scope;
      level = scope.level();
      LevelSizeScope size_scope(level, batch, randomness);
      std::vector<Tensor> args;
      args.reserve(inputs.size());
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (!dims[i]) {
          args.push_back(inputs[i]);
          continue;
        }
        const int64_t d = *dims[i] < 0 ? *dims[i] + inputs[i].dim() : *dims[i];
        args.push_back(batching::make_batched(inputs[i], d, level));
      }
      outputs = func(args);
      std::vector<int64_t> od = out_dims;
      if (od.empty()) od.assign(outputs.size(), 0);
      if (od.size() == 1) od.assign(outputs.size(), od[0]);
      EMBER_CHECK(od.size() == outputs.size(), "vmap(f, ..., out_dims=", shape_str(out_dims),
                  ")(<inputs>): out_dims is not compatible with the structure of `outputs`: out_dims has ", od.size(),
                  " elements, but f returned ", outputs.size(), " outputs");
      // Unwrapping runs ops on tensors batched at enclosing levels, so it
      // happens while this level's hooks are still on.
      for (size_t i = 0; i < outputs.size(); ++i) outputs[i] = unwrap_output(outputs[i], level, batch, od[i], i);
    }
    return outputs;
  };
}

std::function<Tensor(const Tensor&)> vmap(std::function<Tensor(const Tensor&)> func, std::optional<int64_t> in_dim,
                                          int64_t out_dim, Randomness randomness) {
  VmapFunction f =
      vmap([func = std::move(func)](const std::vector<Tensor>& a) { return std::vector<Tensor>{func(a[0])}; }, {in_dim},
           {out_dim}, randomness);
  return [f = std::move(f)](const Tensor& x) { return f({x})[0]; };
}

}  // namespace torch
