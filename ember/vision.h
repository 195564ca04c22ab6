#pragma once
// ember::vision — torchvision in C++ (libember_vision, target Ember::vision;
// DOMAIN_API.md gives the spelling rule: torchvision.X.f is ember::vision::X::f).
#include "ember/vision/datasets.h"
#include "ember/vision/io.h"
#include "ember/vision/models.h"
#include "ember/vision/ops.h"
#include "ember/vision/transforms.h"
#include "ember/vision/tv_tensors.h"
#include "ember/vision/utils.h"
