#include "ember/vision/models/feature_extraction.h"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>
#include <typeinfo>

#include "ember/core/error.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/efficientnet.h"
#include "ember/vision/models/mobilenetv2.h"
#include "ember/vision/models/mobilenetv3.h"
#include "ember/vision/models/regnet.h"
#include "ember/vision/models/resnet.h"
#include "ember/vision/ops/stochastic_depth.h"

namespace torch::vision::models::feature_extraction {

namespace {

std::string join(const std::string& scope, const std::string& name) {
  return scope.empty() ? name : scope + "." + name;
}

// Note [Tracing without FX]: an architecture's forward is written once below
// against this tracer, which names every node as torchvision's NodePathTracer
// does. When listing names it computes nothing (every value stays undefined);
// when extracting it computes, keeps the wanted values and lets the walk stop
// once it has them all.
class Tracer {
 public:
  Tracer(bool execute, std::set<std::string> wanted) : execute_(execute), wanted_(std::move(wanted)) {}

  // is_module: the node calls the module at qualname (else a function in a forward).
  Tensor node(const std::string& qualname, const std::function<Tensor()>& f, bool is_module = true) {
    if (done()) return {};
    std::string name = qualname;
    const int count = counts_[qualname]++;
    if (count > 0) name += "_" + std::to_string(count);
    names.push_back(name);
    modules.push_back(is_module ? qualname : std::string());
    Tensor y = execute_ ? f() : Tensor();
    if (wanted_.count(name) != 0) values[name] = y;
    return y;
  }
  // A function or operator (add, flatten, ...) called in the forward of the module at `scope`.
  Tensor op(const std::string& scope, const std::string& fn, const std::function<Tensor()>& f) {
    return node(join(scope, fn), f, false);
  }
  // All wanted values are in (never while listing names).
  bool done() const { return execute_ && values.size() == wanted_.size(); }

  std::vector<std::string> names;
  // Per node, the qualified name of the module it calls, or empty.
  std::vector<std::string> modules;
  std::map<std::string, Tensor> values;

 private:
  bool execute_;
  std::set<std::string> wanted_;
  std::map<std::string, int> counts_;
};

Tensor trace(Tracer& t, const std::shared_ptr<nn::Module>& m, const std::string& q, const Tensor& x,
             const nn::AnyModule* any);

Tensor leaf(Tracer& t, const nn::AnyModule& m, const std::string& q, const Tensor& x) {
  return t.node(q, [&] { return nn::AnyModule(m).forward<Tensor>(x); });
}

Tensor sequential(Tracer& t, nn::SequentialImpl& seq, const std::string& q, Tensor x) {
  const auto children = seq.named_children();
  size_t i = 0;
  for (auto it = seq.begin(); it != seq.end() && !t.done(); ++it, ++i) {
    x = trace(t, it->ptr(), join(q, children[i].key()), x, &*it);
  }
  return x;
}

Tensor sequential(Tracer& t, const nn::Sequential& seq, const std::string& q, const Tensor& x) {
  return sequential(t, *seq.ptr(), q, x);
}

template <typename Block>
Tensor resnet_block(Tracer& t, Block& b, const std::string& q, const Tensor& x) {
  Tensor out = t.node(join(q, "conv1"), [&] { return b.conv1(x); });
  out = leaf(t, b.bn1, join(q, "bn1"), out);
  out = leaf(t, b.relu, join(q, "relu"), out);
  out = t.node(join(q, "conv2"), [&] { return b.conv2(out); });
  out = leaf(t, b.bn2, join(q, "bn2"), out);
  if constexpr (std::is_same_v<Block, BottleneckImpl>) {
    out = leaf(t, b.relu, join(q, "relu"), out);
    out = t.node(join(q, "conv3"), [&] { return b.conv3(out); });
    out = leaf(t, b.bn3, join(q, "bn3"), out);
  }
  const Tensor identity = b.downsample ? sequential(t, *b.downsample, join(q, "downsample"), x) : x;
  out = t.op(q, "add", [&] { return out + identity; });
  return leaf(t, b.relu, join(q, "relu"), out);
}

Tensor resnet(Tracer& t, ResNetImpl& m, const std::string& q, const Tensor& x) {
  Tensor y = t.node(join(q, "conv1"), [&] { return m.conv1(x); });
  y = leaf(t, m.bn1, join(q, "bn1"), y);
  y = leaf(t, m.relu, join(q, "relu"), y);
  y = leaf(t, m.maxpool, join(q, "maxpool"), y);
  y = sequential(t, m.layer1, join(q, "layer1"), y);
  y = sequential(t, m.layer2, join(q, "layer2"), y);
  y = sequential(t, m.layer3, join(q, "layer3"), y);
  y = sequential(t, m.layer4, join(q, "layer4"), y);
  y = leaf(t, m.avgpool, join(q, "avgpool"), y);
  y = t.op(q, "flatten", [&] { return y.flatten(1); });
  return t.node(join(q, "fc"), [&] { return m.fc(y); });
}

// features, pooling, flatten and classifier: MobileNetV3 and EfficientNet.
template <typename Model>
Tensor features_avgpool_classifier(Tracer& t, Model& m, const std::string& q, const Tensor& x) {
  Tensor y = sequential(t, m.features, join(q, "features"), x);
  y = t.node(join(q, "avgpool"), [&] { return m.avgpool(y); });
  y = t.op(q, "flatten", [&] { return y.flatten(1); });
  return sequential(t, m.classifier, join(q, "classifier"), y);
}

Tensor mobilenet_v2(Tracer& t, MobileNetV2Impl& m, const std::string& q, const Tensor& x) {
  Tensor y = sequential(t, m.features, join(q, "features"), x);
  y = t.op(q, "adaptive_avg_pool2d", [&] { return adaptive_avg_pool2d(y, {1, 1}); });
  y = t.op(q, "flatten", [&] { return y.flatten(1); });
  return sequential(t, m.classifier, join(q, "classifier"), y);
}

Tensor regnet(Tracer& t, RegNetImpl& m, const std::string& q, const Tensor& x) {
  Tensor y = t.node(join(q, "stem"), [&] { return m.stem->forward(x); });
  y = sequential(t, m.trunk_output, join(q, "trunk_output"), y);
  y = t.node(join(q, "avgpool"), [&] { return m.avgpool(y); });
  y = t.op(q, "flatten", [&] { return y.flatten(1); });
  return t.node(join(q, "fc"), [&] { return m.fc(y); });
}

Tensor res_bottleneck(Tracer& t, ResBottleneckBlockImpl& b, const std::string& q, const Tensor& x) {
  Tensor y;
  if (b.proj) {
    const Tensor p = t.node(join(q, "proj"), [&] { return (*b.proj)->forward(x); });
    const Tensor f = sequential(t, b.f, join(q, "f"), x);
    y = t.op(q, "add", [&] { return p + f; });
  } else {
    const Tensor f = sequential(t, b.f, join(q, "f"), x);
    y = t.op(q, "add", [&] { return x + f; });
  }
  return leaf(t, b.activation, join(q, "activation"), y);
}

// Any module: the architectures and blocks above are traced through,
// Sequential containers by their children; everything else is a leaf
// (torch.nn layers and torchvision.ops modules, as in torchvision).
Tensor trace(Tracer& t, const std::shared_ptr<nn::Module>& m, const std::string& q, const Tensor& x,
             const nn::AnyModule* any) {
  if (t.done()) return {};
  if (auto* r = m->as<ResNetImpl>()) return resnet(t, *r, q, x);
  if (auto* b = m->as<BasicBlockImpl>()) return resnet_block(t, *b, q, x);
  if (auto* b = m->as<BottleneckImpl>()) return resnet_block(t, *b, q, x);
  if (auto* v2 = m->as<MobileNetV2Impl>()) return mobilenet_v2(t, *v2, q, x);
  if (auto* ir = m->as<mobilenetv2::InvertedResidualImpl>()) {
    if (!ir->use_res_connect) return sequential(t, ir->conv, join(q, "conv"), x);
    const Tensor y = sequential(t, ir->conv, join(q, "conv"), x);
    return t.op(q, "add", [&] { return x + y; });
  }
  if (auto* v3 = m->as<MobileNetV3Impl>()) return features_avgpool_classifier(t, *v3, q, x);
  if (auto* ir = m->as<mobilenetv3::InvertedResidualImpl>()) {
    const Tensor y = sequential(t, ir->block, join(q, "block"), x);
    return ir->use_res_connect ? t.op(q, "add", [&] { return y + x; }) : y;
  }
  if (auto* e = m->as<EfficientNetImpl>()) return features_avgpool_classifier(t, *e, q, x);
  if (auto* mb = m->as<MBConvImpl>()) {
    Tensor y = sequential(t, mb->block, join(q, "block"), x);
    if (!mb->use_res_connect) return y;
    y = t.node(join(q, "stochastic_depth"), [&] { return mb->stochastic_depth(y); });
    return t.op(q, "add", [&] { return y + x; });
  }
  if (auto* rg = m->as<RegNetImpl>()) return regnet(t, *rg, q, x);
  if (auto* rb = m->as<ResBottleneckBlockImpl>()) return res_bottleneck(t, *rb, q, x);
  // Exactly a Sequential: torchvision.ops containers derived from it (Conv2dNormActivation, MLP) are leaves.
  const nn::Module& module = *m;
  if (typeid(module) == typeid(nn::SequentialImpl)) return sequential(t, *m->as<nn::SequentialImpl>(), q, x);
  EMBER_CHECK(any != nullptr, "create_feature_extractor: cannot trace module '", q, "' of type ", m->name());
  return leaf(t, *any, q, x);
}

// The whole model: "x", then its forward's nodes.
Tracer run(const std::shared_ptr<nn::Module>& model, bool execute, std::set<std::string> wanted, const Tensor& x) {
  EMBER_CHECK(model != nullptr, "create_feature_extractor: model is null");
  Tracer t(execute, std::move(wanted));
  const Tensor input = t.node("x", [&] { return x; }, false);
  trace(t, model, "", input, nullptr);
  return t;
}

}  // namespace

ReturnNodes::ReturnNodes(std::vector<std::string> names) {
  for (auto& n : names) nodes.emplace_back(n, n);
}

ReturnNodes::ReturnNodes(std::initializer_list<std::string> names) : ReturnNodes(std::vector<std::string>(names)) {}

ReturnNodes::ReturnNodes(const std::map<std::string, std::string>& names) {
  for (const auto& [node, out] : names) nodes.emplace_back(node, out);
}

std::tuple<std::vector<std::string>, std::vector<std::string>> get_graph_node_names(
    const std::shared_ptr<nn::Module>& model) {
  std::vector<std::string> names = run(model, false, {}, Tensor()).names;
  return {names, names};
}

namespace {

// Registers `leaf` under root at the dotted path, creating the plain modules
// between (as torch.fx's GraphModule copies only the submodules its graph calls).
void attach(nn::Module& root, const std::string& path, const std::shared_ptr<nn::Module>& leaf) {
  nn::Module* parent = &root;
  size_t start = 0;
  for (size_t dot = path.find('.'); dot != std::string::npos; start = dot + 1, dot = path.find('.', start)) {
    const std::string part = path.substr(start, dot - start);
    const auto children = parent->named_children();
    const std::shared_ptr<nn::Module>* child = children.find(part);
    parent = child != nullptr ? child->get()
                              : parent->register_module(part, std::make_shared<nn::Module>("Module")).get();
  }
  parent->register_module(path.substr(start), leaf);
}

}  // namespace

FeatureExtractorImpl::FeatureExtractorImpl(std::shared_ptr<nn::Module> model_, ReturnNodes return_nodes_)
    : model(std::move(model_)), return_nodes(std::move(return_nodes_)) {
  // Note [Feature extractor pruning]: as torchvision's graph pruning, the
  // extractor holds only the modules its nodes call up to the last requested
  // one, and forward stops there (Tracer::done), so nothing after it runs and
  // state_dict() has only the keys the extractor uses.
  const Tracer listing = run(model, false, {}, Tensor());
  size_t last = 0;
  for (const auto& item : return_nodes.nodes) {
    auto it = std::find(listing.names.begin(), listing.names.end(), item.first);
    EMBER_CHECK(it != listing.names.end(), "create_feature_extractor: node '", item.first,
                "' is not present in model");
    last = std::max(last, static_cast<size_t>(it - listing.names.begin()));
  }
  const auto named = model->named_modules();
  std::set<std::string> attached;
  for (size_t i = 0; i <= last; ++i) {
    const std::string& q = listing.modules[i];
    if (q.empty() || !attached.insert(q).second) continue;
    const std::shared_ptr<nn::Module>* m = named.find(q);
    EMBER_CHECK(m != nullptr, "create_feature_extractor: no submodule '", q, "'");
    attach(*this, q, *m);
  }
  nn::Module::train(model->is_training());
}

void FeatureExtractorImpl::train(bool on) {
  nn::Module::train(on);
  model->train(on);
}

OrderedDict<std::string, Tensor> FeatureExtractorImpl::forward(const Tensor& x) {
  std::set<std::string> wanted;
  for (const auto& [node, out] : return_nodes.nodes) wanted.insert(node);
  Tracer t = run(model, true, wanted, x);
  OrderedDict<std::string, Tensor> out("Feature");
  for (const auto& [node, name] : return_nodes.nodes) out.insert(name, t.values.at(node));
  return out;
}

namespace {

// The first `parts` dot-separated components of name.
std::string truncate(const std::string& name, size_t parts) {
  size_t pos = 0;
  for (size_t i = 0; i < parts; ++i) {
    pos = name.find('.', pos);
    if (pos == std::string::npos) return name;
    if (i + 1 < parts) ++pos;
  }
  return name.substr(0, pos);
}

}  // namespace

FeatureExtractor create_feature_extractor(const std::shared_ptr<nn::Module>& model, ReturnNodes return_nodes) {
  EMBER_CHECK(!return_nodes.nodes.empty(), "create_feature_extractor: return_nodes must name at least one node");
  const auto [train_nodes, eval_nodes] = get_graph_node_names(model);
  std::set<std::string> outputs;
  // A query names a node, or a module: then the module's last node (torchvision's rule).
  for (auto& item : return_nodes.nodes) {
    std::string& query = item.first;
    const std::string& out = item.second;
    const size_t depth = static_cast<size_t>(std::count(query.begin(), query.end(), '.'));
    auto it = std::find_if(eval_nodes.rbegin(), eval_nodes.rend(),
                           [&](const std::string& n) { return truncate(n, depth + 1) == query; });
    if (it == eval_nodes.rend()) {
      std::ostringstream s;
      for (const auto& n : eval_nodes) s << " " << n;
      EMBER_CHECK(false, "create_feature_extractor: node '", query,
                  "' is not present in model. Its nodes are:", s.str());
    }
    EMBER_CHECK(outputs.insert(out).second, "create_feature_extractor: output name '", out, "' is given twice");
    query = *it;
  }
  return FeatureExtractor(model, std::move(return_nodes));
}

}  // namespace torch::vision::models::feature_extraction
