#include "wormnet/driver/network_faults.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/fault_file.hpp"
#include "wormnet/topology/random_faults.hpp"
#include "wormnet/topology/working_network.hpp"

namespace wormnet {

namespace {

/// The fault file's text, or a problem (root only).
std::string read_text(const std::string& path, std::string& problem) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    problem = "a readable fault file (" +
              std::string(ec ? ec.message() : std::string(std::strerror(ENOENT))) + ")";
    return {};
  }
  // A FIFO or a device would block or never end: only regular files are read.
  if (!std::filesystem::is_regular_file(status)) {
    problem = "a regular fault file (this is a directory, FIFO or device)";
    return {};
  }
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxFaultFileBytes) {
    problem = "a fault file of at most " + std::to_string(kMaxFaultFileBytes >> 20) +
              " MiB (this one has " + std::to_string(size) + " bytes)";
    return {};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    problem = "a readable fault file (" + std::string(std::strerror(errno)) + ")";
    return {};
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) problem = "a readable fault file (a read error)";
  return text;
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::unique_ptr<FaultSet> build_faults(const Topology& topo, const FaultConfig& config,
                                       const Communicator& comm) {
  if (!config.any()) return std::make_unique<FaultSet>();
  auto faults = std::make_unique<FaultSet>(topo);
  if (!config.file.empty()) {
    std::string text;
    std::string problem;
    if (comm.is_root()) text = read_text(config.file, problem);
    if (comm.size() > 1) {
      comm.broadcast(problem, 0);
      comm.broadcast(text, 0);
    }
    if (!problem.empty()) throw InputError("--faults", config.file, problem);
    read_fault_list(topo, text, "--faults", config.file, *faults);
  }
  if (!config.allow_disconnected && !faults->empty()) {
    const WorkingConnectivity c = working_connectivity(topo, *faults);
    if (!c.connected()) {
      throw InputError("--faults", config.file,
                       "the working nodes fall apart into " + std::to_string(c.components) +
                           " groups: " + topo.node_label(c.from) + " cannot reach " +
                           topo.node_label(c.unreachable) +
                           " (pass --allow-disconnected to accept that)");
    }
  }
  if (faults->working_nodes() < 2) {
    throw InputError("--faults", config.file,
                     "leaves " + std::to_string(faults->working_nodes()) + " working node" +
                         (faults->working_nodes() == 1 ? "" : "s") + " of " + topo.spec() +
                         ": two must stay to exchange traffic");
  }
  draw_random_faults(topo, *faults, config.nodes, config.links, config.seed,
                     config.allow_disconnected);
  return faults;
}

std::string describe_faults(const Topology& topo, const FaultSet& faults,
                            const FaultConfig& config) {
  if (!config.any()) return "none";
  std::string from;
  if (!config.file.empty()) from = "file " + config.file;
  if (config.links > 0 || config.nodes > 0) {
    from += std::string(from.empty() ? "" : "; ") +
            "random: " + plural(config.nodes, "node", "nodes") + ", " +
            plural(config.links, "link", "links") + ", fault seed " + std::to_string(config.seed);
  }
  return plural(faults.failed_links().size(), "failed link", "failed links") + ", " +
         plural(faults.failed_nodes().size(), "failed node", "failed nodes") + " (" + from +
         "): " + std::to_string(faults.empty() ? topo.num_nodes() : faults.working_nodes()) +
         " of " + std::to_string(topo.num_nodes()) + " nodes and " +
         std::to_string(faults.empty() ? topo.num_links() : faults.working_links()) + " of " +
         std::to_string(topo.num_links()) + " links work";
}

}  // namespace wormnet
