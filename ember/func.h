#pragma once
// ember::func: functorch-style function transforms (torch.func): grad,
// grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, and vmap re-exported.
#include "ember/func/grad.h"
#include "ember/func/hessian.h"
#include "ember/func/jacfwd.h"
#include "ember/func/jacrev.h"
#include "ember/func/jvp.h"
#include "ember/func/vjp.h"
