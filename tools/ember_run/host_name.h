#pragma once
#include <string>

namespace ember_run {

// Python's socket.getfqdn(): what torchrun reports as a failure's host and,
// with --standalone, publishes as MASTER_ADDR.
std::string fq_hostname();

}  // namespace ember_run
