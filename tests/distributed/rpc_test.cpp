// RPC on 2 (and 3) processes: rpc_sync / rpc_async / remote + RRef on
// registered functions, errors and timeouts, RRef deletion, graceful
// shutdown; distributed autograd across the RPC boundary (gradients equal
// those of the same computation done locally) and DistributedOptimizer.
#include <gtest/gtest.h>

#include <thread>

#include "common/test_util.h"
#include "ember/distributed/rpc/agent.h"
#include "ember/distributed/rpc/api.h"
#include "ember/distributed/rpc/dist_autograd.h"
#include "ember/distributed/rpc/distributed_optimizer.h"
#include "ember/torch.h"
#include "multiprocess.h"

namespace dist = ember::distributed;
namespace rpc = dist::rpc;
namespace dist_autograd = dist::autograd;
using namespace std::chrono_literals;
using dist::Object;
using ember::Tensor;

namespace {

void run(const std::string& worker, int world = 2) {
  ember_dist_test::Launch l;
  l.world_size = world;
  ember_dist_test::expect_all_passed(ember_dist_test::run_ranks(worker, l));
}

void register_test_functions() {
  rpc::register_function("add", [](const Object::List& a, const Object::Dict&) {
    return Object(a.at(0).to_tensor() + a.at(1).to_tensor());
  });
  rpc::register_function("greet", [](const Object::List& a, const Object::Dict& kw) {
    std::string who = kw.count("who") ? kw.at("who").to_string() : "nobody";
    return Object(rpc::get_worker_info().name + " greets " + who + " x" + std::to_string(a.at(0).to_int()));
  });
  rpc::register_function("fail", [](const Object::List&, const Object::Dict&) -> Object {
    throw std::runtime_error("boom from the callee");
  });
  rpc::register_function("sleep", [](const Object::List& a, const Object::Dict&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(a.at(0).to_int()));
    return Object(true);
  });
  rpc::register_function("make", [](const Object::List& a, const Object::Dict&) {
    return Object(ember::full({2, 2}, a.at(0).to_double()));
  });
  rpc::register_function("owned", [](const Object::List&, const Object::Dict&) {
    return Object(static_cast<int64_t>(rpc::detail::Agent::get()->num_owned_rrefs()));
  });
  // Differentiable: (w * c).sum() with w received from the caller.
  rpc::register_function("mul_sum", [](const Object::List& a, const Object::Dict& kw) {
    Tensor s = (a.at(0).to_tensor() * a.at(1).to_tensor()).sum();
    if (kw.count("extra")) s = s + kw.at("extra").to_tensor().sum();  // a tracked keyword tensor
    return Object(s);
  });
  // A parameter owned here, and a function of it: (p * x).sum() * scale_from_caller.
  rpc::register_function(
      "make_param", [](const Object::List&, const Object::Dict&) { return Object(ember::ones({3}).requires_grad_()); });
  rpc::register_function("dot_param", [](const Object::List& a, const Object::Dict&) {
    Tensor p = rpc::local_rref_value(a.at(0).to_int()).to_tensor();
    return Object((p * a.at(1).to_tensor()).sum());
  });
  rpc::register_function("grad_of_param", [](const Object::List& a, const Object::Dict&) {
    Tensor p = rpc::local_rref_value(a.at(0).to_int()).to_tensor();
    return Object(dist_autograd::get_gradients(a.at(1).to_int())[p]);
  });
  // An RRef passed as an argument: its value, fetched wherever this runs.
  rpc::register_function("rref_value", [](const Object::List& a, const Object::Dict&) {
    rpc::RRef r = rpc::RRef::from_object(a.at(0));
    return r.is_owner() ? r.local_value() : r.to_here();
  });
  dist::optim::register_optimizer_class("sgd",
                                        dist::optim::optimizer_class<ember::optim::SGD>(ember::optim::SGDOptions(0.1)));
}

}  // namespace

TEST(RPC, SyncAsyncRemoteAndErrors) { run("RpcBasics"); }
DIST_WORKER(RpcBasics) {
  register_test_functions();
  int r = ember_dist_test::worker_rank();
  rpc::init_rpc("worker" + std::to_string(r), std::nullopt, std::nullopt, rpc::TensorPipeRpcBackendOptions(4, 10000ms));
  EXPECT_EQ(rpc::get_worker_info().name, "worker" + std::to_string(r));
  EXPECT_EQ(rpc::get_worker_info("worker1").id, 1);
  if (r == 0) {
    Tensor a = ember::randn({3}), b = ember::randn({3});
    EXPECT_TENSOR_CLOSE(rpc::rpc_sync("worker1", "add", {a, b}).to_tensor(), a + b);
    EXPECT_EQ(rpc::rpc_sync(1, "greet", {Object(3)}, {{"who", Object("w0")}}).to_string(), "worker1 greets w0 x3");
    auto fut = rpc::rpc_async("worker1", "add", {a, a});
    auto doubled = fut.then([](const Object& o) { return Object(o.to_tensor() * 2); });
    EXPECT_TENSOR_CLOSE(doubled.wait().to_tensor(), a * 4);
    EXPECT_TRUE(fut.done());
    EXPECT_EMBER_ERROR(rpc::rpc_sync("worker1", "fail"), "worker1", "boom from the callee");
    EXPECT_EMBER_ERROR(rpc::rpc_sync("worker1", "nope"), "no function named 'nope'");
    EXPECT_EMBER_ERROR(rpc::rpc_sync("worker9", "add"), "Unknown destination worker worker9");
    EXPECT_EMBER_ERROR(rpc::rpc_sync("worker1", "sleep", {Object(400)}, {}, 100ms), "timeout");
    // A call to itself goes the same way.
    EXPECT_EQ(rpc::rpc_sync("worker0", "greet", {Object(1)}).to_string(), "worker0 greets nobody x1");

    rpc::RRef rref = rpc::remote("worker1", "make", {Object(2.5)});
    EXPECT_EQ(rref.owner_name(), "worker1");
    EXPECT_FALSE(rref.is_owner());
    EXPECT_TENSOR_CLOSE(rref.to_here().to_tensor(), ember::full({2, 2}, 2.5));
    EXPECT_TRUE(rref.confirmed_by_owner());
    EXPECT_EMBER_ERROR(rref.local_value(), "local_value", "worker1");
    EXPECT_EQ(rpc::rpc_sync("worker1", "owned").to_int(), 1);
    rref = rpc::RRef();  // the last user copy: the owner deletes the value
    for (int i = 0; i < 200 && rpc::rpc_sync("worker1", "owned").to_int() != 0; ++i) std::this_thread::sleep_for(5ms);
    EXPECT_EQ(rpc::rpc_sync("worker1", "owned").to_int(), 0);
    rpc::RRef mine = rpc::remote("worker0", "make", {Object(1.0)});
    EXPECT_TRUE(mine.is_owner());
    EXPECT_TENSOR_CLOSE(mine.local_value().to_tensor(), ember::ones({2, 2}));
    rpc::RRef broken = rpc::remote("worker1", "fail");
    EXPECT_EMBER_ERROR(broken.to_here(), "boom from the callee");
    EXPECT_FALSE(broken.confirmed_by_owner());
  }
  rpc::shutdown();
  EXPECT_EMBER_ERROR(rpc::rpc_sync("worker1", "add"), "RPC has not been initialized");
}

TEST(RPC, DistAutogradAndDistributedOptimizer) { run("RpcAutograd"); }
DIST_WORKER(RpcAutograd) {
  register_test_functions();
  int r = ember_dist_test::worker_rank();
  rpc::init_rpc("worker" + std::to_string(r));
  if (r == 0) {
    ember::manual_seed(2);
    Tensor w = ember::randn({3}).requires_grad_(), c = ember::randn({3});
    {
      dist_autograd::context ctx;
      // loss = 3 * (w * c).sum() + (w * w).sum(), the first term computed on worker1.
      Tensor v = ember::randn({2}).requires_grad_();
      Tensor remote_part = rpc::rpc_sync("worker1", "mul_sum", {w, c}, {{"extra", v * 1}}).to_tensor();
      EXPECT_TRUE(remote_part.requires_grad());
      Tensor loss = remote_part * 3 + (w * w).sum();
      dist_autograd::backward(ctx, {loss});
      auto grads = dist_autograd::get_gradients(ctx);
      ASSERT_TRUE(grads.contains(w));
      EXPECT_TENSOR_CLOSE(grads[w], c * 3 + w.detach() * 2);
      ASSERT_TRUE(grads.contains(v));
      EXPECT_TENSOR_CLOSE(grads[v], ember::full({2}, 3.0));
      EXPECT_FALSE(w.grad().defined());  // accumulated in the context, not in .grad
    }
    // A parameter owned by worker1, used there; DistributedOptimizer steps it there.
    rpc::RRef param = rpc::remote("worker1", "make_param");
    dist::optim::DistributedOptimizer opt("sgd", {param});
    Tensor x = ember::tensor({1.0, 2.0, 3.0});
    for (int step = 0; step < 2; ++step) {
      dist_autograd::context ctx;
      Tensor out = rpc::rpc_sync("worker1", "dot_param", {Object(param.id()), Object(x)}).to_tensor();
      Tensor loss = out * out;
      dist_autograd::backward(ctx, {loss});
      Tensor p = param.to_here().to_tensor();
      Tensor want_grad = 2 * (p * x).sum() * x;
      EXPECT_TENSOR_CLOSE(rpc::rpc_sync("worker1", "grad_of_param", {Object(param.id()), Object(ctx.id())}).to_tensor(),
                          want_grad);
      opt.step(ctx);
      EXPECT_TENSOR_CLOSE(param.to_here().to_tensor(), p - 0.1 * want_grad);
    }
    // to_here inside a context is an RPC boundary too: the gradient reaches the owner's leaf.
    {
      dist_autograd::context ctx;
      Tensor p = param.to_here().to_tensor();
      EXPECT_TRUE(p.requires_grad());
      dist_autograd::backward(ctx, {(p * x).sum() * 2});
      EXPECT_TENSOR_CLOSE(rpc::rpc_sync("worker1", "grad_of_param", {Object(param.id()), Object(ctx.id())}).to_tensor(),
                          x * 2);
    }
    EXPECT_EMBER_ERROR(dist_autograd::get_gradients(12345), "Could not find autograd context");
  }
  rpc::shutdown();
}

TEST(RPC, ThreeWorkersGracefulShutdown) { run("RpcThree", 3); }
DIST_WORKER(RpcThree) {
  register_test_functions();
  int r = ember_dist_test::worker_rank();
  rpc::init_rpc("w" + std::to_string(r));
  // Every worker calls every other while they all shut down: graceful
  // shutdown serves the late calls before anyone stops.
  std::vector<rpc::Future> futs;
  for (int to = 0; to < 3; ++to) futs.push_back(rpc::rpc_async("w" + std::to_string(to), "sleep", {Object(50)}));
  rpc::shutdown(true);
  for (auto& f : futs) EXPECT_TRUE(f.wait().to_bool());
}

TEST(RPC, RRefPassedToAThirdWorker) { run("RpcFork", 3); }
DIST_WORKER(RpcFork) {
  register_test_functions();
  int r = ember_dist_test::worker_rank();
  rpc::init_rpc("w" + std::to_string(r));
  if (r == 0) {
    rpc::RRef rref = rpc::remote("w1", "make", {Object(4.0)});
    // w2 is a user of w1's value; w1 itself gets its own RRef back.
    EXPECT_TENSOR_CLOSE(rpc::rpc_sync("w2", "rref_value", {rref.to_object()}).to_tensor(), ember::full({2, 2}, 4.0));
    EXPECT_TENSOR_CLOSE(rpc::rpc_sync("w1", "rref_value", {rref.to_object()}).to_tensor(), ember::full({2, 2}, 4.0));
    EXPECT_EMBER_ERROR(rpc::RRef::from_object(Object(3)), "from_object", "int");
    rref = rpc::RRef();
    // Every copy is gone (w2's and w1's died with their calls): the owner frees the value.
    int64_t owned = -1;
    for (int i = 0; i < 200 && (owned = rpc::rpc_sync("w1", "owned").to_int()) != 0; ++i)
      std::this_thread::sleep_for(5ms);
    EXPECT_EQ(owned, 0);
  }
  rpc::shutdown();
}
