#include "ember/vision/models/segmentation/fcn.h"

#include "ember/core/error.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/dropout.h"

namespace torch::vision::models::segmentation::fcn {

FCNHeadImpl::FCNHeadImpl(int64_t in_channels, int64_t channels) {
  const int64_t inter_channels = in_channels / 4;
  EMBER_CHECK(inter_channels > 0 && channels > 0, "FCNHead: bad in_channels=", in_channels, " or channels=", channels);
  push_back(nn::Conv2d(nn::Conv2dOptions(in_channels, inter_channels, 3).padding(1).bias(false)));
  push_back(nn::BatchNorm2d(inter_channels));
  push_back(nn::ReLU());
  push_back(nn::Dropout(0.1));
  push_back(nn::Conv2d(nn::Conv2dOptions(inter_channels, channels, 1)));
}

}  // namespace torch::vision::models::segmentation::fcn
