#pragma once
// All samplers (torch/data/samplers.h).
#include "ember/data/samplers/base.h"
#include "ember/data/samplers/distributed.h"
#include "ember/data/samplers/random.h"
#include "ember/data/samplers/sequential.h"
#include "ember/data/samplers/serialize.h"
#include "ember/data/samplers/stream.h"
