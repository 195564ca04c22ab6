#include "ember/nn/modules/container/parameterlist.h"

#include "ember/core/dtype.h"

namespace torch::nn {

namespace {
// "(key): Parameter containing: [Float of size [3, 4]]", one line per parameter.
void print_parameters(std::ostream& stream, const char* name, const OrderedDict<std::string, Tensor>& params) {
  stream << "torch::nn::" << name << "(\n";
  for (const auto& item : params)
    stream << "(" << item.key() << "): Parameter containing: [" << type_name_short(item.value().scalar_type())
           << " of size " << shape_str(item.value().sizes()) << "]\n";
  stream << ")";
}
// A copy of a parameter for a cloned container: a new leaf with the same
// values and requires_grad, on `device` if given.
Tensor cloned_parameter(const Tensor& p, const std::optional<Device>& device) {
  Tensor c = p.detach().clone();
  if (device) c = c.to(*device);
  return c.requires_grad_(p.requires_grad());
}
}  // namespace

std::shared_ptr<Module> ParameterListImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<ParameterListImpl>();
  for (const auto& item : parameters_) copy->append(cloned_parameter(item.value(), device));
  copy->train(is_training());
  return copy;
}
void ParameterListImpl::pretty_print(std::ostream& stream) const {
  print_parameters(stream, "ParameterList", parameters_);
}
Tensor& ParameterListImpl::at(size_t idx) {
  EMBER_CHECK(idx < parameters_.size(), "ParameterList::at: Index out of range: index ", idx,
              " is out of range for a list of ", parameters_.size(), " parameters");
  return parameters_[idx].value();
}

std::shared_ptr<Module> ParameterDictImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<ParameterDictImpl>();
  for (const auto& item : parameters_) copy->insert(item.key(), cloned_parameter(item.value(), device));
  copy->train(is_training());
  return copy;
}
void ParameterDictImpl::pretty_print(std::ostream& stream) const {
  print_parameters(stream, "ParameterDict", parameters_);
}
Tensor& ParameterDictImpl::insert(const std::string& key, const Tensor& param) {
  if (Tensor* slot = parameters_.find(key)) {
    *slot = param;
    return *slot;
  }
  return register_parameter(key, param, param.requires_grad());
}
Tensor ParameterDictImpl::pop(const std::string& key) {
  EMBER_CHECK(contains(key), "ParameterDict::pop: Parameter '", key, "' is not defined");
  return parameters_.pop(key);
}
Tensor& ParameterDictImpl::get(const std::string& key) {
  Tensor* p = parameters_.find(key);
  EMBER_CHECK(p != nullptr, "ParameterDict: Parameter '", key, "' is not defined");
  return *p;
}

}  // namespace torch::nn
