#pragma once
// The process's registry of RPC functions by name (Note [RPC design]).
#include <string>

#include "ember/distributed/rpc/api.h"

namespace torch::distributed::rpc::detail {
// The function registered under name; raises naming it when there is none.
Function lookup_function(const std::string& name);
}  // namespace torch::distributed::rpc::detail
