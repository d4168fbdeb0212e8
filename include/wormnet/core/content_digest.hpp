// The digest of an input file's contents: what a run records of the files its configuration
// names only by path (a routing table, a trace), so that a restart can tell whether they
// still hold what the run began with, and a results file says what it was computed from.
//
// SHA-256 (FIPS 180-4), computed by Debian's libcrypto (OpenSSL, a dependency of the parallel
// HDF5 package already), which uses the processor's SHA instructions where it has them: about
// 1.8 GB/s on the build machine, so a table file of hundreds of MB costs a fraction of a
// second beside its proof. A cryptographic digest rather than a 64-bit checksum: no two files
// with the same digest are known, even made on purpose, so a table or trace other than the
// run's cannot pass for it; and `sha256sum FILE` prints the same digest, so anyone can check
// a result's inputs without wormnet.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "wormnet/core/text_input.hpp"

namespace wormnet {

/// An incremental SHA-256.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(std::span<const std::byte> bytes);
  /// The digest of every byte given so far, as 64 lowercase hex digits; ends the hash.
  [[nodiscard]] std::string finish();

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

/// SHA-256 of `bytes`, as 64 lowercase hex digits.
std::string sha256_hex(std::span<const std::byte> bytes);

/// What a file held when it was read: its size and SHA-256.
struct ContentDigest {
  std::uint64_t bytes = 0;
  std::string sha256;  ///< 64 lowercase hex digits
  bool operator==(const ContentDigest&) const = default;
};

/// The digest of the regular file at `path`, read from its start to its end; std::nullopt,
/// with the reason in `problem`, when it cannot be opened or read or is not a regular file (a
/// device, FIFO or directory is never read: a FIFO without a writer would block). Interrupted
/// when `stop` says so (asked before every read of 1 MiB).
std::optional<ContentDigest> digest_file(const std::string& path, std::string& problem,
                                         const StopCheck& stop = {});

}  // namespace wormnet
