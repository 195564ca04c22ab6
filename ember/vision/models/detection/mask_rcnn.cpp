#include "ember/vision/models/detection/mask_rcnn.h"

#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/conv.h"

namespace torch::vision::models::detection::mask_rcnn {

namespace {

namespace vops = ::torch::vision::ops;

// The model's own checks, before FasterRCNN's constructor sees the options.
const FasterRCNNOptions& checked(const MaskRCNNOptions& o) {
  if (o.faster_rcnn().num_classes())
    EMBER_CHECK(o.mask_predictor().is_empty(), "MaskRCNN: num_classes should be None when mask_predictor is specified");
  return o.faster_rcnn();
}

}  // namespace

MaskRCNNHeadsImpl::MaskRCNNHeadsImpl(int64_t in_channels, std::vector<int64_t> layers, int64_t dilation,
                                     std::optional<ops::NormLayer> norm_layer) {
  EMBER_CHECK(in_channels > 0 && dilation > 0, "MaskRCNNHeads: bad in_channels=", in_channels,
              " or dilation=", dilation);
  int64_t next = in_channels;
  for (const int64_t features : layers) {
    push_back(vops::Conv2dNormActivation(vops::Conv2dNormActivationOptions(next, features)
                                             .kernel_size(3)
                                             .stride(1)
                                             .padding(ExpandingArray<2>(dilation))
                                             .dilation(dilation)
                                             .norm_layer(norm_layer)));
    next = features;
  }
  for (const auto& m : modules(/*include_self=*/false))
    if (auto* c = dynamic_cast<nn::Conv2dImpl*>(m.get())) {
      nn::init::kaiming_normal_(c->weight, 0.0, kFanOut, kReLU);
      if (c->bias.defined()) nn::init::zeros_(c->bias);
    }
}

MaskRCNNPredictorImpl::MaskRCNNPredictorImpl(int64_t in_channels, int64_t dim_reduced, int64_t num_classes) {
  EMBER_CHECK(in_channels > 0 && dim_reduced > 0 && num_classes > 0, "MaskRCNNPredictor: bad in_channels=", in_channels,
              ", dim_reduced=", dim_reduced, " or num_classes=", num_classes);
  push_back("conv5_mask",
            nn::ConvTranspose2d(nn::ConvTranspose2dOptions(in_channels, dim_reduced, 2).stride(2).padding(0)));
  push_back("relu", nn::ReLU(nn::ReLUOptions(true)));
  push_back("mask_fcn_logits", nn::Conv2d(nn::Conv2dOptions(dim_reduced, num_classes, 1).stride(1).padding(0)));
  for (const auto& item : named_parameters())
    if (item.key().find("weight") != std::string::npos) {
      Tensor w = item.value();
      nn::init::kaiming_normal_(w, 0.0, kFanOut, kReLU);
    }
}

MaskRCNNImpl::MaskRCNNImpl(const MaskRCNNOptions& options_)
    : FasterRCNNImpl(checked(options_)), mask_options(options_) {
  model_name_ = "MaskRCNN";
  const int64_t out_channels = options.backbone().out_channels();
  ops::MultiScaleRoIAlign pool = mask_options.mask_roi_pool();
  if (pool.is_empty()) pool = ops::MultiScaleRoIAlign(ops::MultiScaleRoIAlignOptions({"0", "1", "2", "3"}, 14, 2));
  nn::AnyModule head = mask_options.mask_head();
  if (head.is_empty()) head = nn::AnyModule(MaskRCNNHeads(out_channels, std::vector<int64_t>{256, 256, 256, 256}, 1));
  nn::AnyModule predictor = mask_options.mask_predictor();
  if (predictor.is_empty()) {
    EMBER_CHECK(options.num_classes().has_value(),
                "MaskRCNN: num_classes should not be None when mask_predictor is not specified");
    predictor = nn::AnyModule(MaskRCNNPredictor(256, 256, *options.num_classes()));
  }
  roi_heads->set_mask_branch(pool, head, predictor);
}

}  // namespace torch::vision::models::detection::mask_rcnn
