#pragma once
// torch.utils.benchmark for C++: Timer, Measurement, Compare.
#include "ember/utils/benchmark/compare.h"
#include "ember/utils/benchmark/measurement.h"
#include "ember/utils/benchmark/timer.h"
