// Placeholder for Optimizer::save/load until ember/serialize lands: the
// serialization module replaces this file with the archive-based versions
// (built on Note [Optimizer state as named values]). Nothing calls them yet,
// but they must exist because they are virtual.
#include "ember/core/error.h"
#include "ember/optim/optimizer.h"

namespace ember::optim {

void Optimizer::save(serialize::OutputArchive&) const {
  EMBER_CHECK(false, "Optimizer::save: optimizer serialization is not available yet");
}

void Optimizer::load(serialize::InputArchive&) {
  EMBER_CHECK(false, "Optimizer::load: optimizer serialization is not available yet");
}

}  // namespace ember::optim
