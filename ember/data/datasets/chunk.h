#pragma once
// ChunkDataReader: the interface a chunked data source implements for LibTorch's ChunkDataset
// (torch/data/datasets/chunk.h): it reads whole chunks by index. Ember has the reader
// interface; the ChunkDataset that preloads chunks on threads is not built yet (docs/compat.md).
#include <cstddef>
#include <vector>

namespace torch::data::datasets {

template <typename ExampleType_, typename ChunkType_ = std::vector<ExampleType_>>
class ChunkDataReader {
 public:
  virtual ~ChunkDataReader() = default;
  using ChunkType = ChunkType_;
  using ExampleType = ExampleType_;

  // The examples of chunk `chunk_index`.
  virtual ChunkType read_chunk(size_t chunk_index) = 0;
  // How many chunks there are.
  virtual size_t chunk_count() = 0;
  // Back to the state before any read (a new epoch).
  virtual void reset() = 0;
};

}  // namespace torch::data::datasets
