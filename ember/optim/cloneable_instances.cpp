// The one copy of each built-in optimizer's cloneable options and state (Note
// [One instantiation per built-in optimizer] in optim/optimizer.h).
#define EMBER_OPTIM_CLONEABLE_INSTANCE(Base, Type) template class ::ember::optim::Base<Type>
#include "ember/optim.h"
