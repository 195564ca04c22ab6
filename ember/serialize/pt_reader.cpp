#include "ember/serialize/pt_reader.h"

#include <zip.h>

#include <cstring>
#include <memory>
#include <unordered_map>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/serialize/atomic_file.h"
#include "ember/serialize/pickle_reader.h"

namespace ember::serialize {
namespace {

// A data.pkl larger than this is not a state_dict we can sensibly read.
constexpr uint64_t kMaxPickleBytes = 1ull << 30;

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
struct ZipFileCloser {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};

class ZipReader {
 public:
  ZipReader(std::string_view bytes, const std::string& source) : source_(source), input_size_(bytes.size()) {
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t* src = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &err);
    EMBER_CHECK(src != nullptr, "load_pytorch_state_dict: '", source, "': ", zip_error_strerror(&err));
    zip_.reset(zip_open_from_source(src, ZIP_RDONLY, &err));
    if (!zip_) {
      const std::string why = zip_error_strerror(&err);
      zip_source_free(src);
      zip_error_fini(&err);
      EMBER_ERROR("load_pytorch_state_dict: '", source, "' is not a readable zip archive: ", why);
    }
    zip_error_fini(&err);
  }

  int64_t num_entries() const { return zip_get_num_entries(zip_.get(), 0); }
  std::string name(int64_t i) const {
    const char* n = zip_get_name(zip_.get(), static_cast<zip_uint64_t>(i), 0);
    return n ? n : "";
  }

  // Reads entry `name`; its size must be `expected` when given, else at most `limit`.
  std::string read(const std::string& name, int64_t expected, uint64_t limit) const {
    zip_stat_t st;
    zip_stat_init(&st);
    EMBER_CHECK(zip_stat(zip_.get(), name.c_str(), 0, &st) == 0 && (st.valid & ZIP_STAT_SIZE),
                "load_pytorch_state_dict: '", source_, "' has no entry '", name, "'");
    if (expected >= 0)
      EMBER_CHECK(st.size == uint64_t(expected), "load_pytorch_state_dict: '", source_, "': entry '", name, "' has ",
                  st.size, " bytes, expected ", expected);
    EMBER_CHECK(st.size <= limit, "load_pytorch_state_dict: '", source_, "': entry '", name, "' is too large (",
                st.size, " bytes)");
    // The declared size is attacker-controlled; deflate cannot expand more than
    // ~1032:1, so anything beyond that is a lie (or a zip bomb) and we refuse
    // before allocating.
    EMBER_CHECK((st.valid & ZIP_STAT_COMP_SIZE) && st.comp_size <= input_size_ && st.size / 1032 <= st.comp_size,
                "load_pytorch_state_dict: '", source_, "': entry '", name, "' declares an impossible size");
    std::unique_ptr<zip_file_t, ZipFileCloser> f(zip_fopen(zip_.get(), name.c_str(), 0));
    EMBER_CHECK(f != nullptr, "load_pytorch_state_dict: '", source_, "': cannot open entry '", name,
                "': ", zip_strerror(zip_.get()));
    std::string out(st.size, '\0');
    uint64_t got = 0;
    while (got < st.size) {
      const zip_int64_t n = zip_fread(f.get(), out.data() + got, st.size - got);
      EMBER_CHECK(n > 0, "load_pytorch_state_dict: '", source_, "': reading entry '", name,
                  "' failed: ", zip_file_strerror(f.get()));
      got += uint64_t(n);
    }
    return out;
  }

 private:
  std::unique_ptr<zip_t, ZipCloser> zip_;
  const std::string& source_;
  uint64_t input_size_;
};

NamedTensors load_zip(std::string_view bytes, const std::string& source) {
  ZipReader zip(bytes, source);
  // torch.save writes "<archive name>/data.pkl"; the name is arbitrary.
  std::string prefix;
  bool found = false;
  for (int64_t i = 0; i < zip.num_entries(); ++i) {
    const std::string n = zip.name(i);
    const std::string suffix = "data.pkl";
    if (n.size() >= suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        (n.size() == suffix.size() || n[n.size() - suffix.size() - 1] == '/') &&
        n.find('/') >= n.size() - suffix.size() - 1) {
      prefix = n.substr(0, n.size() - suffix.size());
      found = true;
      break;
    }
  }
  EMBER_CHECK(found, "load_pytorch_state_dict: '", source, "' has no data.pkl (not a torch.save zip archive?)");
  const std::string pickle = zip.read(prefix + "data.pkl", -1, kMaxPickleBytes);
  StorageLoader loader = [&](const std::string& key, ScalarType dtype, int64_t numel) {
    int64_t nbytes;
    EMBER_CHECK(!__builtin_mul_overflow(numel, int64_t(element_size(dtype)), &nbytes), "load_pytorch_state_dict: '",
                source, "': storage '", key, "' size overflows");
    // Size is checked against the entry before anything is allocated.
    std::string data = zip.read(prefix + "data/" + key, nbytes, uint64_t(nbytes));
    Tensor t = empty({numel}, TensorOptions().dtype(dtype));
    if (nbytes > 0) std::memcpy(t.data_ptr(), data.data(), size_t(nbytes));
    return t;
  };
  const PickleGraph g = unpickle(pickle, loader, source);
  return flatten_tensors(g, source);
}

// Legacy format: five things back to back — magic number pickle, protocol
// version pickle, sys_info pickle, the object pickle, the storage-key list
// pickle — then each storage as int64 numel followed by its raw bytes, in
// the order of the key list.
NamedTensors load_legacy(std::string_view bytes, const std::string& source) {
  auto fail = [&](const auto&... what) { EMBER_ERROR("load_pytorch_state_dict: '", source, "': ", what...); };
  size_t pos = 0;
  auto next = [&](const StorageLoader& loader) {
    PickleGraph g = unpickle(bytes.substr(pos), loader, source);
    pos += g.consumed;
    return g;
  };
  // 0x1950a86a20f9469cfc6c, little-endian, as LONG1 leaves it (wider than 64 bits).
  static constexpr char kMagic[] = "\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19";
  {
    const PickleGraph magic = next(nullptr);
    const PickleObject& m = magic.at(magic.root);
    if (m.kind != PickleKind::Bytes || m.s != std::string_view(kMagic, 10))
      fail("not a PyTorch checkpoint (neither a zip archive nor the legacy magic number)");
  }
  {
    const PickleGraph version = next(nullptr);
    const PickleObject& v = version.at(version.root);
    if (v.kind != PickleKind::Int || v.i != 1001) fail("unsupported legacy protocol version");
  }
  next(nullptr);  // sys_info: endianness and C type sizes; data is read as little-endian

  // Storages are allocated while unpickling (sized from the persistent ids,
  // never beyond what the file could hold) and filled from the tail afterwards.
  std::unordered_map<std::string, Tensor> storages;
  StorageLoader loader = [&](const std::string& key, ScalarType dtype, int64_t numel) {
    int64_t nbytes;
    if (__builtin_mul_overflow(numel, int64_t(element_size(dtype)), &nbytes) || uint64_t(nbytes) > bytes.size())
      fail("storage '", key, "' of ", numel, " elements cannot fit in the file");
    Tensor t = empty({numel}, TensorOptions().dtype(dtype));
    storages.emplace(key, t);
    return t;
  };
  const PickleGraph main = next(loader);
  const PickleGraph keys = next(nullptr);
  const PickleObject& key_list = keys.at(keys.root);
  if (key_list.kind != PickleKind::List) fail("the storage key list is not a list");
  size_t filled = 0;
  for (uint32_t id : key_list.items) {
    const PickleObject& k = keys.at(id);
    if (k.kind != PickleKind::String) fail("a storage key is not a string");
    const auto it = storages.find(k.s);
    if (it == storages.end()) fail("storage '", k.s, "' has data but no tensor refers to it");
    if (bytes.size() - pos < 8) fail("truncated before the data of storage '", k.s, "'");
    int64_t numel;
    std::memcpy(&numel, bytes.data() + pos, 8);
    pos += 8;
    Tensor& t = it->second;
    if (!t.defined()) fail("storage '", k.s, "' appears twice in the key list");
    if (numel != t.numel()) fail("storage '", k.s, "' holds ", numel, " elements, expected ", t.numel());
    const size_t nbytes = t.nbytes();
    if (bytes.size() - pos < nbytes) fail("truncated data of storage '", k.s, "'");
    if (nbytes > 0) std::memcpy(t.data_ptr(), bytes.data() + pos, nbytes);
    pos += nbytes;
    t.reset();  // marks it filled
    ++filled;
  }
  if (filled != storages.size()) fail(storages.size() - filled, " storages have no data");
  return flatten_tensors(main, source);
}

}  // namespace

NamedTensors load_pytorch_state_dict_from_buffer(std::string_view bytes, const std::string& source) {
  if (bytes.size() >= 4 && std::memcmp(bytes.data(), "PK\x03\x04", 4) == 0) return load_zip(bytes, source);
  return load_legacy(bytes, source);
}

NamedTensors load_pytorch_state_dict(const std::string& path) {
  return load_pytorch_state_dict_from_buffer(read_file(path), path);
}

}  // namespace ember::serialize
