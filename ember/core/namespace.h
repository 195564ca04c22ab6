#pragma once
// Note [One namespace, two spellings]
// Ember's entities live in the real namespace `torch`; `ember` is an alias of it, so
// `ember::Tensor` and `torch::Tensor` are the same class, and so are `ember::nn::Linear` and
// `torch::nn::Linear`. The real namespace carries LibTorch's name because C++ cannot reopen a
// namespace through an alias: LibTorch programs and extensions write `namespace torch { namespace
// nn { ... } }` (custom modules, test helpers, specialisations), and that must add to the very
// namespace Ember's modules are in. Ember's own sources therefore open `namespace torch`, and
// everything else — Ember's documentation, its tests, its users — may spell it `ember::`.
// `at` and `c10` (compat/, ember/torch.h) are real namespaces too, each a using-directive
// of `torch`, so they can be reopened as well without naming a second set of entities.
namespace torch {}
namespace ember = torch;
