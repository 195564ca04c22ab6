// OpInfo entries for the samplers with a derivative (ember/ops/factory/distributions.cpp; formulas
// in ember/autograd/derivatives/factory_grad.cpp). Each entry draws from its own generator with a
// fixed seed, so the op is a deterministic function of its input for gradcheck. poisson's
// gradient is zero, and so is its finite difference: a draw does not change under gradcheck's
// perturbation of the rate. _standard_gamma is not here (coverage_test.cpp says why).
#include "opinfo.h"

namespace torch::testing {
namespace {

RegisterOps reg({
    single_output_op(
        "poisson", [](const variable_list& x) { return ember::poisson(x[0], make_generator(11)); }, {{3, 4}}, 0.5, 30,
        41),
});

}  // namespace
}  // namespace torch::testing
