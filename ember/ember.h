#pragma once
// Umbrella header: the whole public API of Ember.
#include "ember/core/allocator.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/copy.h"
#include "ember/ops/factory.h"
#include "ember/ops/random.h"
#include "ember/ops/view.h"
// ops-family headers (one per family; added as families land)
#include "ember/ops/all_ops.h"
