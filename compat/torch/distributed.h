#pragma once
// torch::distributed is ember::distributed (one namespace, two spellings).
#include <ember/distributed.h>
