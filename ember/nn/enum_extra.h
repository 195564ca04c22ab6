#pragma once
// TEMPORARY during development: tags to be merged into ember/nn/enum.h.
#include "ember/nn/enum.h"

namespace ember {
EMBER_ENUM_TAG(GELU)
EMBER_ENUM_TAG(Nearest)
EMBER_ENUM_TAG(Bilinear)
EMBER_ENUM_TAG(Bicubic)
EMBER_ENUM_TAG(Trilinear)
EMBER_ENUM_TAG(Area)
EMBER_ENUM_TAG(NearestExact)
}  // namespace ember
