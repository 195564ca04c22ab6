#pragma once
// torchtext:: names the same namespace as ember::text (DOMAIN_API.md).
#include <ember/text.h>

namespace torchtext = ::torch::text;
