#pragma once
// ember::linalg (torch::linalg through the alias): LAPACK-backed linear
// algebra, batched over leading dims, differentiable (formulas in
// ember/linalg/linalg_grad.cpp). ember/linalg/torch_functions.h
// adds the torch.* spellings (torch::det, torch::inverse, torch::cholesky, ...).
#include "ember/linalg/factorizations.h"
#include "ember/linalg/misc.h"
#include "ember/linalg/norms.h"
#include "ember/linalg/spectral.h"
#include "ember/linalg/torch_functions.h"
