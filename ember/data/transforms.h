#pragma once
// All data transforms (torch/data/transforms.h).
#include "ember/data/transforms/base.h"
#include "ember/data/transforms/collate.h"
#include "ember/data/transforms/lambda.h"
#include "ember/data/transforms/stack.h"
#include "ember/data/transforms/tensor.h"
