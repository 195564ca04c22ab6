#include "ember/serialize/pt_reader.h"

#include <unzip.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <vector>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/serialize/atomic_file.h"
#include "ember/serialize/pickle_reader.h"

namespace torch::serialize {
namespace {

// A data.pkl larger than this is not a state_dict we can sensibly read.
constexpr uint64_t kMaxPickleBytes = 1ull << 30;

// Note [Reading zip archives]
// torch.save's archives are read with zlib's minizip from the bytes in memory (minizip's
// I/O callbacks below): it needs only zlib, where libzip brought libcrypto along for
// encryption that a checkpoint never uses. The central directory is read once into a
// name -> position index, so finding each of n entries costs O(1), not a scan; every
// member's CRC-32 is checked when it has been read (minizip's unzCloseCurrentFile), so a
// flipped byte is an error, not a silently different tensor.
struct MemoryStream {
  const char* data = nullptr;
  uint64_t size = 0, pos = 0;
};

voidpf ZCALLBACK mem_open(voidpf opaque, const void*, int) { return opaque; }
uLong ZCALLBACK mem_read(voidpf, voidpf stream, void* buf, uLong size) {
  auto* m = static_cast<MemoryStream*>(stream);
  const uint64_t n = std::min<uint64_t>(size, m->size - m->pos);
  std::memcpy(buf, m->data + m->pos, n);
  m->pos += n;
  return static_cast<uLong>(n);
}
uLong ZCALLBACK mem_write(voidpf, voidpf, const void*, uLong) { return 0; }
ZPOS64_T ZCALLBACK mem_tell(voidpf, voidpf stream) { return static_cast<MemoryStream*>(stream)->pos; }
long ZCALLBACK mem_seek(voidpf, voidpf stream, ZPOS64_T offset, int origin) {
  auto* m = static_cast<MemoryStream*>(stream);
  uint64_t base = 0;
  if (origin == ZLIB_FILEFUNC_SEEK_CUR)
    base = m->pos;
  else if (origin == ZLIB_FILEFUNC_SEEK_END)
    base = m->size;
  else if (origin != ZLIB_FILEFUNC_SEEK_SET)
    return -1;
  if (offset > m->size - base) return -1;  // past the end (and no overflow)
  m->pos = base + offset;
  return 0;
}
int ZCALLBACK mem_close(voidpf, voidpf) { return 0; }
int ZCALLBACK mem_error(voidpf, voidpf) { return 0; }

struct UnzCloser {
  void operator()(unzFile z) const { unzClose(z); }
};

class ZipReader {
 public:
  ZipReader(const ZipReader&) = delete;  // minizip holds a pointer to stream_
  ZipReader& operator=(const ZipReader&) = delete;
  ZipReader(std::string_view bytes, const std::string& source) : source_(source) {
    stream_.data = bytes.data();
    stream_.size = bytes.size();
    zlib_filefunc64_def io{};
    io.zopen64_file = &mem_open;
    io.zread_file = &mem_read;
    io.zwrite_file = &mem_write;
    io.ztell64_file = &mem_tell;
    io.zseek64_file = &mem_seek;
    io.zclose_file = &mem_close;
    io.zerror_file = &mem_error;
    io.opaque = &stream_;
    zip_.reset(unzOpen2_64("", &io));
    EMBER_CHECK(zip_ != nullptr, "load_pytorch_state_dict: '", source,
                "' is not a readable zip archive (no valid end of central directory)");
    int r = unzGoToFirstFile(zip_.get());
    for (; r == UNZ_OK; r = unzGoToNextFile(zip_.get())) {
      unz_file_info64 info{};
      EMBER_CHECK(unzGetCurrentFileInfo64(zip_.get(), &info, nullptr, 0, nullptr, 0, nullptr, 0) == UNZ_OK,
                  "load_pytorch_state_dict: '", source, "': corrupt central directory");
      std::string name(info.size_filename, '\0');
      EMBER_CHECK(unzGetCurrentFileInfo64(zip_.get(), &info, name.data(), static_cast<uLong>(name.size()), nullptr, 0,
                                          nullptr, 0) == UNZ_OK,
                  "load_pytorch_state_dict: '", source, "': corrupt central directory");
      Entry e{info, {}};
      EMBER_CHECK(unzGetFilePos64(zip_.get(), &e.pos) == UNZ_OK, "load_pytorch_state_dict: '", source,
                  "': corrupt central directory");
      EMBER_CHECK(entries_.emplace(name, e).second, "load_pytorch_state_dict: '", source, "' has two entries named '",
                  name, "'");
      names_.push_back(std::move(name));
    }
    EMBER_CHECK(r == UNZ_END_OF_LIST_OF_FILE, "load_pytorch_state_dict: '", source,
                "': corrupt central directory (minizip error ", r, ")");
  }

  int64_t num_entries() const { return static_cast<int64_t>(names_.size()); }
  const std::string& name(int64_t i) const { return names_[static_cast<size_t>(i)]; }

  // Reads entry `name`; its size must be `expected` when given, else at most `limit`.
  std::string read(const std::string& name, int64_t expected, uint64_t limit) const {
    const auto it = entries_.find(name);
    EMBER_CHECK(it != entries_.end(), "load_pytorch_state_dict: '", source_, "' has no entry '", name, "'");
    const unz_file_info64& info = it->second.info;
    const uint64_t size = info.uncompressed_size;
    if (expected >= 0)
      EMBER_CHECK(size == uint64_t(expected), "load_pytorch_state_dict: '", source_, "': entry '", name, "' has ", size,
                  " bytes, expected ", expected);
    EMBER_CHECK(size <= limit, "load_pytorch_state_dict: '", source_, "': entry '", name, "' is too large (", size,
                " bytes)");
    // The declared size is attacker-controlled; deflate cannot expand more than
    // ~1032:1, so anything beyond that is a lie (or a zip bomb) and we refuse
    // before allocating.
    EMBER_CHECK(info.compressed_size <= stream_.size && size / 1032 <= info.compressed_size,
                "load_pytorch_state_dict: '", source_, "': entry '", name, "' declares an impossible size");
    EMBER_CHECK((info.flag & 1u) == 0, "load_pytorch_state_dict: '", source_, "': entry '", name, "' is encrypted");
    EMBER_CHECK(info.compression_method == 0 || info.compression_method == Z_DEFLATED, "load_pytorch_state_dict: '",
                source_, "': entry '", name, "' uses compression method ", info.compression_method,
                " (only stored and deflate are supported)");
    EMBER_CHECK(unzGoToFilePos64(zip_.get(), &it->second.pos) == UNZ_OK && unzOpenCurrentFile(zip_.get()) == UNZ_OK,
                "load_pytorch_state_dict: '", source_, "': cannot open entry '", name, "'");
    std::string out(size, '\0');
    uint64_t got = 0;
    int r = UNZ_OK;
    while (got < size) {
      const unsigned chunk = static_cast<unsigned>(std::min<uint64_t>(size - got, 1u << 30));
      r = unzReadCurrentFile(zip_.get(), out.data() + got, chunk);
      if (r <= 0) break;
      got += uint64_t(r);
    }
    const int closed = unzCloseCurrentFile(zip_.get());
    EMBER_CHECK(got == size, "load_pytorch_state_dict: '", source_, "': reading entry '", name, "' failed after ", got,
                " of ", size, " bytes (minizip error ", r, ")");
    EMBER_CHECK(closed != UNZ_CRCERROR, "load_pytorch_state_dict: '", source_, "': entry '", name,
                "' fails its CRC-32 check (the archive is corrupt)");
    EMBER_CHECK(closed == UNZ_OK, "load_pytorch_state_dict: '", source_, "': reading entry '", name,
                "' failed (minizip error ", closed, ")");
    return out;
  }

 private:
  struct Entry {
    unz_file_info64 info;
    unz64_file_pos pos;
  };
  const std::string& source_;
  // minizip reads through this cursor; the reader's methods are const to callers.
  mutable MemoryStream stream_;
  std::unique_ptr<void, UnzCloser> zip_;
  std::unordered_map<std::string, Entry> entries_;
  std::vector<std::string> names_;
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

}  // namespace torch::serialize
