#include "ember/vision/datasets/coco.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

namespace torch::vision::datasets {

namespace {

using nlohmann::json;

// The annotation file is untrusted: every field is type-checked, and a
// malformed file raises ember::Error naming the file and the field.
const json& field(const json& obj, const char* key, const std::string& file, const char* where) {
  EMBER_CHECK(obj.is_object() && obj.contains(key), "CocoDetection: ", file, ": ", where, " lacks \"", key, "\"");
  return obj.at(key);
}

int64_t integer(const json& v, const std::string& file, const char* what) {
  EMBER_CHECK(v.is_number_integer(), "CocoDetection: ", file, ": ", what, " must be an integer");
  return v.get<int64_t>();
}

std::vector<double> numbers(const json& v, const std::string& file, const char* what) {
  EMBER_CHECK(v.is_array(), "CocoDetection: ", file, ": ", what, " must be an array of numbers");
  std::vector<double> out;
  for (const json& x : v) {
    EMBER_CHECK(x.is_number(), "CocoDetection: ", file, ": ", what, " must be an array of numbers");
    out.push_back(x.get<double>());
  }
  return out;
}

}  // namespace

CocoDetection::CocoDetection(const std::string& root, const std::string& annFile, std::optional<Transform> transform,
                             std::optional<CocoTargetTransform> target_transform, Loader loader)
    : root(root),
      loader_(std::move(loader)),
      transform_(std::move(transform)),
      target_transform_(std::move(target_transform)) {
  EMBER_CHECK(loader_, "CocoDetection: loader must be a callable");
  std::ifstream f(annFile);
  EMBER_CHECK(f, "CocoDetection: cannot open annotation file ", annFile);
  json doc;
  try {
    doc = json::parse(f);
  } catch (const json::exception& e) {
    EMBER_ERROR("CocoDetection: ", annFile, " is not valid JSON: ", e.what());
  }
  EMBER_CHECK(doc.is_object(), "CocoDetection: ", annFile, ": the top level must be an object");
  std::map<int64_t, size_t> slot;  // image id -> index, in sorted id order
  std::map<int64_t, std::string> names;
  const json& images = field(doc, "images", annFile, "the file");
  EMBER_CHECK(images.is_array(), "CocoDetection: ", annFile, ": \"images\" must be an array");
  for (const json& img : images) {
    const int64_t id = integer(field(img, "id", annFile, "an image"), annFile, "an image id");
    const json& name = field(img, "file_name", annFile, "an image");
    EMBER_CHECK(name.is_string(), "CocoDetection: ", annFile, ": file_name of image ", id, " must be a string");
    names[id] = name.get<std::string>();
  }
  for (const auto& [id, name] : names) {
    slot[id] = ids.size();
    ids.push_back(id);
    file_names.push_back(name);
  }
  annotations.resize(ids.size());
  if (doc.contains("annotations")) {
    const json& anns = doc.at("annotations");
    EMBER_CHECK(anns.is_array(), "CocoDetection: ", annFile, ": \"annotations\" must be an array");
    for (const json& a : anns) {
      CocoAnnotation ann;
      ann.id = integer(field(a, "id", annFile, "an annotation"), annFile, "an annotation id");
      ann.image_id = integer(field(a, "image_id", annFile, "an annotation"), annFile, "image_id");
      ann.category_id = integer(field(a, "category_id", annFile, "an annotation"), annFile, "category_id");
      if (a.contains("bbox")) ann.bbox = numbers(a.at("bbox"), annFile, "bbox");
      EMBER_CHECK(ann.bbox.empty() || ann.bbox.size() == 4, "CocoDetection: ", annFile, ": bbox of annotation ", ann.id,
                  " must hold 4 numbers");
      if (a.contains("area")) {
        EMBER_CHECK(a.at("area").is_number(), "CocoDetection: ", annFile, ": area must be a number");
        ann.area = a.at("area").get<double>();
      }
      if (a.contains("iscrowd")) ann.iscrowd = integer(a.at("iscrowd"), annFile, "iscrowd") != 0;
      if (a.contains("segmentation")) ann.segmentation = a.at("segmentation").dump();
      if (a.contains("keypoints")) ann.keypoints = numbers(a.at("keypoints"), annFile, "keypoints");
      const auto it = slot.find(ann.image_id);
      EMBER_CHECK(it != slot.end(), "CocoDetection: ", annFile, ": annotation ", ann.id, " names image ", ann.image_id,
                  ", which the file does not list");
      annotations[it->second].push_back(std::move(ann));
    }
  }
}

CocoExample CocoDetection::get(size_t index) {
  EMBER_CHECK(index < ids.size(), "CocoDetection: index ", index, " is out of range for a dataset of ", ids.size(),
              " images");
  Tensor image = loader_((std::filesystem::path(root) / file_names[index]).string());
  if (transform_ && *transform_) image = (*transform_)(std::move(image));
  CocoTarget target = annotations[index];
  if (target_transform_ && *target_transform_) target = (*target_transform_)(std::move(target));
  return {std::move(image), std::move(target)};
}

std::optional<size_t> CocoDetection::size() const { return ids.size(); }

}  // namespace torch::vision::datasets
