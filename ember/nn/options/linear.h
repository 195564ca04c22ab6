#pragma once
// Options of the linear-family modules (Linear, Flatten, Unflatten), as
// torch::nn::*Options.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ember/core/arg.h"

namespace torch::nn {

// LinearOptions(3, 4).bias(false)
struct LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features) : in_features_(in_features), out_features_(out_features) {}
  TORCH_ARG(int64_t, in_features);
  TORCH_ARG(int64_t, out_features);
  TORCH_ARG(bool, bias) = true;
};

// BilinearOptions(3, 4, 5).bias(false)
struct BilinearOptions {
  BilinearOptions(int64_t in1_features, int64_t in2_features, int64_t out_features)
      : in1_features_(in1_features), in2_features_(in2_features), out_features_(out_features) {}
  TORCH_ARG(int64_t, in1_features);
  TORCH_ARG(int64_t, in2_features);
  TORCH_ARG(int64_t, out_features);
  TORCH_ARG(bool, bias) = true;
};

// FlattenOptions().start_dim(2).end_dim(3)
struct FlattenOptions {
  TORCH_ARG(int64_t, start_dim) = 1;
  TORCH_ARG(int64_t, end_dim) = -1;
};

// UnflattenOptions(0, {2, 2}) splits dim 0 into 2 x 2; UnflattenOptions("B",
// {{"B1", 2}, {"B2", 2}}) is the named-tensor form (Ember has no named tensors,
// so it is accepted for spelling but rejected by the module).
struct UnflattenOptions {
  using namedshape_t = std::vector<std::pair<std::string, int64_t>>;
  UnflattenOptions(int64_t dim, std::vector<int64_t> sizes) : dim_(dim), sizes_(std::move(sizes)) {}
  UnflattenOptions(const char* dimname, namedshape_t namedshape)
      : dimname_(dimname), namedshape_(std::move(namedshape)) {}
  UnflattenOptions(std::string dimname, namedshape_t namedshape)
      : dimname_(std::move(dimname)), namedshape_(std::move(namedshape)) {}
  TORCH_ARG(int64_t, dim) = 0;
  TORCH_ARG(std::string, dimname);
  TORCH_ARG(std::vector<int64_t>, sizes);
  TORCH_ARG(namedshape_t, namedshape);
};

}  // namespace torch::nn
