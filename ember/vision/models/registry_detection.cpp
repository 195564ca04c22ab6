// Registers the detection and segmentation builders in the model registry.
// Their checkpoints are given as a path (the COCO/VOC weights enums are not
// built yet: docs/vision_models_detection.md), so their keyword is
// "weights_path"; "weights" and "weights_backbone" are not accepted.
#include "ember/vision/models/detection/builders.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/segmentation/builders.h"

namespace torch::vision::models::detail {

namespace {

namespace det = detection;
namespace seg = segmentation;

void add(const std::string& name, const std::string& module, ModelBuilder builder) {
  register_model(ModelEntry{name, "torchvision.models." + module, std::move(builder), ""});
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
  std::optional<std::string> path;
  bool progress;
  std::optional<int64_t> num_classes;
};

Common read_common(KwargReader& r) {
  Common c;
  c.path = r.get_string("weights_path");
  c.progress = r.get_bool("progress").value_or(true);
  c.num_classes = r.get_int("num_classes");
  return c;
}

template <typename Fn>
void add_detector(const std::string& name, const std::string& module, bool rcnn, Fn fn) {
  add(name, "detection." + module, [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    const Common c = read_common(r);
    const std::optional<int64_t> trainable = r.get_int("trainable_backbone_layers");
    const det::DetectionKwargs k = read_detection_kwargs(r, rcnn);
    r.finish();
    return nn::AnyModule(fn(c.path, c.progress, c.num_classes, std::nullopt, trainable, k));
  });
}

template <typename Fn>
void add_segmenter(const std::string& name, const std::string& module, Fn fn) {
  add(name, "segmentation." + module, [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    const Common c = read_common(r);
    const std::optional<bool> aux_loss = r.get_bool("aux_loss");
    r.finish();
    return nn::AnyModule(fn(c.path, c.progress, c.num_classes, aux_loss, std::nullopt));
  });
}

}  // namespace

void register_detection_models() {
  add_detector("fasterrcnn_resnet50_fpn", "faster_rcnn", true, &det::fasterrcnn_resnet50_fpn);
  add_detector("fasterrcnn_resnet50_fpn_v2", "faster_rcnn", true, &det::fasterrcnn_resnet50_fpn_v2);
  add_detector("fasterrcnn_mobilenet_v3_large_fpn", "faster_rcnn", true, &det::fasterrcnn_mobilenet_v3_large_fpn);
  add_detector("fasterrcnn_mobilenet_v3_large_320_fpn", "faster_rcnn", true,
               &det::fasterrcnn_mobilenet_v3_large_320_fpn);
  add_detector("maskrcnn_resnet50_fpn", "mask_rcnn", true, &det::maskrcnn_resnet50_fpn);
  add_detector("retinanet_resnet50_fpn", "retinanet", false, &det::retinanet_resnet50_fpn);
  add_detector("retinanet_resnet50_fpn_v2", "retinanet", false, &det::retinanet_resnet50_fpn_v2);
  add_detector("fcos_resnet50_fpn", "fcos", false, &det::fcos_resnet50_fpn);
  const std::string kp = "keypointrcnn_resnet50_fpn";
  add(kp, "detection.keypoint_rcnn", [=](const ModelKwargs& kw) {
    KwargReader r(kp, kw);
    const Common c = read_common(r);
    const std::optional<int64_t> num_keypoints = r.get_int("num_keypoints");
    const std::optional<int64_t> trainable = r.get_int("trainable_backbone_layers");
    const det::DetectionKwargs k = read_detection_kwargs(r, true);
    r.finish();
    return nn::AnyModule(
        det::keypointrcnn_resnet50_fpn(c.path, c.progress, c.num_classes, num_keypoints, std::nullopt, trainable, k));
  });
  add_segmenter("fcn_resnet50", "fcn", &seg::fcn_resnet50);
  add_segmenter("fcn_resnet101", "fcn", &seg::fcn_resnet101);
  add_segmenter("deeplabv3_resnet50", "deeplabv3", &seg::deeplabv3_resnet50);
  add_segmenter("deeplabv3_resnet101", "deeplabv3", &seg::deeplabv3_resnet101);
  add_segmenter("deeplabv3_mobilenet_v3_large", "deeplabv3", &seg::deeplabv3_mobilenet_v3_large);
  const std::string lr = "lraspp_mobilenet_v3_large";
  add(lr, "segmentation.lraspp", [=](const ModelKwargs& kw) {
    KwargReader r(lr, kw);
    const Common c = read_common(r);
    r.finish();
    return nn::AnyModule(seg::lraspp_mobilenet_v3_large(c.path, c.progress, c.num_classes, std::nullopt));
  });
}

}  // namespace torch::vision::models::detail
