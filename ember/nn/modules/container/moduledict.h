#pragma once
// ModuleDict: submodules by name in insertion order, with no forward() of its
// own, as torch::nn::ModuleDict.
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ember/core/ordered_dict.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

class ModuleDictImpl : public Cloneable<ModuleDictImpl> {
 public:
  using Iterator = OrderedDict<std::string, std::shared_ptr<Module>>::Iterator;
  using ConstIterator = OrderedDict<std::string, std::shared_ptr<Module>>::ConstIterator;

  ModuleDictImpl() = default;
  explicit ModuleDictImpl(const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules) {
    update(modules);
  }
  explicit ModuleDictImpl(const OrderedDict<std::string, std::shared_ptr<Module>>& modules) { update(modules); }

  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void reset() override {}
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::ModuleDict"; }

  std::vector<std::pair<std::string, std::shared_ptr<Module>>> items() const { return modules_.pairs(); }
  std::vector<std::string> keys() const { return modules_.keys(); }
  std::vector<std::shared_ptr<Module>> values() const { return modules_.values(); }
  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }
  size_t size() const noexcept { return modules_.size(); }
  bool empty() const noexcept { return modules_.is_empty(); }
  bool contains(const std::string& key) const noexcept { return modules_.contains(key); }

  void clear();
  // Removes `key` and returns its module.
  std::shared_ptr<Module> pop(const std::string& key);
  // Inserts new keys at the end and replaces the modules of existing keys in place.
  template <typename Container>
  void update(const Container& container) {
    for (const auto& item : container) insert_or_replace(item_key(item), item_value(item));
  }
  // Adds `module` under `key`, replacing any module already there.
  template <typename M>
  void insert(const std::string& key, const ModuleHolder<M>& module_holder) {
    insert_or_replace(key, module_holder.ptr());
  }
  template <typename M, typename = std::enable_if_t<std::is_base_of_v<Module, std::decay_t<M>>>>
  void insert(const std::string& key, M&& module) {
    insert_or_replace(key, std::make_shared<std::decay_t<M>>(std::forward<M>(module)));
  }
  void insert(const std::string& key, std::shared_ptr<Module> module) { insert_or_replace(key, std::move(module)); }

  std::shared_ptr<Module> operator[](const std::string& key) const;
  template <typename T>
  T& at(const std::string& key) {
    static_assert(std::is_base_of_v<Module, T>, "Can only call ModuleDict::at with an nn::Module type");
    auto* module = (*this)[key]->as<T>();
    EMBER_CHECK(module != nullptr, "ModuleDict::at: unable to cast module['", key, "'] to the requested type");
    return *module;
  }
  template <typename T>
  const T& at(const std::string& key) const {
    return const_cast<ModuleDictImpl*>(this)->at<T>(key);
  }

 private:
  template <typename Item>
  static const std::string& item_key(const Item& item) {
    if constexpr (requires { item.key(); })
      return item.key();
    else
      return item.first;
  }
  template <typename Item>
  static std::shared_ptr<Module> item_value(const Item& item) {
    if constexpr (requires { item.value(); })
      return item.value();
    else
      return item.second;
  }
  void insert_or_replace(const std::string& key, std::shared_ptr<Module> module);

  OrderedDict<std::string, std::shared_ptr<Module>> modules_{"Module"};
};
EMBER_NN_MODULE(ModuleDict);

}  // namespace torch::nn
