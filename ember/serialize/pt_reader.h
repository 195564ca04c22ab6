#pragma once
// Reading PyTorch checkpoints (.pt/.pth from torch.save) without Python and
// without executing anything: the zip format of torch >= 1.6 and the legacy
// pickle-stream format (_use_new_zipfile_serialization=False).
#include <string>
#include <string_view>

#include "ember/serialize/safetensors.h"

namespace torch::serialize {

// The tensors of a checkpoint, in file order, with nested dicts/lists
// flattened to dotted names (a state_dict keeps PyTorch's names, e.g.
// "0.weight", "1.running_mean"). Non-tensor values are skipped. Tensors that
// shared a storage in Python share it here. Throws ember::Error naming the
// file and the problem for anything malformed or not allowed (see
// Note [Restricted unpickler]).
NamedTensors load_pytorch_state_dict(const std::string& path);
NamedTensors load_pytorch_state_dict_from_buffer(std::string_view bytes, const std::string& source = "<buffer>");

}  // namespace torch::serialize
