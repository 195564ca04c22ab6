#pragma once
// Every nn *Options struct.
#include "ember/nn/options/activation.h"
#include "ember/nn/options/linear.h"
#include "ember/nn/options/conv.h"
#include "ember/nn/options/dropout.h"
#include "ember/nn/options/pooling.h"
#include "ember/nn/options/batchnorm.h"
#include "ember/nn/options/distance.h"
#include "ember/nn/options/instancenorm.h"
#include "ember/nn/options/local_response_norm.h"
#include "ember/nn/options/padding.h"
#include "ember/nn/options/loss.h"
