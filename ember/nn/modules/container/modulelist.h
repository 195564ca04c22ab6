#pragma once
// ModuleList: an indexable list of submodules with no forward() of its own,
// as torch::nn::ModuleList. Its children are named "0", "1", ...
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

class ModuleListImpl : public Cloneable<ModuleListImpl> {
 public:
  using Iterator = std::vector<std::shared_ptr<Module>>::iterator;
  using ConstIterator = std::vector<std::shared_ptr<Module>>::const_iterator;

  ModuleListImpl() = default;
  // ModuleList(Linear(3, 4), ReLU(), ...)
  template <typename... Modules>
  explicit ModuleListImpl(Modules&&... modules) {
    modules_.reserve(sizeof...(Modules));
    (push_back(std::forward<Modules>(modules)), ...);
  }

  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;
  void reset() override {}
  void pretty_print(std::ostream& stream) const override { stream << "torch::nn::ModuleList"; }

  void push_back(std::shared_ptr<Module> module);
  template <typename M, typename = std::enable_if_t<std::is_base_of_v<Module, std::decay_t<M>>>>
  void push_back(M&& module) {
    push_back(std::make_shared<std::decay_t<M>>(std::forward<M>(module)));
  }
  template <typename M>
  void push_back(const ModuleHolder<M>& module_holder) {
    push_back(module_holder.ptr());
  }
  template <typename Container>
  void extend(const Container& container) {
    for (const auto& module : container) push_back(module);
  }
  // Inserts before `index` (0 <= index <= size()); later children are renamed.
  void insert(size_t index, std::shared_ptr<Module> module);
  template <typename M>
  void insert(size_t index, const ModuleHolder<M>& module_holder) {
    insert(index, module_holder.ptr());
  }
  template <typename M, typename = std::enable_if_t<std::is_base_of_v<Module, std::decay_t<M>>>>
  void insert(size_t index, M&& module) {
    insert(index, std::make_shared<std::decay_t<M>>(std::forward<M>(module)));
  }

  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }

  // The module at `index` as T; raises when it is another type.
  template <typename T>
  T& at(size_t index) {
    static_assert(std::is_base_of_v<Module, T>, "Can only call ModuleList::at with an nn::Module type");
    auto* module = modules_[checked_index(index)]->as<T>();
    EMBER_CHECK(module != nullptr, "ModuleList::at: unable to cast module[", index, "] to the requested type");
    return *module;
  }
  template <typename T>
  const T& at(size_t index) const {
    return const_cast<ModuleListImpl*>(this)->at<T>(index);
  }
  std::shared_ptr<Module> ptr(size_t index) const { return modules_[checked_index(index)]; }
  template <typename T>
  std::shared_ptr<T> ptr(size_t index) const {
    static_assert(std::is_base_of_v<Module, T>, "Can only call ModuleList::ptr with an nn::Module type");
    return std::dynamic_pointer_cast<T>(ptr(index));
  }
  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }

  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }

 private:
  size_t checked_index(size_t index) const {
    EMBER_CHECK(index < size(), "ModuleList::at: Index out of range: index ", index,
                " is out of range (ModuleList has ", size(), " modules)");
    return index;
  }
  std::vector<std::shared_ptr<Module>> modules_;
};
EMBER_NN_MODULE(ModuleList);

}  // namespace torch::nn
