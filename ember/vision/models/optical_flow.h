#pragma once
// torchvision.models.optical_flow: RAFT and its building blocks.
#include "ember/vision/models/optical_flow/_utils.h"
#include "ember/vision/models/optical_flow/raft.h"
