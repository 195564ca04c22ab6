#include "ember/profiler/collector.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "ember/core/error.h"
#include "ember/core/record_scope.h"

namespace torch::profiler::detail {

std::atomic<uint32_t> g_state{0};
// What code outside libember reads instead of g_state (Note [Profiler hook cost]).
uint32_t exported_state_word() { return g_state.load(std::memory_order_relaxed); }

namespace {

// Note [Profiler buffers]
// Each thread appends to its own buffer; the buffer's mutex is uncontended
// except at the moment a session stops and copies it, so recording takes no
// shared lock. Scopes nest strictly per thread (RAII), so a thread-local stack
// of open scopes gives each event its parent, and a closing child adds its
// duration and net bytes to the parent: self time = total - children.
// Every active scope pushes an entry, recorded or not, and entries carry the
// session generation, so a scope that straddles a session boundary pops its
// own entry and never closes another session's event.
struct RawEvent {
  std::string name;
  int64_t start_ns = 0;
  int64_t end_ns = -1;
  int32_t parent = -1;
  int depth = 0;
  int64_t child_ns = 0;
  int64_t mem_start = 0;
  int64_t mem_total = 0;
  int64_t child_mem = 0;
  int64_t seq = -1;
  bool backward = false;
  bool annotation = false;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<void*> frames;
};

struct ThreadBuffer {
  std::mutex mu;
  uint64_t tid = 0;
  uint64_t generation = 0;
  std::vector<RawEvent> events;
};

struct Session {
  std::mutex mu;
  std::atomic<uint64_t> generation{1};
  bool running = false;
  std::atomic<bool> record_shapes{false};
  std::atomic<bool> with_stack{false};
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
};

Session& session() {
  static Session* s = new Session();  // leaked: threads may record during static destruction
  return *s;
}

struct OpenEntry {
  uint64_t generation;
  int32_t index;  // -1: the scope is not recorded
};

thread_local std::shared_ptr<ThreadBuffer> t_buf;
thread_local std::vector<OpenEntry> t_open;
thread_local int64_t t_mem = 0;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

uint64_t os_thread_id() {
  thread_local uint64_t tid = static_cast<uint64_t>(::syscall(SYS_gettid));
  return tid;
}

// The calling thread's buffer for the running session (registering it on
// first use), or nullptr when no session runs.
ThreadBuffer* buffer() {
  Session& s = session();
  const uint64_t gen = s.generation.load(std::memory_order_acquire);
  if (t_buf && t_buf->generation == gen) return t_buf.get();
  std::lock_guard<std::mutex> g(s.mu);
  if (!s.running || s.generation.load() != gen) return nullptr;
  auto b = std::make_shared<ThreadBuffer>();
  b->tid = os_thread_id();
  b->generation = gen;
  b->events.reserve(1024);
  s.buffers.push_back(b);
  t_buf = std::move(b);
  return t_buf.get();
}

RawEvent* top_recorded() {
  if (t_open.empty() || !t_buf) return nullptr;
  const OpenEntry& e = t_open.back();
  if (e.index < 0 || e.generation != t_buf->generation) return nullptr;
  return &t_buf->events[static_cast<size_t>(e.index)];
}

void begin(std::string name, int64_t seq, bool backward, bool annotation) {
  ThreadBuffer* b = buffer();
  if (b == nullptr) {
    t_open.push_back({0, -1});
    return;
  }
  RawEvent ev;
  ev.name = std::move(name);
  ev.seq = seq;
  ev.backward = backward;
  ev.annotation = annotation;
  ev.mem_start = t_mem;
  if (!t_open.empty() && t_open.back().generation == b->generation && t_open.back().index >= 0) {
    ev.parent = t_open.back().index;
    ev.depth = b->events[static_cast<size_t>(ev.parent)].depth + 1;
  }
  if (session().with_stack.load(std::memory_order_relaxed)) {
    void* frames[64];
    const int n = ::backtrace(frames, 64);
    ev.frames.assign(frames, frames + n);
  }
  std::lock_guard<std::mutex> g(b->mu);
  ev.start_ns = now_ns();  // last, so the bookkeeping above is not charged to the op
  b->events.push_back(std::move(ev));
  t_open.push_back({b->generation, static_cast<int32_t>(b->events.size() - 1)});
}

// --- stack symbolization ----------------------------------------------------

std::string demangle(const char* sym) {
  int status = 0;
  char* d = abi::__cxa_demangle(sym, nullptr, nullptr, &status);
  std::string r = (status == 0 && d != nullptr) ? d : sym;
  std::free(d);
  return r;
}

std::string symbolize(void* addr) {
  Dl_info info{};
  if (::dladdr(addr, &info) == 0) return str(addr);
  if (info.dli_sname != nullptr) return demangle(info.dli_sname);
  std::string obj = info.dli_fname != nullptr ? info.dli_fname : "?";
  if (auto slash = obj.rfind('/'); slash != std::string::npos) obj = obj.substr(slash + 1);
  char buf[32];
  std::snprintf(buf, sizeof buf, "+0x%zx",
                static_cast<size_t>(static_cast<char*>(addr) - static_cast<char*>(info.dli_fbase)));
  return obj + buf;
}

// The caller's frames: everything outside libember's object (the op and the
// profiler itself), innermost first. In a static build Ember and the program
// share one object, so the stack then starts at the profiler's own frames.
std::vector<std::string> caller_frames(const std::vector<void*>& frames,
                                       std::unordered_map<void*, std::string>& cache) {
  Dl_info self{};
  ::dladdr(reinterpret_cast<void*>(&begin_op), &self);
  std::vector<std::string> out;
  for (void* f : frames) {
    Dl_info info{};
    if (::dladdr(f, &info) != 0 && info.dli_fbase == self.dli_fbase) continue;
    auto it = cache.find(f);
    if (it == cache.end()) it = cache.emplace(f, symbolize(f)).first;
    out.push_back(it->second);
    if (out.size() >= 16) break;
  }
  if (out.empty())  // static build: keep what lies beyond the profiler's own two frames
    for (size_t i = 2; i < frames.size() && out.size() < 16; ++i) out.push_back(symbolize(frames[i]));
  return out;
}

}  // namespace

// --- the hook's out-of-line halves ----------------------------------------------

void begin_op(const char* name) {
  std::string n;
  n.reserve(6 + std::char_traits<char>::length(name));
  n.append("aten::").append(name);
  begin(std::move(n), -1, false, false);
}

void begin_named(std::string name, int64_t sequence_nr, bool backward) {
  begin(std::move(name), sequence_nr, backward, !backward);
}

bool wants_shapes() { return session().record_shapes.load(std::memory_order_relaxed); }

void add_input_shape(const Tensor& t) {
  RawEvent* e = top_recorded();
  if (e == nullptr) return;
  std::lock_guard<std::mutex> g(t_buf->mu);
  if (!t.defined()) {
    e->shapes.emplace_back();
    return;
  }
  IntArrayRef s = t.sizes();
  e->shapes.emplace_back(s.begin(), s.end());
}

void add_input_shapes(TensorList ts) {
  for (const Tensor& t : ts) add_input_shape(t);
}

void add_input_scalar() {
  RawEvent* e = top_recorded();
  if (e == nullptr) return;
  std::lock_guard<std::mutex> g(t_buf->mu);
  e->shapes.emplace_back();
}

void end_op() {
  if (t_open.empty()) return;
  const OpenEntry entry = t_open.back();
  t_open.pop_back();
  if (entry.index < 0 || !t_buf || t_buf->generation != entry.generation) return;
  const int64_t t = now_ns();
  std::lock_guard<std::mutex> g(t_buf->mu);
  RawEvent& e = t_buf->events[static_cast<size_t>(entry.index)];
  e.end_ns = t;
  e.mem_total = t_mem - e.mem_start;
  if (e.parent >= 0) {
    RawEvent& p = t_buf->events[static_cast<size_t>(e.parent)];
    p.child_ns += t - e.start_ns;
    p.child_mem += e.mem_total;
  }
}

void note_sequence_nr(uint64_t sequence_nr) {
  RawEvent* e = top_recorded();
  if (e == nullptr || e->seq >= 0 || e->backward) return;
  std::lock_guard<std::mutex> g(t_buf->mu);
  e->seq = static_cast<int64_t>(sequence_nr);
}

void note_memory(int64_t delta) { t_mem += delta; }

// --- sessions ---------------------------------------------------------------------

bool collecting() {
  Session& s = session();
  std::lock_guard<std::mutex> g(s.mu);
  return s.running;
}

void start_collecting(const CollectorOptions& opts) {
  Session& s = session();
  std::lock_guard<std::mutex> g(s.mu);
  EMBER_CHECK(!s.running, "profiler: a profile is already running (profiles cannot nest)");
  s.running = true;
  s.buffers.clear();
  s.record_shapes.store(opts.record_shapes);
  s.with_stack.store(opts.with_stack);
  s.generation.fetch_add(1, std::memory_order_acq_rel);
  set_allocator_memory_reporting(opts.profile_memory);
  // fetch_or/fetch_and: the word's vmap bit belongs to vmap.
  g_state.fetch_or(kRecordOps | (opts.profile_memory ? kRecordMemory : 0), std::memory_order_release);
}

EventList stop_collecting() {
  Session& s = session();
  std::vector<std::shared_ptr<ThreadBuffer>> buffers;
  const bool shapes = s.record_shapes.load();
  const bool stack = s.with_stack.load();
  const bool memory = (g_state.load() & kRecordMemory) != 0;
  {
    std::lock_guard<std::mutex> g(s.mu);
    if (!s.running) return {};
    g_state.fetch_and(~(kRecordOps | kRecordMemory), std::memory_order_release);
    set_allocator_memory_reporting(false);
    s.running = false;
    s.generation.fetch_add(1, std::memory_order_acq_rel);
    buffers.swap(s.buffers);
  }
  const int64_t stop = now_ns();

  struct Ref {
    size_t buf;
    int32_t idx;
  };
  std::vector<std::vector<RawEvent>> copies(buffers.size());
  std::vector<Ref> order;
  int64_t t0 = stop;
  for (size_t b = 0; b < buffers.size(); ++b) {
    {
      std::lock_guard<std::mutex> g(buffers[b]->mu);
      copies[b] = buffers[b]->events;
    }
    auto& evs = copies[b];
    // Scopes still open at the stop: close them now, innermost first, so each
    // parent's children time stays consistent.
    for (size_t i = evs.size(); i-- > 0;) {
      RawEvent& e = evs[i];
      if (e.end_ns >= 0) continue;
      e.end_ns = stop;
      e.mem_total = e.child_mem;  // the thread's own counter is not readable from here
      if (e.parent >= 0) evs[static_cast<size_t>(e.parent)].child_ns += e.end_ns - e.start_ns;
    }
    for (size_t i = 0; i < evs.size(); ++i) {
      order.push_back({b, static_cast<int32_t>(i)});
      t0 = std::min(t0, evs[i].start_ns);
    }
  }
  // Start order across threads; an enclosing scope sorts before its children.
  std::stable_sort(order.begin(), order.end(), [&](const Ref& x, const Ref& y) {
    const RawEvent& a = copies[x.buf][static_cast<size_t>(x.idx)];
    const RawEvent& c = copies[y.buf][static_cast<size_t>(y.idx)];
    if (a.start_ns != c.start_ns) return a.start_ns < c.start_ns;
    if (x.buf == y.buf) return x.idx < y.idx;
    return a.end_ns > c.end_ns;
  });
  std::vector<std::vector<int64_t>> global_id(buffers.size());
  for (size_t b = 0; b < buffers.size(); ++b) global_id[b].assign(copies[b].size(), -1);
  for (size_t i = 0; i < order.size(); ++i) global_id[order[i].buf][static_cast<size_t>(order[i].idx)] = i;

  EventList out;
  out.has_memory = memory;
  out.has_shapes = shapes;
  out.has_stack = stack;
  out.reserve(order.size());
  std::unordered_map<void*, std::string> symbols;
  for (size_t i = 0; i < order.size(); ++i) {
    RawEvent& r = copies[order[i].buf][static_cast<size_t>(order[i].idx)];
    FunctionEvent e;
    e.id = static_cast<int64_t>(i);
    e.name = std::move(r.name);
    e.thread = buffers[order[i].buf]->tid;
    e.start_ns = r.start_ns - t0;
    e.end_ns = r.end_ns - t0;
    e.self_cpu_time_ns = (r.end_ns - r.start_ns) - r.child_ns;
    e.cpu_memory_usage = r.mem_total;
    e.self_cpu_memory_usage = r.mem_total - r.child_mem;
    e.input_shapes = std::move(r.shapes);
    if (!r.frames.empty()) e.stack = caller_frames(r.frames, symbols);
    e.sequence_nr = r.seq;
    e.is_backward = r.backward;
    e.is_user_annotation = r.annotation;
    e.parent = r.parent >= 0 ? global_id[order[i].buf][static_cast<size_t>(r.parent)] : -1;
    e.depth = r.depth;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace torch::profiler::detail
