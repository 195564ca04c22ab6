#include "ember/distributed/store/file_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "ember/core/error.h"
#include "ember/distributed/store/socket.h"
#include "ember/distributed/store/store_frame.h"

namespace torch::distributed {
namespace {

constexpr const char* kCleanupKey = "cleanup/";
constexpr uint8_t kSetRecord = 'S';
constexpr uint8_t kDeleteRecord = 'D';

void put_u32(std::vector<uint8_t>& out, size_t v) {
  EMBER_CHECK(v <= store_detail::kMaxFrameBytes, "FileStore: a key or value of ", v, " bytes is too large");
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// The log is untrusted bytes: FrameReader checks every length against the file's size.
void replay(const std::vector<uint8_t>& log, std::map<std::string, std::vector<uint8_t>>& map,
            const std::string& path) {
  store_detail::FrameReader r(log.data(), log.size());
  try {
    while (!r.at_end()) {
      uint8_t kind = r.u8();
      std::string key = r.str();
      if (kind == kSetRecord) {
        map[key] = r.bytes();
      } else {
        EMBER_CHECK(kind == kDeleteRecord, "FileStore: unknown record kind ", int(kind));
        map.erase(key);
      }
    }
  } catch (const Error& e) {
    EMBER_ERROR("FileStore: the file '", path, "' is corrupt: ", e.what());
  }
}

class LockedFile {
 public:
  explicit LockedFile(const std::string& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    EMBER_CHECK(fd_.valid(), "FileStore: cannot open '", path, "': ", std::strerror(errno));
    while (::flock(fd_.get(), LOCK_EX) != 0) {
      EMBER_CHECK(errno == EINTR, "FileStore: cannot lock '", path, "': ", std::strerror(errno));
    }
  }
  ~LockedFile() { ::flock(fd_.get(), LOCK_UN); }
  LockedFile(const LockedFile&) = delete;
  LockedFile& operator=(const LockedFile&) = delete;

  std::vector<uint8_t> read_all(const std::string& path) const {
    struct stat st {};
    EMBER_CHECK(::fstat(fd_.get(), &st) == 0, "FileStore: cannot stat '", path, "'");
    std::vector<uint8_t> data(static_cast<size_t>(st.st_size));
    size_t got = 0;
    while (got < data.size()) {
      ssize_t r = ::pread(fd_.get(), data.data() + got, data.size() - got, static_cast<off_t>(got));
      if (r < 0 && errno == EINTR) continue;
      EMBER_CHECK(r >= 0, "FileStore: cannot read '", path, "': ", std::strerror(errno));
      if (r == 0) break;  // the file shrank: parse what exists
      got += static_cast<size_t>(r);
    }
    data.resize(got);
    return data;
  }
  void append(const std::vector<uint8_t>& rec, const std::string& path) const {
    off_t end = ::lseek(fd_.get(), 0, SEEK_END);
    size_t done = 0;
    while (done < rec.size()) {
      ssize_t w = ::pwrite(fd_.get(), rec.data() + done, rec.size() - done, end + static_cast<off_t>(done));
      if (w < 0 && errno == EINTR) continue;
      EMBER_CHECK(w > 0, "FileStore: cannot write '", path, "': ", std::strerror(errno));
      done += static_cast<size_t>(w);
    }
  }

 private:
  store_detail::Fd fd_;
};

}  // namespace

template <typename F>
auto FileStore::locked(F&& f) {
  std::lock_guard<std::mutex> guard(mu_);
  LockedFile file(path_);
  Map map;
  replay(file.read_all(path_), map, path_);
  std::vector<uint8_t> rec;
  auto log = [&](const std::string& key, const std::vector<uint8_t>* value) {
    rec.push_back(value ? kSetRecord : kDeleteRecord);
    put_u32(rec, key.size());
    rec.insert(rec.end(), key.begin(), key.end());
    if (value) {
      put_u32(rec, value->size());
      rec.insert(rec.end(), value->begin(), value->end());
      map[key] = *value;
    } else {
      map.erase(key);
    }
  };
  auto result = f(map, log);
  if (!rec.empty()) file.append(rec, path_);
  return result;
}

FileStore::FileStore(std::string file_name, int64_t world_size) : path_(std::move(file_name)), world_size_(world_size) {
  EMBER_CHECK(!path_.empty(), "FileStore: the file name is empty");
  EMBER_CHECK(world_size == -1 || world_size >= 1, "FileStore: world_size must be -1 or positive, got ", world_size);
  locked([](Map&, auto&) { return 0; });  // creates the file; a corrupt one raises here
}

FileStore::~FileStore() {
  if (world_size_ < 1) return;
  try {
    if (add(kCleanupKey, 1) >= world_size_) ::unlink(path_.c_str());
  } catch (const Error&) {
    // A destructor must not throw; the file stays behind.
  }
}

void FileStore::set(const std::string& key, const std::vector<uint8_t>& value) {
  locked([&](Map&, auto& log) {
    log(key, &value);
    return 0;
  });
}

std::vector<uint8_t> FileStore::get(const std::string& key) {
  wait({key});
  return locked([&](Map& m, auto&) {
    auto it = m.find(key);
    EMBER_CHECK(it != m.end(), "FileStore.get: key '", key, "' was deleted while waiting");
    return it->second;
  });
}

int64_t FileStore::add(const std::string& key, int64_t amount) {
  return locked([&](Map& m, auto& log) {
    auto it = m.find(key);
    int64_t v = amount + (it == m.end() ? 0 : store_detail::parse_counter(it->second, key));
    auto bytes = store_detail::counter_bytes(v);
    log(key, &bytes);
    return v;
  });
}

std::vector<uint8_t> FileStore::compare_set(const std::string& key, const std::vector<uint8_t>& expected,
                                            const std::vector<uint8_t>& desired) {
  return locked([&](Map& m, auto& log) {
    auto it = m.find(key);
    if (it == m.end() && !expected.empty()) return expected;
    if (it != m.end() && it->second != expected) return it->second;
    log(key, &desired);
    return desired;
  });
}

bool FileStore::delete_key(const std::string& key) {
  return locked([&](Map& m, auto& log) {
    if (!m.count(key)) return false;
    log(key, nullptr);
    return true;
  });
}

int64_t FileStore::num_keys() {
  // As c10d, the cleanup counter is bookkeeping, not a user key.
  return locked([&](Map& m, auto&) { return static_cast<int64_t>(m.size() - m.count(kCleanupKey)); });
}

bool FileStore::check(const std::vector<std::string>& keys) {
  return locked([&](Map& m, auto&) {
    for (const auto& k : keys)
      if (!m.count(k)) return false;
    return true;
  });
}

void FileStore::wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
  timeout = effective(timeout);
  auto deadline = store_detail::Clock::now() + timeout;
  auto pause = std::chrono::milliseconds(1);
  while (!check(keys)) {
    EMBER_CHECK(store_detail::Clock::now() < deadline, "FileStore.wait: timed out after ", timeout.count(),
                " ms waiting for keys ", store_detail::keys_str(keys));
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(20));
  }
}

}  // namespace torch::distributed
