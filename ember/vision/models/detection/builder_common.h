#pragma once
// What every detection builder shares (torchvision's builder preamble):
// the num_classes resolution, the backbone norm layer, the checkpoint load
// and forwarding the **kwargs. Internal to the builders.
#include <cstdint>
#include <optional>
#include <string>

#include "ember/core/error.h"
#include "ember/nn/module.h"
#include "ember/vision/models/detection/builders.h"
#include "ember/vision/models/detection/weights_enums.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models::detection::builder_detail {

// Python's <Model>_Weights.verify: weights of another enum raise naming the
// builder, and so do weights that name no file (nothing is downloaded).
void verify_weights(const char* builder, const std::optional<Weights>& weights, const char* enum_name);

// With weights the model has the weights' categories (COCO's 91; 2 for the
// keypoint model) and a different num_classes raises, as torchvision's
// _ovewrite_value_param; without weights, num_classes or default_classes.
int64_t resolve_num_classes(const char* builder, const std::optional<Weights>& weights,
                            std::optional<int64_t> num_classes, int64_t default_classes);

// FrozenBatchNorm2d when a checkpoint is loaded (weights or weights_backbone), else BatchNorm2d.
ops::NormLayer backbone_norm_layer(bool is_trained);

// Loads the weights' state_dict from the file they point at (strict).
void load_checkpoint(nn::Module& model, const Weights& weights, const char* builder);

template <typename Options>
Options apply_kwargs(Options options, const DetectionKwargs& kwargs) {
  if (kwargs.min_size()) options.min_size(*kwargs.min_size());
  if (kwargs.max_size()) options.max_size(*kwargs.max_size());
  if constexpr (requires { options.box_score_thresh(0.0); }) {
    if (kwargs.score_thresh()) options.box_score_thresh(*kwargs.score_thresh());
    if (kwargs.nms_thresh()) options.box_nms_thresh(*kwargs.nms_thresh());
    if (kwargs.detections_per_img()) options.box_detections_per_img(*kwargs.detections_per_img());
    if (kwargs.rpn_pre_nms_top_n_test()) options.rpn_pre_nms_top_n_test(*kwargs.rpn_pre_nms_top_n_test());
    if (kwargs.rpn_post_nms_top_n_test()) options.rpn_post_nms_top_n_test(*kwargs.rpn_post_nms_top_n_test());
    if (kwargs.rpn_score_thresh()) options.rpn_score_thresh(*kwargs.rpn_score_thresh());
    EMBER_CHECK(!kwargs.topk_candidates(), "FasterRCNN: unexpected keyword argument 'topk_candidates'");
  } else {
    if (kwargs.topk_candidates()) options.topk_candidates(*kwargs.topk_candidates());
    EMBER_CHECK(!kwargs.rpn_pre_nms_top_n_test() && !kwargs.rpn_post_nms_top_n_test() && !kwargs.rpn_score_thresh(),
                "detection builder: the rpn_* keyword arguments are Faster R-CNN's only");
    if (kwargs.score_thresh()) options.score_thresh(*kwargs.score_thresh());
    if (kwargs.nms_thresh()) options.nms_thresh(*kwargs.nms_thresh());
    if (kwargs.detections_per_img()) options.detections_per_img(*kwargs.detections_per_img());
  }
  return options;
}

}  // namespace torch::vision::models::detection::builder_detail
