#pragma once
// ParameterList and ParameterDict, as torch::nn: containers of parameters
// registered on the module itself, so parameters(), named_parameters(),
// to(), zero_grad() and serialization see them. Names are "0", "1", ... in a
// list and the keys in a dict; each keeps its tensor's requires_grad.
#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

class ParameterListImpl : public Cloneable<ParameterListImpl> {
 public:
  using Iterator = OrderedDict<std::string, Tensor>::Iterator;
  using ConstIterator = OrderedDict<std::string, Tensor>::ConstIterator;

  ParameterListImpl() = default;
  template <typename... Tensors>
  explicit ParameterListImpl(const Tensors&... params) {
    (append(params), ...);
  }

  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;

  void append(const Tensor& param) {
    register_parameter(std::to_string(parameters_.size()), param, param.requires_grad());
  }
  // A named parameter (from another container's items): its value, under the next index.
  void append(const OrderedDict<std::string, Tensor>::Item& pair) { append(pair.value()); }
  template <typename Container>
  void extend(const Container& container) {
    for (const auto& param : container) append(param);
  }
  ParameterListImpl& operator+=(const ParameterListImpl& other) {
    extend(other);
    return *this;
  }

  Iterator begin() { return parameters_.begin(); }
  ConstIterator begin() const { return parameters_.begin(); }
  Iterator end() { return parameters_.end(); }
  ConstIterator end() const { return parameters_.end(); }
  Tensor& at(size_t idx);
  const Tensor& at(size_t idx) const { return const_cast<ParameterListImpl*>(this)->at(idx); }
  Tensor& operator[](size_t idx) { return at(idx); }
  const Tensor& operator[](size_t idx) const { return at(idx); }
  size_t size() const noexcept { return parameters_.size(); }
  bool is_empty() const noexcept { return parameters_.is_empty(); }
};
EMBER_NN_MODULE(ParameterList);

class ParameterDictImpl : public Cloneable<ParameterDictImpl> {
 public:
  using Iterator = OrderedDict<std::string, Tensor>::Iterator;
  using ConstIterator = OrderedDict<std::string, Tensor>::ConstIterator;

  ParameterDictImpl() = default;
  explicit ParameterDictImpl(const OrderedDict<std::string, Tensor>& params) {
    for (const auto& item : params) insert(item.key(), item.value());
  }

  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;

  // Adds `param` under `key`, replacing the parameter already there.
  Tensor& insert(const std::string& key, const Tensor& param);
  // Removes `key` and returns its parameter.
  Tensor pop(const std::string& key);
  // Sets the parameters of keys this dict has; a key it lacks raises (LibTorch's update).
  template <typename Container>
  void update(const Container& container) {
    for (const auto& item : container) get(item.key()) = item.value();
  }
  void clear() { parameters_.clear(); }
  bool contains(const std::string& key) const noexcept { return parameters_.contains(key); }
  std::vector<std::string> keys() const { return parameters_.keys(); }
  std::vector<Tensor> values() const { return parameters_.values(); }

  Iterator begin() { return parameters_.begin(); }
  ConstIterator begin() const { return parameters_.begin(); }
  Iterator end() { return parameters_.end(); }
  ConstIterator end() const { return parameters_.end(); }
  size_t size() const noexcept { return parameters_.size(); }
  bool empty() const noexcept { return parameters_.is_empty(); }
  Tensor& get(const std::string& key);
  const Tensor& get(const std::string& key) const { return const_cast<ParameterDictImpl*>(this)->get(key); }
  Tensor& operator[](const std::string& key) { return get(key); }
  const Tensor& operator[](const std::string& key) const { return get(key); }
};
EMBER_NN_MODULE(ParameterDict);

}  // namespace torch::nn
