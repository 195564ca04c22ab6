#pragma once
// Umbrella header of the profiler (`torch::profiler` through ember/torch.h).
#include "ember/profiler/events.h"
#include "ember/profiler/profile.h"
