#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/script.h>. TorchScript is
// not part of Ember (docs/compat.md); the header gives the rest of what it brings (the whole
// of <torch/torch.h>), and a program that calls into TorchScript stops at that call with a
// message saying so, not at the include.
#include <torch/ember_prelude.h>

namespace torch::jit {
namespace detail {
template <class... A>
inline constexpr bool no_torchscript = false;
}  // namespace detail
// torch::jit::load: TorchScript modules cannot be loaded; load a state dict or a safetensors
// file into the nn::Module instead (ember/serialize.h).
template <class... A>
void load(A&&...) {
  static_assert(detail::no_torchscript<A...>,
                "torch::jit::load: Ember has no TorchScript; save the model's state_dict (torch.save / "
                "safetensors) and load it into the C++ module (ember/serialize.h)");
}
}  // namespace torch::jit
