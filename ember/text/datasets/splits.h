#pragma once
// Split names and dataset folders, as torchtext's _wrap_split_argument and
// _create_dataset_directory handle them.
#include <initializer_list>
#include <string>

namespace torch::text::datasets::detail {

// Raises naming the dataset, the split and the ones it has.
void check_split(const char* dataset, const std::string& split, std::initializer_list<const char*> splits);
// root/datasets/<dataset>, where torchtext keeps a dataset's files.
std::string dataset_dir(const std::string& root, const char* dataset);

}  // namespace torch::text::datasets::detail
