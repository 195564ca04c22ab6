#pragma once
// Every nn *Options struct.
#include "ember/nn/options/activation.h"
#include "ember/nn/options/linear.h"
