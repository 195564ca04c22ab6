#pragma once
// SharedBatchDataset: a dataset held through a shared_ptr, so copies (one
// per DataLoader worker) all reach one underlying dataset. That dataset's
// get_batch must then be safe to call from several threads at once.
#include <memory>
#include <optional>
#include <utility>

#include "ember/data/datasets/base.h"

namespace torch::data::datasets {

template <typename UnderlyingDataset>
class SharedBatchDataset
    : public BatchDataset<SharedBatchDataset<UnderlyingDataset>, typename UnderlyingDataset::BatchType,
                          typename UnderlyingDataset::BatchRequestType> {
 public:
  using BatchType = typename UnderlyingDataset::BatchType;
  using BatchRequestType = typename UnderlyingDataset::BatchRequestType;

  explicit SharedBatchDataset(std::shared_ptr<UnderlyingDataset> shared_dataset) : dataset_(std::move(shared_dataset)) {
    EMBER_CHECK(dataset_, "SharedBatchDataset: expected a non-null dataset");
  }

  BatchType get_batch(BatchRequestType request) override { return dataset_->get_batch(std::move(request)); }
  std::optional<size_t> size() const override { return dataset_->size(); }

  UnderlyingDataset& operator*() { return *dataset_; }
  const UnderlyingDataset& operator*() const { return *dataset_; }
  UnderlyingDataset* operator->() { return dataset_.get(); }
  const UnderlyingDataset* operator->() const { return dataset_.get(); }

  void reset() { dataset_->reset(); }

 private:
  std::shared_ptr<UnderlyingDataset> dataset_;
};

template <typename UnderlyingDataset, typename... Args>
SharedBatchDataset<UnderlyingDataset> make_shared_dataset(Args&&... args) {
  return SharedBatchDataset<UnderlyingDataset>(std::make_shared<UnderlyingDataset>(std::forward<Args>(args)...));
}

}  // namespace torch::data::datasets
