#include "ember/distributed/gloo/trusted_shapes.h"

namespace torch::distributed::gloo_detail {
namespace {
thread_local bool t_trusted = false;
}  // namespace

TrustedShapes::TrustedShapes() : previous_(t_trusted) { t_trusted = true; }
TrustedShapes::~TrustedShapes() { t_trusted = previous_; }
bool TrustedShapes::active() { return t_trusted; }

}  // namespace torch::distributed::gloo_detail
