#include "wormnet/h5/file_seal.hpp"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include <sys/stat.h>

#include "wormnet/h5/row_digest.hpp"

namespace wormnet::io {

namespace {

constexpr const char* kSealFormat = "wormnet seal 1 %016" PRIx64 " %" PRIu64 "\n";
constexpr const char* kNoSeal =
    "it has no wormnet seal (damaged, or written by another program or an older wormnet)";
/// Bytes hashed per read.
constexpr std::size_t kChunk = std::size_t{1} << 20;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

/// The digest of the bytes of `f` from kSealBytes to its end, and their count; false when a
/// read fails.
bool digest_after_seal(std::FILE* f, std::uint64_t& digest, std::uint64_t& size) {
  if (std::fseek(f, static_cast<long>(kSealBytes), SEEK_SET) != 0) return false;
  std::vector<std::byte> buf(kChunk);
  digest = 0;
  size = kSealBytes;
  std::uint64_t chunk = 0;
  while (true) {
    const std::size_t n = std::fread(buf.data(), 1, buf.size(), f);
    if (n > 0) {
      // Chunks keyed by their number: a chunk moved elsewhere changes the digest.
      digest = detail::mix64(digest ^ detail::digest_bytes(chunk++, std::span(buf.data(), n)));
      size += n;
    }
    if (n < buf.size()) return std::ferror(f) == 0;
  }
}

}  // namespace

std::string seal_file(const std::string& path) {
  const File f(std::fopen(path.c_str(), "r+b"));
  if (!f) return std::strerror(errno);
  std::uint64_t digest = 0;
  std::uint64_t size = 0;
  if (!digest_after_seal(f.get(), digest, size)) return std::strerror(errno);
  char seal[kSealBytes] = {};
  std::snprintf(seal, sizeof seal, kSealFormat, digest, size);
  if (std::fseek(f.get(), 0, SEEK_SET) != 0 ||
      std::fwrite(seal, 1, sizeof seal, f.get()) != sizeof seal || std::fflush(f.get()) != 0) {
    return std::strerror(errno);
  }
  return "";
}

std::string seal_problem(const std::string& path) {
  const File f(std::fopen(path.c_str(), "rb"));
  if (!f) return std::string("cannot read it: ") + std::strerror(errno);
  char seal[kSealBytes + 1] = {};
  if (std::fread(seal, 1, kSealBytes, f.get()) != kSealBytes) {
    return "it is shorter than its seal (truncated)";
  }
  std::uint64_t stored = 0;
  std::uint64_t stored_size = 0;
  if (std::sscanf(seal, "wormnet seal 1 %16" SCNx64 " %" SCNu64, &stored, &stored_size) != 2) {
    return kNoSeal;
  }
  std::uint64_t digest = 0;
  std::uint64_t size = 0;
  if (!digest_after_seal(f.get(), digest, size)) {
    return std::string("cannot read it: ") + std::strerror(errno);
  }
  if (size != stored_size) {
    return "its size is " + std::to_string(size) + " bytes, its seal says " +
           std::to_string(stored_size) + " (truncated or extended)";
  }
  if (digest != stored) return "its checksum fails (a byte of it has changed)";
  return "";
}

FileStamp stamp_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return FileStamp{
      static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
      static_cast<std::uint64_t>(st.st_size),
      static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

SealVerdict check_seal(const Communicator& comm, const std::string& path, const FileStamp& intact) {
  SealVerdict v;
  if (comm.is_root()) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
      // Stamped before reading: a write during the check gives the file a later stamp.
      const FileStamp before = stamp_of(path);
      if (intact == FileStamp{} || before != intact) v.problem = seal_problem(path);
      if (v.problem.empty()) v.checked = before;
    }
  }
  if (comm.size() > 1) comm.broadcast(v.problem, 0);
  v.unsealed = v.problem == kNoSeal;
  return v;
}

}  // namespace wormnet::io
