#pragma once
// Collation: a transform that turns a vector of examples into one batch.
#include <vector>

#include "ember/data/transforms/base.h"
#include "ember/data/transforms/lambda.h"

namespace torch::data::transforms {

// Derive from this to write a collation by hand.
template <typename BatchType, typename T = std::vector<BatchType>>
using Collation = BatchTransform<T, BatchType>;

// A collation from a function.
template <typename BatchType, typename T = std::vector<BatchType>>
using Collate = BatchLambda<T, BatchType>;

}  // namespace torch::data::transforms
