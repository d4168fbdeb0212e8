#include "wormnet/core/content_digest.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

/// Bytes read per call: large enough that the system calls cost nothing beside the hash.
constexpr std::size_t kChunk = std::size_t{1} << 20;

/// Closes a descriptor when it goes out of scope.
struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

struct Sha256::Context {
  EVP_MD_CTX* ctx = nullptr;
  ~Context() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : context_(std::make_unique<Context>()) {
  context_->ctx = EVP_MD_CTX_new();
  // Only an allocation can fail here: SHA-256 is in libcrypto's default provider.
  require(context_->ctx != nullptr && EVP_DigestInit_ex(context_->ctx, EVP_sha256(), nullptr) == 1,
          "libcrypto: cannot start a SHA-256");
}

Sha256::~Sha256() = default;

void Sha256::update(std::span<const std::byte> bytes) {
  if (bytes.empty()) return;
  require(EVP_DigestUpdate(context_->ctx, bytes.data(), bytes.size()) == 1,
          "libcrypto: SHA-256 update failed");
}

std::string Sha256::finish() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  require(EVP_DigestFinal_ex(context_->ctx, digest, &size) == 1 && size == 32,
          "libcrypto: SHA-256 final failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xF];
  }
  return hex;
}

std::string sha256_hex(std::span<const std::byte> bytes) {
  Sha256 h;
  h.update(bytes);
  return h.finish();
}

std::optional<ContentDigest> digest_file(const std::string& path, std::string& problem,
                                         const StopCheck& stop) {
  const auto fail = [&](const std::string& why) {
    problem = why;
    return std::nullopt;
  };
  // What is not a regular file is not read: opening a FIFO would block without a writer, or
  // take a reader from one that has.
  std::string why;
  Descriptor in{open_regular_file(path, why)};
  if (in.fd < 0) {
    return fail(why.rfind("this is ", 0) == 0 ? "is not a regular file (" + why + ")"
                                              : "cannot be read: " + why);
  }
  Sha256 h;
  ContentDigest d;
  std::vector<std::byte> buffer(kChunk);
  while (true) {
    // Asked between reads: a stop signal ends the digest of a large file at once.
    if (stop && stop()) throw Interrupted("reading '" + path + "' was interrupted by a signal");
    const ssize_t n = ::read(in.fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;  // a signal's handler ran: the stop check decides
    if (n < 0) return fail("cannot be read: " + std::string(std::strerror(errno)));
    if (n == 0) break;
    h.update(std::span(buffer.data(), static_cast<std::size_t>(n)));
    d.bytes += static_cast<std::uint64_t>(n);
  }
  d.sha256 = h.finish();
  return d;
}

}  // namespace wormnet
