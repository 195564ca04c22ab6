#pragma once
// Every nn *Options struct.
#include "ember/nn/options/activation.h"
#include "ember/nn/options/linear.h"
#include "ember/nn/options/conv.h"
#include "ember/nn/options/dropout.h"
#include "ember/nn/options/pooling.h"
#include "ember/nn/options/layer_norm.h"
#include "ember/nn/options/transformer.h"
#include "ember/nn/options/transformer_coder.h"
#include "ember/nn/options/pixelshuffle.h"
#include "ember/nn/options/upsampling.h"
