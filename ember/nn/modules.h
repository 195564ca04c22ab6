#pragma once
// Every nn module (layers and containers).
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/functional.h"
#include "ember/nn/modules/container/moduledict.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/pooling.h"
#include "ember/nn/modules/rnn.h"
