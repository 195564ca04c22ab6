// OpInfo entry for VGG's feature stack (eval mode, float64): a composition of
// Ember's differentiable layers, so gradcheck and gradgradcheck through it
// check that the conv/BN/ReLU/pool chain composes. (SSDLite's extractor is
// the same layers; its gradcheck takes half a minute even at 8x8, so it has
// no entry.) The builders' full sizes are checked against torchvision by value.
#include "autograd/opinfo.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/vision/models/vgg.h"

namespace torch::testing {
namespace {

namespace models = vision::models;

OpInfo module_op(const char* name, std::function<Tensor(const variable_list&)> f, std::vector<int64_t> shape) {
  OpInfo o = single_output_op(name, std::move(f), {std::move(shape)}, -1, 1, 3611);
  o.forward_ad = false;  // modules are checked by reverse mode; forward mode is the layers' own entries
  return o;
}

std::function<Tensor(const variable_list&)> vgg_features() {
  nn::Sequential f = models::vgg::make_layers({4, "M", 6}, true);
  f->to(kDouble);
  f->eval();
  return [f](const variable_list& x) mutable { return f->forward(x[0]); };
}

RegisterOps reg({
    module_op("vision::models::vgg::make_layers(bn, eval)", vgg_features(), {1, 3, 6, 6}),
});

}  // namespace
}  // namespace torch::testing
