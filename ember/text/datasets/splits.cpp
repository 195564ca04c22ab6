#include "ember/text/datasets/splits.h"

#include "ember/core/error.h"

namespace torch::text::datasets::detail {

void check_split(const char* dataset, const std::string& split, std::initializer_list<const char*> splits) {
  std::string names;
  for (const char* s : splits) {
    if (split == s) return;
    names += names.empty() ? "" : ", ";
    names += s;
  }
  EMBER_CHECK(false, dataset, ": split '", split, "' is not one of ", names);
}

std::string dataset_dir(const std::string& root, const char* dataset) { return root + "/datasets/" + dataset; }

}  // namespace torch::text::datasets::detail
