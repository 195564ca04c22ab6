#pragma once
// ember::data (torch::data): datasets, transforms, samplers and the DataLoader.
#include "ember/data/dataloader.h"
#include "ember/data/dataloader_options.h"
#include "ember/data/datasets.h"
#include "ember/data/example.h"
#include "ember/data/iterator.h"
#include "ember/data/samplers.h"
#include "ember/data/transforms.h"
#include "ember/data/worker_exception.h"
// The progress bar is a general utility; it is exported here because it
// is mostly used around DataLoader loops.
#include "ember/utils/progress_bar.h"

// As LibTorch's torch/data.h, torch::data names the two dataset bases directly
// (`struct MyData : torch::data::Dataset<MyData>`).
namespace torch::data {
using datasets::BatchDataset;
using datasets::Dataset;
}  // namespace torch::data
