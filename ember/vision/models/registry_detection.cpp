// Registers the detection and segmentation builders and their weights enums
// in the model registry: "weights" names a member of the builder's enum and
// "weights_path" its file; "weights_backbone" a member of the backbone's
// enum ("IMAGENET1K_V1" or "ResNet50_Weights.IMAGENET1K_V1") and
// "weights_backbone_path" its file.
#include <map>

#include "ember/core/error.h"
#include "ember/vision/models/detection/builders.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/segmentation/builders.h"

namespace torch::vision::models::detail {

namespace {

namespace det = detection;
namespace seg = segmentation;

void add(const std::string& name, const std::string& module, const std::string& weights_enum, ModelBuilder builder) {
  register_model(ModelEntry{name, "torchvision.models." + module, std::move(builder), weights_enum});
}

// The model's enum is its builder's name in torchvision's spelling; the backbone's is given.
std::string enum_of(const std::string& name) {
  static const std::map<std::string, std::string> enums = {
      {"fasterrcnn_resnet50_fpn", "FasterRCNN_ResNet50_FPN_Weights"},
      {"fasterrcnn_resnet50_fpn_v2", "FasterRCNN_ResNet50_FPN_V2_Weights"},
      {"fasterrcnn_mobilenet_v3_large_fpn", "FasterRCNN_MobileNet_V3_Large_FPN_Weights"},
      {"fasterrcnn_mobilenet_v3_large_320_fpn", "FasterRCNN_MobileNet_V3_Large_320_FPN_Weights"},
      {"maskrcnn_resnet50_fpn", "MaskRCNN_ResNet50_FPN_Weights"},
      {"maskrcnn_resnet50_fpn_v2", "MaskRCNN_ResNet50_FPN_V2_Weights"},
      {"retinanet_resnet50_fpn", "RetinaNet_ResNet50_FPN_Weights"},
      {"retinanet_resnet50_fpn_v2", "RetinaNet_ResNet50_FPN_V2_Weights"},
      {"fcos_resnet50_fpn", "FCOS_ResNet50_FPN_Weights"},
      {"keypointrcnn_resnet50_fpn", "KeypointRCNN_ResNet50_FPN_Weights"},
      {"fcn_resnet50", "FCN_ResNet50_Weights"},
      {"fcn_resnet101", "FCN_ResNet101_Weights"},
      {"deeplabv3_resnet50", "DeepLabV3_ResNet50_Weights"},
      {"deeplabv3_resnet101", "DeepLabV3_ResNet101_Weights"},
      {"deeplabv3_mobilenet_v3_large", "DeepLabV3_MobileNet_V3_Large_Weights"},
      {"lraspp_mobilenet_v3_large", "LRASPP_MobileNet_V3_Large_Weights"},
  };
  return enums.at(name);
}

std::string backbone_enum_of(const std::string& name) {
  if (name.find("mobilenet_v3_large") != std::string::npos) return "MobileNet_V3_Large_Weights";
  return name.find("resnet101") != std::string::npos ? "ResNet101_Weights" : "ResNet50_Weights";
}

// The keywords every detector forwards to its model; rpn: the Faster R-CNN
// family's spelling (box_score_thresh, ...) and rpn_* keywords, else the
// one-stage detectors' (score_thresh, ..., topk_candidates).
det::DetectionKwargs read_detection_kwargs(KwargReader& r, bool rcnn) {
  det::DetectionKwargs k;
  if (auto v = r.get_int("min_size")) k.min_size(std::vector<int64_t>{*v});
  if (auto v = r.get_int("max_size")) k.max_size(*v);
  const std::string prefix = rcnn ? "box_" : "";
  if (auto v = r.get_double(prefix + "score_thresh")) k.score_thresh(*v);
  if (auto v = r.get_double(prefix + "nms_thresh")) k.nms_thresh(*v);
  if (auto v = r.get_int(prefix + "detections_per_img")) k.detections_per_img(*v);
  if (rcnn) {
    if (auto v = r.get_int("rpn_pre_nms_top_n_test")) k.rpn_pre_nms_top_n_test(*v);
    if (auto v = r.get_int("rpn_post_nms_top_n_test")) k.rpn_post_nms_top_n_test(*v);
    if (auto v = r.get_double("rpn_score_thresh")) k.rpn_score_thresh(*v);
  } else {
    if (auto v = r.get_int("topk_candidates")) k.topk_candidates(*v);
  }
  return k;
}

struct Common {
  std::optional<Weights> weights;
  std::optional<int64_t> num_classes;
  std::optional<Weights> weights_backbone;
};

Common read_common(KwargReader& r, const std::string& name) {
  Common c;
  c.weights = r.get_weights(enum_of(name));
  c.num_classes = r.get_int("num_classes");
  const std::optional<std::string> backbone = r.get_string("weights_backbone");
  const std::optional<std::string> backbone_path = r.get_string("weights_backbone_path");
  EMBER_CHECK(backbone || !backbone_path, name, ": weights_backbone_path given without weights_backbone");
  if (backbone) {
    const std::string full =
        backbone->find('.') == std::string::npos ? backbone_enum_of(name) + "." + *backbone : *backbone;
    const Weights& w = get_weight(full);
    c.weights_backbone = backbone_path ? w.with_path(*backbone_path) : w;
  }
  return c;
}

template <typename Fn>
void add_detector(const std::string& name, const std::string& module, bool rcnn, Fn fn) {
  add(name, "detection." + module, enum_of(name), [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    const Common c = read_common(r, name);
    const std::optional<int64_t> trainable = r.get_int("trainable_backbone_layers");
    const det::DetectionKwargs k = read_detection_kwargs(r, rcnn);
    r.finish();
    return nn::AnyModule(fn(c.weights, true, c.num_classes, c.weights_backbone, trainable, k));
  });
}

template <typename Fn>
void add_segmenter(const std::string& name, const std::string& module, Fn fn) {
  add(name, "segmentation." + module, enum_of(name), [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    const Common c = read_common(r, name);
    const std::optional<bool> aux_loss = r.get_bool("aux_loss");
    r.finish();
    return nn::AnyModule(fn(c.weights, true, c.num_classes, aux_loss, c.weights_backbone));
  });
}

}  // namespace

void register_detection_models() {
  for (const WeightsEnum* e : detection_weights_enums()) register_weights_enum(*e);
  for (const WeightsEnum* e : segmentation_weights_enums()) register_weights_enum(*e);
  add_detector("fasterrcnn_resnet50_fpn", "faster_rcnn", true, &det::fasterrcnn_resnet50_fpn);
  add_detector("fasterrcnn_resnet50_fpn_v2", "faster_rcnn", true, &det::fasterrcnn_resnet50_fpn_v2);
  add_detector("fasterrcnn_mobilenet_v3_large_fpn", "faster_rcnn", true, &det::fasterrcnn_mobilenet_v3_large_fpn);
  // The weights overload (the other takes a checkpoint path).
  using FasterRCNNFn =
      det::FasterRCNN (*)(const std::optional<Weights>&, bool, std::optional<int64_t>, std::optional<Weights>,
                          std::optional<int64_t>, const det::FasterRCNNKwargs&);
  add_detector("fasterrcnn_mobilenet_v3_large_320_fpn", "faster_rcnn", true,
               static_cast<FasterRCNNFn>(&det::fasterrcnn_mobilenet_v3_large_320_fpn));
  add_detector("maskrcnn_resnet50_fpn", "mask_rcnn", true, &det::maskrcnn_resnet50_fpn);
  add_detector("maskrcnn_resnet50_fpn_v2", "mask_rcnn", true, &det::maskrcnn_resnet50_fpn_v2);
  add_detector("retinanet_resnet50_fpn", "retinanet", false, &det::retinanet_resnet50_fpn);
  add_detector("retinanet_resnet50_fpn_v2", "retinanet", false, &det::retinanet_resnet50_fpn_v2);
  add_detector("fcos_resnet50_fpn", "fcos", false, &det::fcos_resnet50_fpn);
  const std::string kp = "keypointrcnn_resnet50_fpn";
  add(kp, "detection.keypoint_rcnn", enum_of(kp), [=](const ModelKwargs& kw) {
    KwargReader r(kp, kw);
    const Common c = read_common(r, kp);
    const std::optional<int64_t> num_keypoints = r.get_int("num_keypoints");
    const std::optional<int64_t> trainable = r.get_int("trainable_backbone_layers");
    const det::DetectionKwargs k = read_detection_kwargs(r, true);
    r.finish();
    return nn::AnyModule(det::keypointrcnn_resnet50_fpn(c.weights, true, c.num_classes, num_keypoints,
                                                        c.weights_backbone, trainable, k));
  });
  add_segmenter("fcn_resnet50", "fcn", &seg::fcn_resnet50);
  add_segmenter("fcn_resnet101", "fcn", &seg::fcn_resnet101);
  add_segmenter("deeplabv3_resnet50", "deeplabv3", &seg::deeplabv3_resnet50);
  add_segmenter("deeplabv3_resnet101", "deeplabv3", &seg::deeplabv3_resnet101);
  add_segmenter("deeplabv3_mobilenet_v3_large", "deeplabv3", &seg::deeplabv3_mobilenet_v3_large);
  const std::string lr = "lraspp_mobilenet_v3_large";
  add(lr, "segmentation.lraspp", enum_of(lr), [=](const ModelKwargs& kw) {
    KwargReader r(lr, kw);
    const Common c = read_common(r, lr);
    r.finish();
    return nn::AnyModule(seg::lraspp_mobilenet_v3_large(c.weights, true, c.num_classes, c.weights_backbone));
  });
}

}  // namespace torch::vision::models::detail
