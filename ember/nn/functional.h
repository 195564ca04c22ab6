#pragma once
// nn::functional: the stateless forms of the nn layers (`namespace F = torch::nn::functional;`).
#include "ember/nn/functional/activation.h"
#include "ember/nn/functional/linear.h"
#include "ember/nn/functional/dropout.h"
#include "ember/nn/functional/pooling.h"
#include "ember/nn/functional/batchnorm.h"
#include "ember/nn/functional/distance.h"
#include "ember/nn/functional/instancenorm.h"
#include "ember/nn/functional/local_response_norm.h"
#include "ember/nn/functional/padding.h"
#include "ember/nn/functional/loss.h"
