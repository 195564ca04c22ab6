#pragma once
// The model registry (torchvision.models._api): list_models, get_model,
// get_model_builder, get_model_weights, get_weight. Python passes builder
// keyword arguments as **config; here they are a ModelKwargs map, e.g.
//   get_model("resnet50", {{"weights", "DEFAULT"}, {"weights_path", "r50.pth"}})
//   get_model("mobilenet_v3_small", {{"num_classes", 10}, {"width_mult", 0.5}})
// Every builder accepts "weights" (a member name, "DEFAULT", or the full
// "ResNet50_Weights.IMAGENET1K_V2"), "weights_path" (where that checkpoint
// is: nothing is downloaded) and "progress"; an unknown keyword raises.
//
// Other parts of the library register into the same registry: call
// register_model / register_weights_enum (e.g. from a static
// ModelRegistrar in their .cpp, or from a function listed in registry.cpp's
// builtin set at merge time).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ember/nn/modules/container/any.h"
#include "ember/vision/models/weights.h"

namespace torch::vision::models {

// One keyword argument's value.
class KwargValue {
 public:
  using Variant =
      std::variant<bool, int64_t, double, std::string, std::vector<int64_t>, std::vector<bool>, std::vector<double>>;
  KwargValue(bool v) : value_(v) {}                             // NOLINT
  KwargValue(int v) : value_(static_cast<int64_t>(v)) {}        // NOLINT
  KwargValue(int64_t v) : value_(v) {}                          // NOLINT
  KwargValue(double v) : value_(v) {}                           // NOLINT
  KwargValue(const char* v) : value_(std::string(v)) {}         // NOLINT
  KwargValue(std::string v) : value_(std::move(v)) {}           // NOLINT
  KwargValue(std::vector<int64_t> v) : value_(std::move(v)) {}  // NOLINT
  KwargValue(std::vector<bool> v) : value_(std::move(v)) {}     // NOLINT
  KwargValue(std::vector<double> v) : value_(std::move(v)) {}   // NOLINT
  const Variant& value() const { return value_; }

 private:
  Variant value_;
};
using ModelKwargs = std::map<std::string, KwargValue>;
using ModelBuilder = std::function<nn::AnyModule(const ModelKwargs&)>;

struct ModelEntry {
  std::string name;
  // The Python module the builder lives in, e.g. "torchvision.models.resnet"
  // or "torchvision.models.detection.retinanet" (list_models filters by it).
  std::string module;
  ModelBuilder builder;
  // The builder's weights enum ("ResNet50_Weights"), or empty.
  std::string weights_enum;
};

// Registering an existing name raises (Python: "An entry is already registered under the name").
void register_model(ModelEntry entry);
// The enum is kept by pointer: it must live as long as the program (the generated tables do).
void register_weights_enum(const WeightsEnum& weights_enum);

// Registers at static initialisation: static ModelRegistrar reg({...});
struct ModelRegistrar {
  explicit ModelRegistrar(ModelEntry entry) { register_model(std::move(entry)); }
};

// The registered names, sorted; module: only those whose module starts with
// it (Python passes the module object: "torchvision.models.detection").
std::vector<std::string> list_models(const std::optional<std::string>& module = std::nullopt);
ModelBuilder get_model_builder(const std::string& name);
nn::AnyModule get_model(const std::string& name, const ModelKwargs& config = {});
// The weights enum of a model, by the model's name.
const WeightsEnum& get_model_weights(const std::string& name);
// A weights value by its full name: "ResNet50_Weights.IMAGENET1K_V1" (or ".DEFAULT").
const Weights& get_weight(const std::string& name);

namespace detail {

// Reads a builder's ModelKwargs: each get() consumes a key, finish() raises
// naming every key nobody read (Python's "unexpected keyword argument").
class KwargReader {
 public:
  KwargReader(std::string builder, const ModelKwargs& kwargs) : builder_(std::move(builder)), kwargs_(kwargs) {}
  std::optional<bool> get_bool(const std::string& key);
  std::optional<int64_t> get_int(const std::string& key);
  std::optional<double> get_double(const std::string& key);
  std::optional<std::string> get_string(const std::string& key);
  std::optional<std::vector<bool>> get_bool_list(const std::string& key);
  // "weights" (+ "weights_path", "progress") resolved against the builder's enum.
  std::optional<Weights> get_weights(const std::string& weights_enum);
  void finish() const;

 private:
  const KwargValue* take(const std::string& key);
  std::string builder_;
  const ModelKwargs& kwargs_;
  std::vector<std::string> used_;
};

// Registers the classification CNNs (registry_cnn.cpp).
void register_classification_cnns();
// Registers ViT, ConvNeXt, Swin and RAFT (registry_transformers.cpp).
void register_transformer_models();
// Registers the detection and segmentation builders (registry_detection.cpp).
void register_detection_models();
// The entries of ssd300_vgg16 and ssdlite320_mobilenet_v3_large (registry_ssd.cpp;
// keywords: weights, weights_path, progress, num_classes, weights_backbone,
// weights_backbone_path, trainable_backbone_layers and SSDKwargs' names); their
// weights enums register themselves.
std::vector<ModelEntry> ssd_model_entries();

}  // namespace detail

}  // namespace torch::vision::models
