#pragma once
// Note [Trusted shapes]
// A caller that knows every rank issues the same collective on the same
// shapes marks it with TrustedShapes, and the Gloo group skips its header
// exchange (Note [Collective header check]) for the collectives this thread
// issues meanwhile: one round trip less each. DDP's default bucket all_reduce
// is one: the buckets are built from rank 0's order after the parameters'
// coalesced broadcast was header-checked, and joined ranks shadow the same
// calls (they mark them too). Every rank must mark the same calls.
#include "ember/core/namespace.h"

namespace torch::distributed::gloo_detail {

class TrustedShapes {
 public:
  TrustedShapes();
  ~TrustedShapes();
  TrustedShapes(const TrustedShapes&) = delete;
  TrustedShapes& operator=(const TrustedShapes&) = delete;
  static bool active();

 private:
  bool previous_;
};

}  // namespace torch::distributed::gloo_detail
