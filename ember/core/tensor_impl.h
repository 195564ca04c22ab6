#pragma once
// TensorImpl: a strided view (sizes, strides, offset, dtype) onto a Storage,
// plus a slot for autograd metadata that the autograd layer fills in.
#include <memory>

#include "ember/core/device.h"
#include "ember/core/dtype.h"
#include "ember/core/small_vector.h"
#include "ember/core/storage.h"

namespace torch {

// Defined by ember/autograd; core only owns it.
struct AutogradMetaBase {
  virtual ~AutogradMetaBase() = default;
};

// Defined by ember/vmap (BatchedMeta): set only on the logical tensors a
// function sees inside vmap; core only owns it.
struct BatchedMetaBase {
  virtual ~BatchedMetaBase() = default;
};

class TensorImpl : public RefCounted {
 public:
  TensorImpl(Storage storage, ScalarType dtype, IntArrayRef sizes, IntArrayRef strides, int64_t offset);
  // A fresh row-major tensor whose element count `numel` the caller has
  // checked (empty_cpu): strides and contiguity are known, so the
  // small-op path skips computing a stride vector, copying it and re-checking it.
  struct Contiguous {};
  TensorImpl(Storage storage, ScalarType dtype, IntArrayRef sizes, int64_t numel, Contiguous);

  IntArrayRef sizes() const { return sizes_; }
  IntArrayRef strides() const { return strides_; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const { return numel_; }
  int64_t storage_offset() const { return offset_; }
  ScalarType dtype() const { return dtype_; }
  Device device() const { return kCPU; }
  bool is_contiguous() const { return contiguous_; }
  size_t itemsize() const { return itemsize_; }
  const Storage& storage() const { return storage_; }
  // Address of element [0, 0, ...].
  char* data() const { return static_cast<char*>(storage_->data()) + offset_ * itemsize_; }

  // Replaces the geometry (used by view-in-place ops such as squeeze_, resize_).
  void set_geometry(IntArrayRef sizes, IntArrayRef strides, int64_t offset);
  void set_storage(Storage s) { storage_ = std::move(s); }
  void set_dtype(ScalarType t) {
    dtype_ = t;
    itemsize_ = element_size(t);
  }

  uint32_t version() const { return storage_->version(); }
  void bump_version() { storage_->bump_version(); }
  void reset_version() { storage_->reset_version(); }  // StorageImpl::reset_version

  AutogradMetaBase* autograd_meta() const { return autograd_meta_.get(); }
  void set_autograd_meta(std::unique_ptr<AutogradMetaBase> m) { autograd_meta_ = std::move(m); }

  BatchedMetaBase* batched_meta() const { return batched_meta_.get(); }
  void set_batched_meta(std::unique_ptr<BatchedMetaBase> m) { batched_meta_ = std::move(m); }
  EMBER_POOLED_ALLOCATION(TensorImpl)

 private:
  void refresh();
  Storage storage_;
  DimVector sizes_, strides_;
  int64_t offset_ = 0;
  int64_t numel_ = 0;
  ScalarType dtype_;
  size_t itemsize_;
  bool contiguous_ = true;
  std::unique_ptr<AutogradMetaBase> autograd_meta_;
  std::unique_ptr<BatchedMetaBase> batched_meta_;
};

}  // namespace torch
