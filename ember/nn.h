#pragma once
// Umbrella header of ember::nn (torch::nn): modules, containers, options,
// functional forms, init and utils.
#include "ember/core/expanding_array.h"
#include "ember/core/ordered_dict.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/enum.h"
#include "ember/nn/functional.h"
#include "ember/nn/init.h"
#include "ember/nn/module.h"
#include "ember/nn/modules.h"
#include "ember/nn/options.h"
#include "ember/nn/pimpl.h"
#include "ember/nn/serialize.h"
#include "ember/nn/utils.h"
