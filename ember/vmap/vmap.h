#pragma once
// vmap: vectorizing map. vmap(f) is a function that runs f once over a whole
// batch, as if f were applied to each slice along the batch dimension and
// the results stacked, but with each op inside f running once on the batch
// (its batching rule, ember/vmap/batching_rules.h). As torch.vmap:
//   auto batched_dot = ember::vmap([](const variable_list& a) {
//     return variable_list{ember::dot(a[0], a[1])};
//   });
//   batched_dot({x, y});  // x, y: [B, n] -> [B]
// in_dims names each input's batch dim (nullopt: the input is shared by all
// samples); out_dims where each output's batch dim goes. vmaps nest
// (vmap(vmap(f)) maps over two dims); gradients flow through vmap to its
// inputs. An op without a batching rule raises an ember::Error naming it.
// A batched tensor is valid only inside the vmap call that made it.
// `randomness` is torch.func.vmap's: random ops inside f raise (Error, the
// default), draw per sample (Different) or draw once for all (Same).
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/vmap/randomness.h"

namespace torch {

using VmapFunction = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

// in_dims: empty = dim 0 of every input; otherwise one entry per input.
// out_dims: empty = dim 0 of every output; one entry = for every output;
// otherwise one entry per output.
VmapFunction vmap(VmapFunction func, std::vector<std::optional<int64_t>> in_dims = {},
                  std::vector<int64_t> out_dims = {}, Randomness randomness = Randomness::Error);

// The one-tensor form.
std::function<Tensor(const Tensor&)> vmap(std::function<Tensor(const Tensor&)> func, std::optional<int64_t> in_dim = 0,
                                          int64_t out_dim = 0, Randomness randomness = Randomness::Error);

}  // namespace torch
