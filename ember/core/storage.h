#pragma once
// Storage: the bytes behind one or more tensors, plus the version counter that
// every view of these bytes shares (autograd uses it to detect in-place
// changes to saved tensors).
#include <atomic>
#include <cstddef>
#include <memory>

#include "ember/core/allocator.h"
#include "ember/core/intrusive_ptr.h"
#include "ember/core/object_pool.h"

namespace torch {

// Note [Derived copies of a storage]
// A kernel may keep one copy of a storage's bytes in its own layout beside the
// storage (oneDNN's packed convolution weights for inference, Note [Packed
// convolution weights]), so that a weight used call after call is packed once.
// The copy lives and dies with the storage, never outlives its bytes, and is not
// global state. Whoever stores one records the version it was made from and checks it
// on every use (every tensor op that writes bumps it, as autograd's saved-tensor check
// relies on; a write through data_ptr() bumps nothing, so the packed weights also compare
// a sample of the bytes). Concurrent readers may race to build one; the last store wins.
struct DerivedData {
  virtual ~DerivedData() = default;
};

class StorageImpl : public RefCounted {
 public:
  StorageImpl(DataPtr data, size_t nbytes) : data_(std::move(data)), nbytes_(nbytes) {}
  static IntrusivePtr<StorageImpl> allocate(size_t nbytes) {
    return make_intrusive<StorageImpl>(CachingAllocator::get().allocate(nbytes), nbytes);
  }
  void* data() const { return data_.get(); }
  size_t nbytes() const { return nbytes_; }
  uint32_t version() const { return version_.load(std::memory_order_relaxed); }
  void bump_version() { version_.fetch_add(1, std::memory_order_relaxed); }
  // Only for a storage no one else has seen yet: a factory's own fill is not a write
  // anyone can observe, so its tensor starts at version 0, as PyTorch's.
  void reset_version() { version_.store(0, std::memory_order_relaxed); }
  // Note [Derived copies of a storage]; empty unless a kernel stored one.
  std::shared_ptr<const DerivedData> derived() const { return derived_.load(std::memory_order_acquire); }
  void set_derived(std::shared_ptr<const DerivedData> d) const {
    derived_.store(std::move(d), std::memory_order_release);
  }
  EMBER_POOLED_ALLOCATION(StorageImpl)

 private:
  DataPtr data_;
  size_t nbytes_;
  std::atomic<uint32_t> version_{0};
  mutable std::atomic<std::shared_ptr<const DerivedData>> derived_;
};

// The handle tensors hold: a reference-counted pointer that also answers LibTorch's
// c10::Storage calls (`t.storage().data()`, `nbytes()`, `is_alias_of`).
class Storage : public IntrusivePtr<StorageImpl> {
 public:
  using IntrusivePtr<StorageImpl>::IntrusivePtr;
  Storage() = default;
  Storage(IntrusivePtr<StorageImpl> p) : IntrusivePtr<StorageImpl>(std::move(p)) {}  // NOLINT
  void* data() const { return get()->data(); }
  size_t nbytes() const { return get()->nbytes(); }
  bool is_alias_of(const Storage& other) const { return get() == other.get(); }
  StorageImpl* unsafeGetStorageImpl() const { return get(); }
};

}  // namespace torch
