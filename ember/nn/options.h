#pragma once
// Every nn *Options struct.
#include "ember/nn/options/activation.h"
#include "ember/nn/options/linear.h"
#include "ember/nn/options/conv.h"
#include "ember/nn/options/dropout.h"
#include "ember/nn/options/pooling.h"
#include "ember/nn/options/loss.h"
#include "ember/nn/options/normalization.h"
#include "ember/nn/options/activation_extra.h"
#include "ember/nn/options/embedding.h"
#include "ember/nn/options/rnn.h"
