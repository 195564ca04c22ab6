#include "ember/audio/io/chunk_buffer.h"

#include <vector>

#include "ember/ops/shape/shape_ops.h"

namespace torch::audio::io::detail {

void ChunkBuffer::push(Tensor t) {
  if (t.size(0) == 0) return;
  if (frames_per_chunk_ < 0) {
    buffered_ += t.size(0);
    chunks_.push_back(std::move(t));
  } else {
    // The last chunk may be short; top it up before cutting new ones, so that
    // chunks stay aligned to frames_per_chunk.
    if (!chunks_.empty() && chunks_.back().size(0) < frames_per_chunk_) {
      Tensor prev = chunks_.back();
      chunks_.pop_back();
      buffered_ -= prev.size(0);
      t = cat({prev, t}, 0);
    }
    while (t.size(0) > frames_per_chunk_) {
      chunks_.push_back(t.narrow(0, 0, frames_per_chunk_).contiguous());
      buffered_ += frames_per_chunk_;
      t = t.narrow(0, frames_per_chunk_, t.size(0) - frames_per_chunk_);
    }
    buffered_ += t.size(0);
    chunks_.push_back(t.contiguous());
  }
  if (max_chunks_ > 0 && frames_per_chunk_ > 0) {
    while (buffered_ > max_chunks_ * frames_per_chunk_) {
      buffered_ -= chunks_.front().size(0);
      chunks_.pop_front();
    }
  }
}

bool ChunkBuffer::is_ready() const {
  if (frames_per_chunk_ < 0) return buffered_ > 0;
  return buffered_ >= frames_per_chunk_;
}

std::optional<Tensor> ChunkBuffer::pop() {
  if (buffered_ == 0) return std::nullopt;
  if (frames_per_chunk_ > 0) {
    Tensor t = chunks_.front();
    chunks_.pop_front();
    buffered_ -= t.size(0);
    return t;
  }
  std::vector<Tensor> all(chunks_.begin(), chunks_.end());
  chunks_.clear();
  buffered_ = 0;
  return all.size() == 1 ? all[0] : cat(all, 0);
}

void ChunkBuffer::clear() {
  chunks_.clear();
  buffered_ = 0;
}

}  // namespace torch::audio::io::detail
