#pragma once
// The per-output-stream buffer of StreamReader, with torchaudio 0.13's rules:
// decoded audio is re-cut into chunks of frames_per_chunk frames (-1: pass
// each decoded piece through); at most buffer_chunk_size chunks are kept and
// the oldest frames are dropped beyond that (-1: keep everything).
#include <cstdint>
#include <deque>
#include <optional>

#include "ember/core/tensor.h"

namespace torch::audio::io::detail {

class ChunkBuffer {
 public:
  ChunkBuffer(int64_t frames_per_chunk, int64_t buffer_chunk_size)
      : frames_per_chunk_(frames_per_chunk), max_chunks_(buffer_chunk_size) {}

  // Appends [frames, channels] samples.
  void push(Tensor frames);
  // A whole chunk is buffered (any frame at all when frames_per_chunk is -1).
  bool is_ready() const;
  // The next chunk; a partial one at the end of the stream; nullopt when empty.
  std::optional<Tensor> pop();
  void clear();
  int64_t frames_per_chunk() const { return frames_per_chunk_; }

 private:
  int64_t frames_per_chunk_;
  int64_t max_chunks_;
  int64_t buffered_ = 0;
  std::deque<Tensor> chunks_;
};

}  // namespace torch::audio::io::detail
