#pragma once
// ember::vision::datasets — torchvision.datasets as torch::data datasets
// (usable with ember::data::make_data_loader and its workers).
#include "ember/vision/datasets/cifar.h"
#include "ember/vision/datasets/coco.h"
#include "ember/vision/datasets/folder.h"
#include "ember/vision/datasets/mnist.h"
#include "ember/vision/datasets/voc.h"
