#pragma once
// nn::functional: the stateless forms of the nn layers (`namespace F = torch::nn::functional;`).
#include "ember/nn/functional/activation.h"
#include "ember/nn/functional/linear.h"
#include "ember/nn/functional/dropout.h"
#include "ember/nn/functional/pooling.h"
#include "ember/nn/functional/multihead_attention.h"
#include "ember/nn/functional/pixelshuffle.h"
#include "ember/nn/functional/upsampling.h"
