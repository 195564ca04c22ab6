// The readers' size-scaling check (docs/reliability.md): for each shape of
// input that makes a reader work hard — many entries, long names, deep
// nesting, many zip members, long value lists — time the reader on the shape
// at size n and at 10 n. Linear (or n log n) readers cost ~10x; a quadratic one
// ~100x. Exits non-zero when any case costs more than kLimit times as much.
//   ember_loader_scaling [--limit X] [--only SUBSTRING]
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/serialize/archive.h"
#include "ember/serialize/pickle_reader.h"
#include "ember/serialize/pt_reader.h"
#include "ember/serialize/safetensors.h"

namespace {

using namespace ember::serialize;

std::string le(uint64_t v, int bytes) {
  std::string s(static_cast<size_t>(bytes), '\0');
  for (int i = 0; i < bytes; ++i) s[static_cast<size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}

// ---- safetensors -------------------------------------------------------------------
std::string safetensors(const std::string& header, const std::string& data) {
  return le(header.size(), 8) + header + data;
}

std::string st_many_entries(int64_t n) {
  std::string h = "{", data(static_cast<size_t>(4 * n), '\0');
  for (int64_t i = 0; i < n; ++i)
    h += (i ? ",\"t" : "\"t") + std::to_string(i) + "\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[" +
         std::to_string(4 * i) + "," + std::to_string(4 * i + 4) + "]}";
  return safetensors(h + "}", data);
}
std::string st_many_metadata(int64_t n) {
  std::string h = "{\"__metadata__\":{";
  for (int64_t i = 0; i < n; ++i) h += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":\"v" + std::to_string(i) + "\"";
  return safetensors(h + "}}", "");
}
std::string st_long_name(int64_t n) {
  return safetensors(
      "{\"" + std::string(static_cast<size_t>(n), 'x') + "\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}",
      std::string(4, '\0'));
}
std::string st_deep_nesting(int64_t n) {  // refused, but parsed first
  return safetensors(
      "{\"__metadata__\":" + std::string(static_cast<size_t>(n), '[') + std::string(static_cast<size_t>(n), ']') + "}",
      "");
}

// ---- pickle ------------------------------------------------------------------------
std::string unicode(const std::string& s) { return "X" + le(s.size(), 4) + s; }

// {name_i: tensor_i} as torch.save writes a state_dict (protocol 2), each
// tensor a one-element float32 view of storage "i".
std::string state_dict_pickle(int64_t n) {
  std::string p = "\x80\x02}(";
  for (int64_t i = 0; i < n; ++i) {
    p += unicode("layer" + std::to_string(i) + ".weight");
    p += "ctorch._utils\n_rebuild_tensor_v2\n(";
    p += "(" + unicode("storage") + "ctorch\nFloatStorage\n" + unicode(std::to_string(i)) + unicode("cpu") + "K\x01tQ";
    p += "K";
    p += '\0';
    p += "K\x01\x85K\x01\x85\x89";
    p += "ccollections\nOrderedDict\n)RtR";
  }
  return p + "u.";
}
std::string pk_long_list(int64_t n) {
  std::string p = "\x80\x02](";
  for (int64_t i = 0; i < n; ++i) p += "K\x07";
  return p + "e.";
}
std::string pk_many_keys(int64_t n) {
  std::string p = "\x80\x02}(";
  for (int64_t i = 0; i < n; ++i) p += unicode("k" + std::to_string(i)) + "N";
  return p + "u.";
}
std::string pk_deep_lists(int64_t n) {  // [[[...]]], n deep: refused by depth, built first
  return "\x80\x02" + std::string(static_cast<size_t>(n), ']') + std::string(static_cast<size_t>(n - 1), 'a') + ".";
}
std::string pk_many_marks(int64_t n) {  // ((((...)))), n tuples from n marks
  std::string p = "\x80\x02" + std::string(static_cast<size_t>(n), '(');
  for (int64_t i = 0; i < n; ++i) p += i ? "t" : "Nt";
  return p + ".";
}
std::string pk_memo(int64_t n) {  // n memo puts, then n gets into a list
  std::string p = "\x80\x02](";
  for (int64_t i = 0; i < n; ++i) p += "K\x01r" + le(static_cast<uint64_t>(i), 4) + "0";
  for (int64_t i = 0; i < n; ++i) p += "j" + le(static_cast<uint64_t>(i), 4);
  return p + "e.";
}

// ---- zip (.pt) ---------------------------------------------------------------------
// A stored (uncompressed) zip of the given members, as torch.save writes it.
std::string zip(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string out, central;
  for (const auto& [name, data] : members) {
    const uint32_t crc = static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(data.data()), data.size()));
    const uint64_t offset = out.size();
    out += "PK\x03\x04" + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4) + le(data.size(), 4) +
           le(data.size(), 4) + le(name.size(), 2) + le(0, 2) + name + data;
    central += "PK\x01\x02" + le(20, 2) + le(20, 2) + le(0, 2) + le(0, 2) + le(0, 4) + le(crc, 4) + le(data.size(), 4) +
               le(data.size(), 4) + le(name.size(), 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 2) + le(0, 4) +
               le(offset, 4) + name;
  }
  const uint64_t cd_offset = out.size();
  return out + central + "PK\x05\x06" + le(0, 2) + le(0, 2) + le(members.size(), 2) + le(members.size(), 2) +
         le(central.size(), 4) + le(cd_offset, 4) + le(0, 2);
}
std::string pt_many_tensors(int64_t n) {
  std::vector<std::pair<std::string, std::string>> m{{"archive/data.pkl", state_dict_pickle(n)}};
  for (int64_t i = 0; i < n; ++i) m.emplace_back("archive/data/" + std::to_string(i), std::string(4, '\0'));
  m.emplace_back("archive/version", "3\n");
  return zip(m);
}

// ---- archive -----------------------------------------------------------------------
std::string ar_many_values(int64_t n) {
  std::string h = "{\"__metadata__\":{";
  for (int64_t i = 0; i < n; ++i)
    h += (i ? ",\"ember.ivalue.v" : "\"ember.ivalue.v") + std::to_string(i) + "\":\"int:" + std::to_string(i) + "\"";
  return safetensors(h + "}}", "");
}
std::string ar_long_list(int64_t n) {
  std::string v = "ints:";
  for (int64_t i = 0; i < n; ++i) v += (i ? "," : "") + std::to_string(i);
  return safetensors("{\"__metadata__\":{\"ember.ivalue.l\":\"" + v + "\"}}", "");
}

struct Case {
  const char* name;
  std::function<std::string(int64_t)> make;
  std::function<void(const std::string&)> read;
  int64_t n;
};

void read_st(const std::string& b) { load_safetensors_from_buffer(b, "scaling"); }
void read_pickle(const std::string& b) {
  // Serves every storage (the .pt case reads them from the zip).
  const StorageLoader loader = [](const std::string&, ember::ScalarType dtype, int64_t numel) {
    return ember::zeros({numel}, ember::TensorOptions().dtype(dtype));
  };
  flatten_tensors(unpickle(b, loader, "scaling"), "scaling");
}
void read_pt(const std::string& b) { load_pytorch_state_dict_from_buffer(b, "scaling"); }
void read_archive(const std::string& b) {
  InputArchive a;
  a.load_from(b.data(), b.size());
  for (const std::string& k : a.keys()) {
    ember::IValue v;
    (void)a.try_read(k, v);
  }
}

// Best of three, in seconds; a reader that refuses the input is timed up to its error.
double seconds(const Case& c, const std::string& input) {
  double best = 1e300;
  for (int rep = 0; rep < 3; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
      c.read(input);
    } catch (const ember::Error&) {
    }
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  double limit = 30;  // linear is ~10; quadratic ~100
  std::string only;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--limit") == 0) limit = std::atof(argv[i + 1]);
    if (std::strcmp(argv[i], "--only") == 0) only = argv[i + 1];
  }
  const std::vector<Case> cases = {
      {"safetensors: many entries", st_many_entries, read_st, 20000},
      {"safetensors: many metadata keys", st_many_metadata, read_st, 50000},
      {"safetensors: one long name", st_long_name, read_st, 1 << 20},
      {"safetensors: deeply nested header", st_deep_nesting, read_st, 20000},
      {"pickle: state_dict of many tensors", state_dict_pickle, read_pickle, 5000},
      {"pickle: long list", pk_long_list, read_pickle, 100000},
      {"pickle: many dict keys", pk_many_keys, read_pickle, 50000},
      {"pickle: deeply nested lists", pk_deep_lists, read_pickle, 20000},
      {"pickle: many marks", pk_many_marks, read_pickle, 20000},
      {"pickle: memo puts and gets", pk_memo, read_pickle, 50000},
      {".pt: many tensors and zip members", pt_many_tensors, read_pt, 5000},
      {"archive: many values", ar_many_values, read_archive, 20000},
      {"archive: long int list", ar_long_list, read_archive, 200000},
  };
  std::printf("%-38s %12s %12s %10s %10s %7s\n", "input shape", "bytes (n)", "bytes (10n)", "t(n) ms", "t(10n) ms",
              "ratio");
  int failures = 0;
  for (const Case& c : cases) {
    if (!only.empty() && std::string(c.name).find(only) == std::string::npos) continue;
    const std::string small = c.make(c.n), big = c.make(10 * c.n);
    const double t1 = seconds(c, small), t10 = seconds(c, big);
    const double ratio = t10 / std::max(t1, 1e-7);
    const bool ok = ratio <= limit;
    failures += !ok;
    std::printf("%-38s %12zu %12zu %10.2f %10.2f %7.1f%s\n", c.name, small.size(), big.size(), t1 * 1e3, t10 * 1e3,
                ratio, ok ? "" : "  <- superlinear");
  }
  std::printf("%s: every case within %.0fx for 10x the input\n", failures ? "FAILED" : "ok", limit);
  return failures ? 1 : 0;
}
