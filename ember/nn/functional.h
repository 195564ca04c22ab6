#pragma once
// nn::functional: the stateless forms of the nn layers (`namespace F = torch::nn::functional;`).
#include "ember/nn/functional/activation.h"
#include "ember/nn/functional/linear.h"
#include "ember/nn/functional/dropout.h"
#include "ember/nn/functional/pooling.h"
#include "ember/nn/functional/loss.h"
#include "ember/nn/functional/normalization.h"
#include "ember/nn/functional/activation_extra.h"
#include "ember/nn/functional/embedding.h"
