#include "ember/data/samplers/stream.h"

#include "ember/data/samplers/sampler_state.h"

namespace torch::data::samplers {

void StreamSampler::save(serialize::OutputArchive& archive) const {
  detail::write_count(archive, "examples_retrieved_so_far", examples_retrieved_so_far_);
}
void StreamSampler::load(serialize::InputArchive& archive) {
  examples_retrieved_so_far_ = detail::read_count(archive, "examples_retrieved_so_far");
}

}  // namespace torch::data::samplers
