#pragma once
// One include line per op family header.
#include "ember/ops/binary.h"
#include "ember/ops/indexing.h"
#include "ember/ops/matmul.h"
#include "ember/ops/operators.h"
#include "ember/ops/reduce.h"
#include "ember/ops/shape_ops.h"
#include "ember/ops/sort.h"
#include "ember/ops/type_promotion.h"
#include "ember/ops/unary.h"
#include "ember/ops/softmax.h"
#include "ember/ops/loss.h"
