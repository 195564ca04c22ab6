// Module::save / Module::load: a module's parameters, buffers and children
// written into an archive under their own names; nested archives flatten to
// dotted keys, so the file's tensor names are PyTorch's state_dict names
// ("conv1.weight", "bn.running_mean", "layer1.0.conv1.weight").
#include "ember/core/error.h"
#include "ember/nn/module.h"
#include "ember/serialize/archive.h"

namespace torch::nn {

void Module::save(serialize::OutputArchive& archive) const {
  for (const auto& p : parameters_)
    if (p.value().defined()) archive.write(p.key(), p.value());
  for (const auto& b : buffers_)
    if (b.value().defined()) archive.write(b.key(), b.value(), /*is_buffer=*/true);
  for (const auto& c : children_) {
    if (!c.value()->is_serializable()) continue;
    serialize::OutputArchive child;
    c.value()->save(child);
    archive.write(c.key(), child);
  }
}

void Module::load(serialize::InputArchive& archive) {
  // read() copies into the existing tensors (shape checked), so handles such
  // as `fc->weight` and an optimizer's parameter list stay valid.
  for (auto& p : parameters_)
    if (p.value().defined()) archive.read(p.key(), p.value());
  for (auto& b : buffers_)
    if (b.value().defined()) archive.read(b.key(), b.value(), /*is_buffer=*/true);
  for (auto& c : children_) {
    if (!c.value()->is_serializable()) continue;
    serialize::InputArchive child;
    if (archive.try_read(c.key(), child)) {
      c.value()->load(child);
    } else {
      // A child without tensors (ReLU, Dropout) writes nothing; one with tensors must be there.
      EMBER_CHECK(c.value()->parameters().empty() && c.value()->buffers().empty(), "Module::load: ", name(),
                  " has no entries for submodule '", c.key(), "' in the archive (No such serialized submodule: '",
                  archive.full_key(c.key()), "')");
    }
  }
}

}  // namespace torch::nn
