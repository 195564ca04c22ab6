#include "ember/vision/models/detection/keypoint_rcnn.h"

#include "ember/core/error.h"
#include "ember/nn/functional/upsampling.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/activation.h"

namespace torch::vision::models::detection::keypoint_rcnn {

namespace {

const FasterRCNNOptions& checked(const KeypointRCNNOptions& o) {
  EMBER_CHECK(!o.num_keypoints() || o.keypoint_predictor().is_empty(),
              "KeypointRCNN: num_keypoints should be None when keypoint_predictor is specified");
  return o.faster_rcnn();
}

}  // namespace

KeypointRCNNHeadsImpl::KeypointRCNNHeadsImpl(int64_t in_channels, std::vector<int64_t> layers) {
  EMBER_CHECK(in_channels > 0, "KeypointRCNNHeads: in_channels=", in_channels, " is not positive");
  int64_t next = in_channels;
  for (const int64_t out : layers) {
    nn::Conv2d c(nn::Conv2dOptions(next, out, 3).stride(1).padding(1));
    nn::init::kaiming_normal_(c->weight, 0.0, kFanOut, kReLU);
    nn::init::constant_(c->bias, 0);
    push_back(c);
    push_back(nn::ReLU(nn::ReLUOptions(true)));
    next = out;
  }
}

KeypointRCNNPredictorImpl::KeypointRCNNPredictorImpl(int64_t in_channels, int64_t num_keypoints)
    : in_channels(in_channels), num_keypoints(num_keypoints), out_channels(num_keypoints) {
  reset();
}

void KeypointRCNNPredictorImpl::reset() {
  EMBER_CHECK(in_channels > 0 && num_keypoints > 0, "KeypointRCNNPredictor: bad in_channels=", in_channels,
              " or num_keypoints=", num_keypoints);
  constexpr int64_t deconv_kernel = 4;
  kps_score_lowres = register_module(
      "kps_score_lowres", nn::ConvTranspose2d(nn::ConvTranspose2dOptions(in_channels, num_keypoints, deconv_kernel)
                                                  .stride(2)
                                                  .padding(deconv_kernel / 2 - 1)));
  nn::init::kaiming_normal_(kps_score_lowres->weight, 0.0, kFanOut, kReLU);
  nn::init::constant_(kps_score_lowres->bias, 0);
}

Tensor KeypointRCNNPredictorImpl::forward(const Tensor& x) {
  namespace F = nn::functional;
  const auto scale = static_cast<double>(up_scale);
  return F::interpolate(kps_score_lowres(x), F::InterpolateFuncOptions()
                                                 .scale_factor(std::vector<double>{scale, scale})
                                                 .mode(enumtype::kBilinear())
                                                 .align_corners(false)
                                                 .recompute_scale_factor(false));
}

KeypointRCNNImpl::KeypointRCNNImpl(const KeypointRCNNOptions& options_)
    : FasterRCNNImpl(checked(options_)), keypoint_options(options_) {
  model_name_ = "KeypointRCNN";
  const int64_t out_channels = options.backbone().out_channels();
  ops::MultiScaleRoIAlign pool = keypoint_options.keypoint_roi_pool();
  if (pool.is_empty()) pool = ops::MultiScaleRoIAlign(ops::MultiScaleRoIAlignOptions({"0", "1", "2", "3"}, 14, 2));
  nn::AnyModule head = keypoint_options.keypoint_head();
  if (head.is_empty()) head = nn::AnyModule(KeypointRCNNHeads(out_channels, std::vector<int64_t>(8, 512)));
  nn::AnyModule predictor = keypoint_options.keypoint_predictor();
  if (predictor.is_empty())
    predictor = nn::AnyModule(KeypointRCNNPredictor(512, keypoint_options.num_keypoints().value_or(17)));
  roi_heads->set_keypoint_branch(pool, head, predictor);
}

}  // namespace torch::vision::models::detection::keypoint_rcnn
