#pragma once
// OrderedDict: a map that remembers insertion order, as torch::OrderedDict.
// Modules keep parameters, buffers and children in one, so iteration order
// (and hence parameter order for optimizers and state dicts) is the order
// of registration. Items expose key()/value() like LibTorch's.
#include <cstddef>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ember/core/error.h"

namespace torch {

template <typename Key, typename Value>
class OrderedDict {
 public:
  class Item {
   public:
    Item(Key key, Value value) : pair_(std::move(key), std::move(value)) {}
    Value& operator*() { return value(); }
    const Value& operator*() const { return value(); }
    Value* operator->() { return &value(); }
    const Value* operator->() const { return &value(); }
    const Key& key() const noexcept { return pair_.first; }
    Value& value() noexcept { return pair_.second; }
    const Value& value() const noexcept { return pair_.second; }
    const std::pair<Key, Value>& pair() const noexcept { return pair_; }

   private:
    std::pair<Key, Value> pair_;
  };

  using Iterator = typename std::vector<Item>::iterator;
  using ConstIterator = typename std::vector<Item>::const_iterator;

  // `key_description` names the keys in error messages ("Parameter", "Submodule").
  explicit OrderedDict(std::string key_description = "Key") : key_description_(std::move(key_description)) {}
  OrderedDict(std::initializer_list<Item> initializer_list) : OrderedDict("Key") {
    items_.reserve(initializer_list.size());
    for (const auto& item : initializer_list) insert(item.key(), item.value());
  }

  const std::string& key_description() const noexcept { return key_description_; }

  Item& front() {
    EMBER_CHECK(!items_.empty(), "OrderedDict::front: Called front() on an empty OrderedDict");
    return items_.front();
  }
  const Item& front() const { return const_cast<OrderedDict*>(this)->front(); }
  Item& back() {
    EMBER_CHECK(!items_.empty(), "OrderedDict::back: Called back() on an empty OrderedDict");
    return items_.back();
  }
  const Item& back() const { return const_cast<OrderedDict*>(this)->back(); }
  Item& operator[](size_t index) { return checked_item(index, "operator[]"); }
  const Item& operator[](size_t index) const { return const_cast<OrderedDict*>(this)->operator[](index); }

  Value& operator[](const Key& key) {
    if (auto* value = find(key)) return *value;
    EMBER_CHECK(false, key_description_, " '", key, "' is not defined");
    __builtin_unreachable();
  }
  const Value& operator[](const Key& key) const { return const_cast<OrderedDict*>(this)->operator[](key); }

  Value* find(const Key& key) noexcept {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &items_[it->second].value();
  }
  const Value* find(const Key& key) const noexcept { return const_cast<OrderedDict*>(this)->find(key); }
  bool contains(const Key& key) const noexcept { return find(key) != nullptr; }

  Iterator begin() { return items_.begin(); }
  ConstIterator begin() const { return items_.begin(); }
  Iterator end() { return items_.end(); }
  ConstIterator end() const { return items_.end(); }
  size_t size() const noexcept { return items_.size(); }
  bool is_empty() const noexcept { return items_.empty(); }
  bool empty() const noexcept { return items_.empty(); }

  // Inserts a new key; raises when it exists already.
  template <typename K, typename V>
  Value& insert(K&& key, V&& value) {
    EMBER_CHECK(index_.count(key) == 0, key_description_, " '", key, "' already defined");
    Key copy = key;
    items_.emplace_back(std::forward<K>(key), std::forward<V>(value));
    index_.emplace(std::move(copy), items_.size() - 1);
    return items_.back().value();
  }
  Value& insert(Key key, Value&& value) { return insert<Key, Value>(std::move(key), std::move(value)); }

  // Inserts every item of `other`; a key this dict has already raises (LibTorch's update).
  void update(const OrderedDict& other) {
    for (const auto& item : other) insert(item.key(), item.value());
  }
  void update(OrderedDict&& other) {
    for (auto& item : other) insert(item.key(), std::move(item.value()));
  }

  // Removes `key` and returns its value; raises when absent.
  Value pop(const Key& key) {
    auto it = index_.find(key);
    EMBER_CHECK(it != index_.end(), key_description_, " '", key, "' is not defined");
    const size_t pos = it->second;
    Value value = std::move(items_[pos].value());
    index_.erase(it);
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(pos));
    for (auto& entry : index_)
      if (entry.second > pos) --entry.second;
    return value;
  }
  void erase(const Key& key) { pop(key); }

  const std::vector<Item>& items() const noexcept { return items_; }
  std::vector<Key> keys() const {
    std::vector<Key> out;
    out.reserve(items_.size());
    for (const auto& item : items_) out.push_back(item.key());
    return out;
  }
  std::vector<Value> values() const {
    std::vector<Value> out;
    out.reserve(items_.size());
    for (const auto& item : items_) out.push_back(item.value());
    return out;
  }
  std::vector<std::pair<Key, Value>> pairs() const {
    std::vector<std::pair<Key, Value>> out;
    out.reserve(items_.size());
    for (const auto& item : items_) out.push_back(item.pair());
    return out;
  }
  void clear() {
    items_.clear();
    index_.clear();
  }
  void reserve(size_t n) {
    items_.reserve(n);
    index_.reserve(n);
  }

 private:
  Item& checked_item(size_t index, const char* what) {
    EMBER_CHECK(index < items_.size(), "OrderedDict::", what, ": index ", index, " is out of range for a dict of ",
                items_.size(), " items");
    return items_[index];
  }

  std::vector<Item> items_;
  std::unordered_map<Key, size_t> index_;
  std::string key_description_;
};

template <typename K, typename V>
bool operator==(const OrderedDict<K, V>& a, const OrderedDict<K, V>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].key() != b[i].key() || !(a[i].value() == b[i].value())) return false;
  return true;
}

}  // namespace torch
