// The one copy of each built-in module's Cloneable base (Note [One
// instantiation per built-in module] in nn/cloneable.h): with the macro defined
// as an explicit instantiation definition, every EMBER_NN_MODULE line of the
// module headers instantiates its Cloneable<NameImpl> here.
#define EMBER_NN_CLONEABLE_INSTANCE(Impl) template class ::ember::nn::Cloneable<Impl>
#include "ember/nn/modules.h"
