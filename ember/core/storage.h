#pragma once
// Storage: the bytes behind one or more tensors, plus the version counter that
// every view of these bytes shares (autograd uses it to detect in-place
// changes to saved tensors).
#include <atomic>
#include <cstddef>

#include "ember/core/allocator.h"
#include "ember/core/intrusive_ptr.h"
#include "ember/core/object_pool.h"

namespace ember {

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
  EMBER_POOLED_ALLOCATION(StorageImpl)

 private:
  DataPtr data_;
  size_t nbytes_;
  std::atomic<uint32_t> version_{0};
};

using Storage = IntrusivePtr<StorageImpl>;

}  // namespace ember
