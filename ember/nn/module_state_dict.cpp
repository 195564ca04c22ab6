// Module::state_dict / Module::load_state_dict: PyTorch's names, order and
// error rules (torch.nn.Module.state_dict, load_state_dict), so that the
// state_dicts of torchvision/torchaudio .pth files load into Ember's models.
#include <set>
#include <sstream>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/nn/module.h"

namespace torch::nn {

namespace {
std::string join_name(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

std::string shape_string(IntArrayRef sizes) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < sizes.size(); ++i) out << (i ? ", " : "") << sizes[i];
  out << "]";
  return out.str();
}

void append_quoted(std::ostringstream& out, const std::vector<std::string>& keys) {
  for (size_t i = 0; i < keys.size(); ++i) out << (i ? ", " : "") << '"' << keys[i] << '"';
}
}  // namespace

OrderedDict<std::string, Tensor> Module::state_dict() const {
  OrderedDict<std::string, Tensor> result;
  apply(ConstNamedModuleApplyFunction([&](const std::string& prefix, const Module& m) {
    for (const auto& p : m.parameters_)
      if (p.value().defined()) result.insert(join_name(prefix, p.key()), p.value().detach());
    for (const auto& b : m.buffers_)
      if (b.value().defined()) result.insert(join_name(prefix, b.key()), b.value().detach());
  }));
  return result;
}

Module::LoadStateDictResult Module::load_state_dict(const std::vector<std::pair<std::string, Tensor>>& state_dict,
                                                    bool strict) {
  OrderedDict<std::string, Tensor> dict("Key");
  for (const auto& [key, value] : state_dict) {
    EMBER_CHECK(dict.find(key) == nullptr, "load_state_dict: key \"", key, "\" appears twice in the state_dict");
    dict.insert(key, value);
  }
  return load_state_dict(dict, strict);
}

Module::LoadStateDictResult Module::load_state_dict(const OrderedDict<std::string, Tensor>& state_dict, bool strict) {
  LoadStateDictResult result;
  std::vector<std::string> errors;
  std::set<std::string> used;
  NoGradGuard no_grad;
  apply(NamedModuleApplyFunction([&](const std::string& prefix, Module& m) {
    auto load_into = [&](OrderedDict<std::string, Tensor>& slots) {
      for (auto& slot : slots) {
        if (!slot.value().defined()) continue;
        const std::string key = join_name(prefix, slot.key());
        const Tensor* source = state_dict.find(key);
        if (source == nullptr) {
          result.missing_keys.push_back(key);
          continue;
        }
        used.insert(key);
        if (!source->defined()) {
          errors.push_back("While copying the parameter named \"" + key +
                           "\", the checkpoint holds an undefined tensor.");
        } else if (source->sizes() != slot.value().sizes()) {
          errors.push_back("size mismatch for " + key + ": copying a param with shape " +
                           shape_string(source->sizes()) + " from checkpoint, the shape in current model is " +
                           shape_string(slot.value().sizes()) + ".");
        } else {
          slot.value().copy_(*source);
        }
      }
    };
    load_into(m.parameters_);
    load_into(m.buffers_);
  }));
  for (const auto& entry : state_dict)
    if (!used.count(entry.key())) result.unexpected_keys.push_back(entry.key());

  std::ostringstream message;
  if (strict && !result.missing_keys.empty()) {
    message << "\n\tMissing key(s) in state_dict: ";
    append_quoted(message, result.missing_keys);
    message << ". ";
  }
  if (strict && !result.unexpected_keys.empty()) {
    message << "\n\tUnexpected key(s) in state_dict: ";
    append_quoted(message, result.unexpected_keys);
    message << ". ";
  }
  for (const auto& e : errors) message << "\n\t" << e;
  const std::string text = message.str();
  EMBER_CHECK(text.empty(), "Error(s) in loading state_dict for ", name(), ":", text);
  return result;
}

}  // namespace torch::nn
