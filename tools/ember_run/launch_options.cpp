#include "launch_options.h"

#include <sys/random.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <thread>

#include "usage_error.h"

namespace ember_run {
namespace {

// Options that take a value, by torchrun's argparse `dest`, with torchrun's defaults.
const std::map<std::string, std::string>& value_defaults() {
  static const std::map<std::string, std::string> defaults = {
      {"nnodes", "1:1"},
      {"nproc_per_node", "1"},
      {"rdzv_backend", "static"},
      {"rdzv_endpoint", ""},
      {"rdzv_id", "none"},
      {"rdzv_conf", ""},
      {"max_restarts", "0"},
      {"monitor_interval", "5"},
      {"start_method", "spawn"},
      {"role", "default"},
      {"log_dir", ""},
      {"redirects", "0"},
      {"tee", "0"},
      {"node_rank", "0"},
      {"master_addr", "127.0.0.1"},
      {"master_port", "29500"},
      {"stop_timeout", "30"},
  };
  return defaults;
}

const std::set<std::string>& flag_names() {
  static const std::set<std::string> flags = {"standalone", "no_python"};
  return flags;
}

// `--nproc-per-node`, `--nproc_per_node`, `-r` -> argparse's dest.
std::string dest_of(const std::string& spelled) {
  if (spelled == "-r") return "redirects";
  if (spelled == "-t") return "tee";
  std::string dest = spelled.substr(2);
  for (char& c : dest)
    if (c == '-') c = '_';
  if (dest == "run_id") return "rdzv_id";
  return dest;
}

std::string option_name(const std::string& dest) {
  std::string name = "--" + dest;
  for (char& c : name)
    if (c == '_') c = '-';
  return name;
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

UsageError bad_value(const std::string& dest, const std::string& value, const std::string& why) {
  return UsageError(option_name(dest) + ": invalid value '" + value + "': " + why);
}

int to_int(const std::string& dest, const std::string& value) {
  int out = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size())
    throw bad_value(dest, value, "expected an integer");
  return out;
}

double to_seconds(const std::string& dest, const std::string& value) {
  char* end = nullptr;
  double out = std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || !(out > 0) || out > 1e7)
    throw bad_value(dest, value, "expected a positive number of seconds");
  return out;
}

int to_nproc(const std::string& value) {
  if (value == "cpu" || value == "auto") return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (value == "gpu")
    throw bad_value("nproc_per_node", value, "Ember's launcher runs on CPUs only; no GPU is available");
  int n = to_int("nproc_per_node", value);
  if (n < 1 || n > 4096) throw bad_value("nproc_per_node", value, "expected 1..4096, cpu or auto");
  return n;
}

int to_nnodes(const std::string& value) {
  size_t colon = value.find(':');
  int min_nodes = to_int("nnodes", value.substr(0, colon));
  int max_nodes = colon == std::string::npos ? min_nodes : to_int("nnodes", value.substr(colon + 1));
  if (!(0 < min_nodes && min_nodes <= max_nodes))
    throw bad_value("nnodes", value, "expected N or MIN:MAX with 0 < MIN <= MAX");
  if (max_nodes > 65536) throw bad_value("nnodes", value, "at most 65536 nodes");
  if (min_nodes != max_nodes)
    throw bad_value("nnodes", value, "elastic membership (MIN < MAX) is not supported; give a fixed node count");
  return min_nodes;
}

// torchrun's parse_rendezvous_endpoint: host:port, [ipv6]:port.
Endpoint to_endpoint(const std::string& dest, const std::string& value) {
  Endpoint ep;
  std::string port;
  if (!value.empty() && value.front() == '[') {
    size_t close = value.find(']');
    if (close == std::string::npos || close + 1 >= value.size() || value[close + 1] != ':')
      throw bad_value(dest, value, "expected [ipv6]:port");
    ep.host = value.substr(1, close - 1);
    port = value.substr(close + 2);
  } else {
    size_t colon = value.rfind(':');
    if (colon == std::string::npos) throw bad_value(dest, value, "port is missing; expected host:port");
    ep.host = value.substr(0, colon);
    port = value.substr(colon + 1);
  }
  if (ep.host.empty()) throw bad_value(dest, value, "host is missing; expected host:port");
  ep.port = to_int(dest, port);
  if (ep.port < 1 || ep.port > 65535) throw bad_value(dest, value, "port must be in 1..65535");
  return ep;
}

// --rdzv-conf key1=v1,key2=v2; ember-run reads `timeout` (seconds), as the static rendezvous does.
double rdzv_timeout(const std::string& conf) {
  double timeout = 600;
  size_t pos = 0;
  while (pos < conf.size()) {
    size_t comma = conf.find(',', pos);
    std::string item = conf.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    size_t eq = item.find('=');
    if (eq == std::string::npos) throw bad_value("rdzv_conf", conf, "expected key=value[,key=value...]");
    if (item.substr(0, eq) == "timeout") timeout = to_seconds("rdzv_conf", item.substr(eq + 1));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return timeout;
}

// str(uuid.uuid4()), the run id torchrun --standalone makes up.
std::string random_uuid4() {
  unsigned char b[16];
  size_t got = 0;
  while (got < sizeof(b)) {
    ssize_t n = ::getrandom(b + got, sizeof(b) - got, 0);
    if (n <= 0) throw UsageError("cannot read random bytes for the --standalone run id");
    got += static_cast<size_t>(n);
  }
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  char out[37];
  std::snprintf(out, sizeof(out), "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return out;
}

bool env_flag(const std::string& dest) {
  const char* v = std::getenv(("PET_" + upper(dest)).c_str());
  return v != nullptr && std::string(v) != "0" && std::string(v) != "";
}

LaunchOptions convert(const std::map<std::string, std::string>& v, const std::set<std::string>& flags) {
  LaunchOptions o;
  o.nnodes = to_nnodes(v.at("nnodes"));
  o.nproc_per_node = to_nproc(v.at("nproc_per_node"));
  const std::string& backend = v.at("rdzv_backend");
  if (backend != "static" && backend != "c10d") throw bad_value("rdzv_backend", backend, "expected static or c10d");
  const std::string& method = v.at("start_method");
  if (method != "spawn" && method != "fork" && method != "forkserver")
    throw bad_value("start_method", method, "expected spawn, fork or forkserver");
  o.standalone = flags.count("standalone") != 0;
  o.node_rank = to_int("node_rank", v.at("node_rank"));
  if (o.node_rank < 0 || o.node_rank >= o.nnodes)
    throw bad_value("node_rank", v.at("node_rank"),
                    "must be in [0, " + std::to_string(o.nnodes) + ") for --nnodes " + std::to_string(o.nnodes));
  if (o.standalone && o.nnodes != 1) throw bad_value("nnodes", v.at("nnodes"), "--standalone runs a single node");
  // torchrun --standalone is a c10d rendezvous on localhost; with c10d, rank 0's
  // node picks MASTER_ADDR and a free MASTER_PORT instead of the endpoint's.
  o.pick_master_port = o.standalone || backend == "c10d";
  if (o.pick_master_port && o.nnodes != 1)
    throw bad_value("rdzv_backend", backend,
                    "ember-run's c10d rendezvous is single-node; give each node --node-rank and use the static one");
  int master_port = to_int("master_port", v.at("master_port"));
  if (master_port < 1 || master_port > 65535)
    throw bad_value("master_port", v.at("master_port"), "must be in 1..65535");
  const std::string& endpoint = v.at("rdzv_endpoint");
  if (o.pick_master_port) {
    // Single node: the endpoint is not used, but must still be host[:port] (port 0 lets the store pick).
    if (!endpoint.empty() && !o.standalone) {
      std::string with_port = endpoint.find(':') == std::string::npos ? endpoint + ":29400" : endpoint;
      if (with_port.size() > 2 && with_port.compare(with_port.size() - 2, 2, ":0") == 0)
        with_port.replace(with_port.size() - 1, 1, "29400");
      (void)to_endpoint("rdzv_endpoint", with_port);
    }
    o.rdzv_endpoint = Endpoint{"localhost", 29400};
  } else {
    o.rdzv_endpoint =
        endpoint.empty() ? Endpoint{v.at("master_addr"), master_port} : to_endpoint("rdzv_endpoint", endpoint);
  }
  if (o.rdzv_endpoint.host.empty()) throw bad_value("master_addr", v.at("master_addr"), "must not be empty");
  o.run_id = o.standalone ? random_uuid4() : v.at("rdzv_id");
  // The run id names the log directory and travels in the rendezvous's text messages.
  if (o.run_id.empty() || o.run_id.size() > 128 || o.run_id.find_first_of(" \t\r\n/") != std::string::npos)
    throw bad_value("rdzv_id", o.run_id, "expected 1..128 characters without whitespace or '/'");
  o.rdzv_timeout_s = rdzv_timeout(v.at("rdzv_conf"));
  o.max_restarts = to_int("max_restarts", v.at("max_restarts"));
  if (o.max_restarts < 0) throw bad_value("max_restarts", v.at("max_restarts"), "must be >= 0");
  o.monitor_interval_s = to_seconds("monitor_interval", v.at("monitor_interval"));
  o.role = v.at("role");
  if (o.role.empty()) throw bad_value("role", o.role, "must not be empty");
  o.redirects = parse_std_spec(v.at("redirects"), "--redirects");
  o.tee = parse_std_spec(v.at("tee"), "--tee");
  if (!v.at("log_dir").empty()) o.log_dir = v.at("log_dir");
  o.stop_timeout_s = to_seconds("stop_timeout", v.at("stop_timeout"));
  return o;
}

}  // namespace

ParsedCommandLine parse_command_line(const std::vector<std::string>& args) {
  std::map<std::string, std::string> values = value_defaults();
  std::set<std::string> flags;
  for (auto& [dest, value] : values)
    if (const char* env = std::getenv(("PET_" + upper(dest)).c_str())) value = env;
  for (const auto& flag : flag_names())
    if (env_flag(flag)) flags.insert(flag);

  ParsedCommandLine parsed;
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "-h" || arg == "--help") {
      parsed.show_help = true;
      return parsed;
    }
    bool long_opt = arg.rfind("--", 0) == 0 && arg.size() > 2;
    bool short_opt = arg.rfind("-r", 0) == 0 || arg.rfind("-t", 0) == 0;  // -r 3, -r3, -t 0:1
    if (!long_opt && !short_opt) {
      if (arg.size() > 1 && arg[0] == '-') throw UsageError("unrecognized option '" + arg + "' (see --help)");
      break;  // the program
    }
    std::string spelled = arg;
    std::optional<std::string> inline_value;
    if (long_opt) {
      if (size_t eq = arg.find('='); eq != std::string::npos) {
        spelled = arg.substr(0, eq);
        inline_value = arg.substr(eq + 1);
      }
    } else if (arg.size() > 2) {  // -r3
      spelled = arg.substr(0, 2);
      inline_value = arg.substr(2);
    }
    std::string dest = dest_of(spelled);
    if (flag_names().count(dest)) {
      if (inline_value) throw UsageError(spelled + " takes no value");
      flags.insert(dest);
      continue;
    }
    if (!values.count(dest)) throw UsageError("unrecognized option '" + spelled + "' (see --help)");
    if (!inline_value) {
      if (i + 1 >= args.size()) throw UsageError(spelled + " expects a value");
      inline_value = args[++i];
    }
    values[dest] = *inline_value;
  }
  if (i >= args.size()) throw UsageError("the program to launch is missing (ember-run [options] program [args...])");
  parsed.options = convert(values, flags);
  parsed.options.program = args[i];
  parsed.options.program_args.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
  return parsed;
}

std::string usage_text() {
  return R"(usage: ember-run [options] program [args...]

Starts --nproc-per-node copies of `program` with torchrun's environment
(RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, GROUP_RANK, ROLE_RANK,
MASTER_ADDR, MASTER_PORT, TORCHELASTIC_RESTART_COUNT, TORCHELASTIC_MAX_RESTARTS,
TORCHELASTIC_RUN_ID, ...), watches them and restarts the group on failure.
Every option may also be spelled with underscores and set as PET_<OPTION>.

  --nproc-per-node N|cpu|auto  workers on this node (default 1)
  --nnodes N                   number of nodes (1, 1:1 or a fixed N; default 1:1)
  --node-rank R                this node's rank in [0, nnodes) (default 0)
  --rdzv-endpoint HOST:PORT    rendezvous and master endpoint (default MASTER_ADDR:MASTER_PORT)
  --master-addr A              default 127.0.0.1
  --master-port P              default 29500
  --rdzv-id ID, --run-id ID    TORCHELASTIC_RUN_ID (default none)
  --rdzv-conf timeout=S        seconds to wait for the other nodes (default 600)
  --rdzv-backend static|c10d   c10d: single node, MASTER_ADDR/MASTER_PORT picked here (default static)
  --standalone                 c10d on one node with a random run id
  --max-restarts N             group restarts before failing (default 0)
  --monitor-interval S         seconds between worker checks (default 5)
  -r, --redirects V|MAP        0 none, 1 stdout, 2 stderr, 3 both, or local_rank:V,...
  -t, --tee V|MAP              like --redirects, and also echo to the console
  --log-dir DIR                base directory for the redirected/teed logs
  --role NAME                  worker role (default default); prefixes output lines
  --stop-timeout S             SIGTERM -> SIGKILL grace when stopping workers (default 30)
  --no-python, --start-method  accepted for torchrun's command lines; the program always runs directly

Exit status: 0 when every worker succeeded; the first failed worker's exit code
(128+signal when a signal killed it) after the last restart; 128+signal when
ember-run itself was interrupted; 2 for a bad command line; 1 for other errors.
)";
}

}  // namespace ember_run
