#pragma once
// Sequential: a list of modules whose forward() chains them, each layer
// receiving the previous layer's output, as torch::nn::Sequential. Layers
// are held as AnyModules, so their forward signatures may differ.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ember/core/ordered_dict.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/named_any.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

class SequentialImpl : public Cloneable<SequentialImpl> {
 public:
  using Iterator = std::vector<AnyModule>::iterator;
  using ConstIterator = std::vector<AnyModule>::const_iterator;

  SequentialImpl() = default;
  // Sequential(Linear(3, 4), ReLU(), ...): each layer is named by its index.
  template <typename... Modules>
  explicit SequentialImpl(Modules&&... modules) {
    modules_.reserve(sizeof...(Modules));
    (push_back(std::forward<Modules>(modules)), ...);
  }
  explicit SequentialImpl(OrderedDict<std::string, AnyModule>&& ordered_dict) {
    modules_.reserve(ordered_dict.size());
    for (auto& item : ordered_dict) push_back(item.key(), std::move(item.value()));
  }
  explicit SequentialImpl(std::initializer_list<NamedAnyModule> named_modules) {
    modules_.reserve(named_modules.size());
    for (const auto& named : named_modules) push_back(named.name(), named.module());
  }

  // A deep copy; layer names are kept.
  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  // Sequential has no state of its own: its layers are registered by push_back.
  void reset() override {}
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::Sequential"; }

  // Runs the layers in order; the first receives `inputs`, the result must be a ReturnType.
  template <typename ReturnType = Tensor, typename... InputTypes>
  ReturnType forward(InputTypes&&... inputs) {
    EMBER_CHECK(!is_empty(), "Sequential::forward: Cannot call forward() on an empty Sequential");
    auto it = modules_.begin();
    AnyValue value = it->any_forward(std::forward<InputTypes>(inputs)...);
    for (++it; it != modules_.end(); ++it) value = it->any_forward(std::move(value));
    if (auto* result = value.template try_get<ReturnType>()) return std::move(*result);
    EMBER_ERROR("Sequential::forward: The type of the return value is ",
                autograd::demangle_type_name(value.type_info().name()), ", but you asked for type ",
                autograd::demangle_type_name(typeid(ReturnType).name()));
  }

  // The type-erased forward that lets a Sequential sit inside another one.
  AnyValue _any_forward(std::vector<AnyValue>&& inputs);

  template <typename ModuleType>
  void push_back(std::shared_ptr<ModuleType> module_ptr) {
    push_back(std::to_string(modules_.size()), std::move(module_ptr));
  }
  template <typename ModuleType>
  void push_back(std::string name, std::shared_ptr<ModuleType> module_ptr) {
    push_back(std::move(name), AnyModule(std::move(module_ptr)));
  }
  template <typename M, typename = std::enable_if_t<std::is_base_of_v<Module, std::decay_t<M>>>>
  void push_back(M&& module) {
    push_back(std::to_string(modules_.size()), std::forward<M>(module));
  }
  template <typename M, typename = std::enable_if_t<std::is_base_of_v<Module, std::decay_t<M>>>>
  void push_back(std::string name, M&& module) {
    push_back(std::move(name), std::make_shared<std::decay_t<M>>(std::forward<M>(module)));
  }
  template <typename M>
  void push_back(const ModuleHolder<M>& module_holder) {
    push_back(std::to_string(modules_.size()), module_holder);
  }
  template <typename M>
  void push_back(std::string name, const ModuleHolder<M>& module_holder) {
    push_back(std::move(name), module_holder.ptr());
  }
  void push_back(AnyModule any_module) { push_back(std::to_string(modules_.size()), std::move(any_module)); }
  void push_back(std::string name, AnyModule any_module);

  // Appends every module of a container (another Sequential, a vector of holders, ...).
  template <typename Container>
  void extend(const Container& container) {
    for (const auto& module : container) push_back(module);
  }

  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }

  // The layer at `index` as its concrete type; raises on a type mismatch.
  template <typename T>
  T& at(size_t index) {
    static_assert(std::is_base_of_v<Module, T>, "Can only call Sequential::at with an nn::Module type");
    return modules_.at(checked_index(index)).get<T>();
  }
  template <typename T>
  const T& at(size_t index) const {
    return const_cast<SequentialImpl*>(this)->at<T>(index);
  }
  std::shared_ptr<Module> ptr(size_t index) const { return modules_[checked_index(index)].ptr(); }
  template <typename T>
  std::shared_ptr<T> ptr(size_t index) const {
    static_assert(std::is_base_of_v<Module, T>, "Can only call Sequential::ptr with an nn::Module type");
    return modules_[checked_index(index)].ptr<T>();
  }
  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }

  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }

 private:
  size_t checked_index(size_t index) const {
    EMBER_CHECK(index < size(), "Sequential::at: Index out of range: index ", index,
                " is out of range (Sequential has ", size(), " modules)");
    return index;
  }
  std::vector<AnyModule> modules_;
};

// The holder; adds construction from a braced list of named layers.
class Sequential : public ModuleHolder<SequentialImpl> {
 public:
  using ModuleHolder<SequentialImpl>::ModuleHolder;
  Sequential() : ModuleHolder() {}
  Sequential(std::initializer_list<NamedAnyModule> named_modules)
      : ModuleHolder(std::make_shared<SequentialImpl>(named_modules)) {}
};
EMBER_NN_CLONEABLE_INSTANCE(SequentialImpl);

}  // namespace torch::nn
