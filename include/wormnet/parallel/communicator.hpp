// The one door to MPI. Everything above it (engine transport, HDF5 writer, table driver)
// talks to a Communicator; routers, links, routing and topology never see a rank. Only
// src/parallel/*.cpp includes <mpi.h> (and the HDF5 writer, which needs the native handle).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace wormnet {

/// A group of ranks (an MPI communicator). Cheap to copy; all copies share one handle.
/// Collective calls must be made by every rank of the group in the same order.
class Communicator {
 public:
  struct Impl;
  /// The communicator of all ranks (called once, by main, after MpiSession started).
  static Communicator world();
  /// A one-rank communicator: MPI_COMM_SELF, or, when MPI is not initialized in this process
  /// (unit tests, serial tools), a serial stand-in whose collectives are identities.
  static Communicator self();

  [[nodiscard]] int rank() const;
  [[nodiscard]] int size() const;
  [[nodiscard]] bool is_root() const { return rank() == 0; }

  void barrier() const;
  /// Root's value is copied to every rank.
  void broadcast(std::string& text, int root = 0) const;
  void broadcast(std::vector<std::uint8_t>& bytes, int root = 0) const;

  /// Element-wise reductions in place over all ranks (the result is identical on every rank).
  void sum(std::span<std::uint64_t> values) const;
  void sum(std::span<std::int64_t> values) const;
  void sum(std::span<double> values) const;
  void max(std::span<std::uint64_t> values) const;
  void max(std::span<double> values) const;
  void min(std::span<std::uint64_t> values) const;
  void min(std::span<double> values) const;
  void bit_or(std::span<std::uint64_t> values) const;
  [[nodiscard]] std::uint64_t sum(std::uint64_t v) const;
  [[nodiscard]] std::uint64_t max(std::uint64_t v) const;
  [[nodiscard]] double max(double v) const;
  /// True on every rank when `v` is true on any rank.
  [[nodiscard]] bool any(bool v) const;
  /// any(), waiting at most `seconds` for the other ranks (forever when `seconds` <= 0):
  /// nullopt when they did not all join in time (stuck elsewhere, in a collective that this
  /// rank left on an error). Every rank must call it, with any `seconds`.
  [[nodiscard]] std::optional<bool> any_within(bool v, double seconds) const;

  /// Concatenation of every rank's bytes in rank order, on root only (empty elsewhere);
  /// `counts` receives the per-rank sizes on root.
  std::vector<std::uint8_t> gather(std::span<const std::uint8_t> mine, int root,
                                   std::vector<std::uint64_t>* counts = nullptr) const;
  /// Concatenation of every rank's bytes in rank order, on every rank.
  std::vector<std::uint8_t> all_gather(std::span<const std::uint8_t> mine) const;

  /// Ends the whole job at once (a broken invariant on one rank must not leave others
  /// waiting forever).
  [[noreturn]] void abort(int code) const;

  /// The native handle, for the HDF5 writer only (an MPI_Comm behind a void*).
  [[nodiscard]] const void* native_handle() const;

  explicit Communicator(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

 private:
  std::shared_ptr<Impl> impl_;
};

/// RAII MPI_Init / MPI_Finalize for main (and MPI test mains). Thread level: funneled.
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  /// Whether MPI is initialized (and not finalized) in this process.
  static bool active();

 private:
  std::string session_dir_;  ///< this process's own, when started alone (launcher.hpp)
};

}  // namespace wormnet
