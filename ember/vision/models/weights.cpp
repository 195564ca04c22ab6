#include "ember/vision/models/weights.h"

#include <ostream>
#include <sstream>

#include "ember/core/error.h"
#include "ember/serialize/pt_reader.h"
#include "ember/serialize/safetensors.h"

namespace torch::vision::models {

Weights::Weights(std::string enum_name_, std::string member_, std::string url_,
                 transforms::_presets::PresetOptions transforms_options_, WeightsMeta meta_)
    : enum_name(std::move(enum_name_)),
      member(std::move(member_)),
      url(std::move(url_)),
      transforms_options(std::move(transforms_options_)),
      meta(std::move(meta_)) {}

std::string Weights::file_name() const {
  const size_t slash = url.rfind('/');
  return slash == std::string::npos ? url : url.substr(slash + 1);
}

transforms::_presets::WeightsTransforms Weights::transforms() const {
  return transforms::_presets::WeightsTransforms(transforms_options);
}

Weights Weights::with_path(std::string file) const {
  Weights copy = *this;
  copy.path = std::move(file);
  return copy;
}

std::vector<std::pair<std::string, Tensor>> Weights::get_state_dict(bool /*progress*/) const {
  EMBER_CHECK(path.has_value(), name(), ".get_state_dict: Ember downloads nothing; fetch ", file_name(), " from ", url,
              " and pass its location with ", enum_name, "::", member, ".with_path(\"/path/to/", file_name(), "\")");
  const std::string& p = *path;
  const bool safetensors = p.size() >= 12 && p.compare(p.size() - 12, 12, ".safetensors") == 0;
  return safetensors ? serialize::load_safetensors(p) : serialize::load_pytorch_state_dict(p);
}

std::ostream& operator<<(std::ostream& stream, const Weights& weights) { return stream << weights.name(); }

WeightsEnum::WeightsEnum(std::string name_, std::vector<Weights> members_, std::string default_member_)
    : name(std::move(name_)), members(std::move(members_)), default_member(std::move(default_member_)) {}

const Weights& WeightsEnum::operator[](const std::string& member) const {
  const std::string& wanted = member == "DEFAULT" ? default_member : member;
  for (const Weights& w : members) {
    if (w.member == wanted) return w;
  }
  std::ostringstream known;
  for (const Weights& w : members) known << " " << w.member;
  EMBER_CHECK(false, name, ": no member '", member, "'; its members are", known.str(), " DEFAULT");
  return members.front();  // unreachable
}

const Weights& WeightsEnum::verify(const std::string& obj) const {
  const std::string prefix = name + ".";
  if (obj.rfind(prefix, 0) == 0) return (*this)[obj.substr(prefix.size())];
  EMBER_CHECK(obj.find('.') == std::string::npos, name, ": invalid weights name '", obj, "'");
  return (*this)[obj];
}

namespace detail {

void verify_weights(const std::optional<Weights>& weights, const char* enum_name, const char* builder) {
  if (!weights) return;
  EMBER_CHECK(weights->enum_name == enum_name, builder, ": weights must be ", enum_name, ", got ", weights->name());
  // Before the model is built: a missing file is the common mistake, and building is the slow part.
  EMBER_CHECK(weights->path.has_value(), builder, ": weights ", weights->name(), " are not downloaded by Ember; fetch ",
              weights->file_name(), " from ", weights->url, " and pass ", weights->enum_name, "::", weights->member,
              ".with_path(\"/path/to/", weights->file_name(), "\")");
}

int64_t num_classes_for(const std::optional<Weights>& weights, std::optional<int64_t> num_classes,
                        const char* builder) {
  if (!weights) return num_classes.value_or(1000);
  const auto n = static_cast<int64_t>(weights->meta.categories.size());
  EMBER_CHECK(!num_classes || *num_classes == n, builder, ": the parameter 'num_classes' expected value ", n,
              " (the categories of ", weights->name(), ") but got ", *num_classes, " instead");
  return n;
}

void load_weights(nn::Module& model, const Weights& weights, const char* builder) {
  EMBER_CHECK(weights.path.has_value(), builder, ": weights ", weights.name(), " are not downloaded by Ember; fetch ",
              weights.file_name(), " from ", weights.url, " and pass ", weights.enum_name, "::", weights.member,
              ".with_path(\"/path/to/", weights.file_name(), "\")");
  model.load_state_dict(weights.get_state_dict(), true);
}

}  // namespace detail

}  // namespace torch::vision::models
