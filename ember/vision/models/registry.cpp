#include "ember/vision/models/registry.h"

#include <algorithm>
#include <mutex>
#include <sstream>

#include "ember/core/error.h"

namespace torch::vision::models {

namespace {

// Note [The model registry]: Python's BUILTIN_MODELS dict is process-wide, so
// this is too: one map behind a mutex, created on first use (so registrars in
// other files may run in any static-initialisation order). The built-in CNNs
// are registered when it is created.
struct Registry {
  std::mutex mutex;
  std::map<std::string, ModelEntry> models;
  std::map<std::string, const WeightsEnum*> weights;
};

Registry& raw_registry() {
  static Registry r;
  return r;
}

Registry& registry() {
  static const bool builtins = [] {
    detail::register_classification_cnns();
    detail::register_transformer_models();
    detail::register_detection_models();
    for (ModelEntry& e : detail::ssd_model_entries()) register_model(std::move(e));
    return true;
  }();
  (void)builtins;
  return raw_registry();
}

const ModelEntry& find_model(Registry& r, const std::string& name) {
  auto it = r.models.find(name);
  EMBER_CHECK(it != r.models.end(), "get_model: Unknown model ", name, " (list_models() names the known ones)");
  return it->second;
}

}  // namespace

void register_model(ModelEntry entry) {
  Registry& r = raw_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  EMBER_CHECK(!entry.name.empty() && entry.builder, "register_model: a model needs a name and a builder");
  EMBER_CHECK(r.models.count(entry.name) == 0, "register_model: An entry is already registered under the name '",
              entry.name, "'.");
  std::string name = entry.name;
  r.models.emplace(std::move(name), std::move(entry));
}

void register_weights_enum(const WeightsEnum& weights_enum) {
  Registry& r = raw_registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  EMBER_CHECK(r.weights.count(weights_enum.name) == 0, "register_weights_enum: ", weights_enum.name,
              " is already registered");
  r.weights.emplace(weights_enum.name, &weights_enum);
}

std::vector<std::string> list_models(const std::optional<std::string>& module) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const auto& [name, entry] : r.models) {
    if (!module || entry.module.rfind(*module, 0) == 0) names.push_back(name);
  }
  return names;  // std::map keeps them sorted
}

ModelBuilder get_model_builder(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return find_model(r, name).builder;
}

nn::AnyModule get_model(const std::string& name, const ModelKwargs& config) { return get_model_builder(name)(config); }

const WeightsEnum& get_model_weights(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const ModelEntry& entry = find_model(r, name);
  auto it = r.weights.find(entry.weights_enum);
  EMBER_CHECK(!entry.weights_enum.empty() && it != r.weights.end(), "get_model_weights: the model ", name,
              " has no weights enum");
  return *it->second;
}

const Weights& get_weight(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const size_t dot = name.find('.');
  EMBER_CHECK(dot != std::string::npos, "get_weight: Invalid weight name provided: '", name,
              "' (expected e.g. \"ResNet50_Weights.IMAGENET1K_V1\")");
  auto it = r.weights.find(name.substr(0, dot));
  EMBER_CHECK(it != r.weights.end(), "get_weight: The weight enum '", name.substr(0, dot),
              "' for the specific method couldn't be retrieved.");
  return (*it->second)[name.substr(dot + 1)];
}

namespace detail {

const KwargValue* KwargReader::take(const std::string& key) {
  auto it = kwargs_.find(key);
  if (it == kwargs_.end()) return nullptr;
  used_.push_back(key);
  return &it->second;
}

namespace {

template <typename T>
std::optional<T> typed(const KwargValue* v, const std::string& builder, const std::string& key, const char* type) {
  if (v == nullptr) return std::nullopt;
  const T* p = std::get_if<T>(&v->value());
  EMBER_CHECK(p != nullptr, builder, ": keyword argument '", key, "' must be ", type);
  return *p;
}

}  // namespace

std::optional<bool> KwargReader::get_bool(const std::string& key) {
  return typed<bool>(take(key), builder_, key, "a bool");
}

std::optional<int64_t> KwargReader::get_int(const std::string& key) {
  return typed<int64_t>(take(key), builder_, key, "an int");
}

std::optional<double> KwargReader::get_double(const std::string& key) {
  const KwargValue* v = take(key);
  if (v != nullptr) {
    if (const auto* i = std::get_if<int64_t>(&v->value())) return static_cast<double>(*i);
  }
  return typed<double>(v, builder_, key, "a float");
}

std::optional<std::string> KwargReader::get_string(const std::string& key) {
  return typed<std::string>(take(key), builder_, key, "a string");
}

std::optional<std::vector<bool>> KwargReader::get_bool_list(const std::string& key) {
  return typed<std::vector<bool>>(take(key), builder_, key, "a list of bools");
}

std::optional<Weights> KwargReader::get_weights(const std::string& weights_enum) {
  get_bool("progress");
  const std::optional<std::string> name = get_string("weights");
  const std::optional<std::string> path = get_string("weights_path");
  if (!name) {
    EMBER_CHECK(!path, builder_, ": weights_path given without weights");
    return std::nullopt;
  }
  const Weights& w = weights_enum.empty() ? get_weight(*name) : [&]() -> const Weights& {
    // get_model runs under no registry lock, so looking the enum up is safe here.
    const std::string full = name->find('.') == std::string::npos ? weights_enum + "." + *name : *name;
    return get_weight(full);
  }();
  return path ? w.with_path(*path) : w;
}

void KwargReader::finish() const {
  std::vector<std::string> unexpected;
  for (const auto& [key, value] : kwargs_) {
    if (std::find(used_.begin(), used_.end(), key) == used_.end()) unexpected.push_back(key);
  }
  if (unexpected.empty()) return;
  std::ostringstream s;
  for (size_t i = 0; i < unexpected.size(); ++i) s << (i ? ", '" : "'") << unexpected[i] << "'";
  EMBER_CHECK(false, builder_, ": got unexpected keyword argument(s) ", s.str());
}

}  // namespace detail

}  // namespace torch::vision::models
