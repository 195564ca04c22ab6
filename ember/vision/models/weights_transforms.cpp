#include "ember/vision/models/weights_transforms.h"

#include <sstream>

#include "ember/core/error.h"

namespace torch::vision::transforms::_presets {

namespace {

template <typename... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <typename... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace

WeightsTransformsImpl::WeightsTransformsImpl(PresetOptions options_) : options(std::move(options_)) {
  // Validates the options as the preset's own constructor does.
  std::visit(
      Overloaded{[](const ImageClassificationOptions& o) { ImageClassificationImpl check(o); },
                 [](const SemanticSegmentationOptions& o) { SemanticSegmentationImpl check(o); }, [](const auto&) {}},
      options);
}

std::string WeightsTransformsImpl::preset_name() const {
  return std::visit(Overloaded{[](const ImageClassificationOptions&) { return "ImageClassification"; },
                               [](const ObjectDetectionOptions&) { return "ObjectDetection"; },
                               [](const SemanticSegmentationOptions&) { return "SemanticSegmentation"; },
                               [](const OpticalFlowOptions&) { return "OpticalFlow"; }},
                    options);
}

void WeightsTransformsImpl::pretty_print(std::ostream& stream) const {
  std::visit(Overloaded{[&](const ImageClassificationOptions& o) { ImageClassificationImpl(o).pretty_print(stream); },
                        [&](const ObjectDetectionOptions& o) { ObjectDetectionImpl(o).pretty_print(stream); },
                        [&](const SemanticSegmentationOptions& o) { SemanticSegmentationImpl(o).pretty_print(stream); },
                        [&](const OpticalFlowOptions& o) { OpticalFlowImpl(o).pretty_print(stream); }},
             options);
}

Tensor WeightsTransformsImpl::forward(const Tensor& img) {
  return std::visit(
      Overloaded{[&](const ImageClassificationOptions& o) { return ImageClassificationImpl(o).forward(img); },
                 [&](const ObjectDetectionOptions& o) { return ObjectDetectionImpl(o).forward(img); },
                 [&](const SemanticSegmentationOptions& o) { return SemanticSegmentationImpl(o).forward(img); },
                 [&](const OpticalFlowOptions&) -> Tensor {
                   EMBER_CHECK(false, "OpticalFlow: takes two images (img1, img2), got one");
                   return {};
                 }},
      options);
}

std::tuple<Tensor, Tensor> WeightsTransformsImpl::forward(const Tensor& img1, const Tensor& img2) {
  const auto* flow = std::get_if<OpticalFlowOptions>(&options);
  EMBER_CHECK(flow != nullptr, preset_name(), ": takes one image, got two");
  return OpticalFlowImpl(*flow).forward(img1, img2);
}

std::string WeightsTransformsImpl::describe() const {
  return std::visit(
      Overloaded{[](const ImageClassificationOptions& o) { return ImageClassificationImpl(o).describe(); },
                 [](const ObjectDetectionOptions& o) { return ObjectDetectionImpl(o).describe(); },
                 [](const SemanticSegmentationOptions& o) { return SemanticSegmentationImpl(o).describe(); },
                 [](const OpticalFlowOptions& o) { return OpticalFlowImpl(o).describe(); }},
      options);
}

}  // namespace torch::vision::transforms::_presets
