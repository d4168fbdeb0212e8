#include "wormnet/topology/topology_factory.hpp"

#include <unistd.h>

#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"
#include "wormnet/topology/honeycomb_torus.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

namespace {

constexpr const char* kForms =
    "expected honeycomb:T (T >= 1), torus:AxB... or mesh:AxB... (1 to 6 sizes, each >= 2), "
    "honeycomb-torus:T, honeycomb-rect:MxN or honeycomb-rhombic:MxN";

/// Parses a decimal integer that fills the whole text; nullopt-like false on failure.
bool parse_int(std::string_view text, long long& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

/// Physical memory of this machine, bytes (0 when unknown).
std::uint64_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0
             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
             : 0;
}

/// Refuses, before anything is allocated, a network whose adjacency tables alone (per node:
/// a neighbour and a channel id per port, a port mask, channel offsets; 6 bytes of
/// coordinates for a honeycomb) would not fit in this machine's memory. Every rank holds
/// them, and the simulation needs far more per router: a clean refusal beats std::bad_alloc
/// or swapping for hours.
void check_size(const std::string& opt, const std::string& value, std::uint64_t nodes, int ports,
                std::uint64_t extra_per_node) {
  const std::uint64_t per_node = 9ULL * static_cast<std::uint64_t>(ports) + 6 + extra_per_node;
  const std::uint64_t bytes = nodes * per_node;
  const std::uint64_t memory = physical_memory();
  if (memory > 0 && bytes > memory) {
    const auto gib = [](std::uint64_t b) {
      return std::to_string((b + (1ULL << 30) - 1) >> 30) + " GiB";
    };
    throw InputError(opt, value,
                     std::to_string(nodes) + " nodes: the network tables alone need " + gib(bytes) +
                         ", more than this machine's " + gib(memory));
  }
}

}  // namespace

const char* topology_forms() {
  return "honeycomb:T, torus:AxB..., mesh:AxB..., honeycomb-torus:T, honeycomb-rect:MxN, "
         "honeycomb-rhombic:MxN";
}

std::unique_ptr<Topology> make_topology(std::string_view spec, std::string_view option) {
  const std::string opt(option);
  const std::string value(spec);
  const auto colon = spec.find(':');
  if (colon == std::string_view::npos) throw InputError(opt, value, kForms);
  const std::string_view kind = spec.substr(0, colon);
  const std::string_view args = spec.substr(colon + 1);

  if (kind == enum_name(TopologyKind::kHoneycomb)) {
    long long t = 0;
    if (!parse_int(args, t) || t < 1 || t > 18000) {
      throw InputError(opt, value, "honeycomb:T needs an integer T in [1, 18000]");
    }
    check_size(opt, value, 6ULL * static_cast<std::uint64_t>(t * t), 6, 6);
    return std::make_unique<HoneycombMesh>(static_cast<int>(t));
  }
  if (kind == enum_name(TopologyKind::kHoneycombTorus)) {
    long long t = 0;
    if (!parse_int(args, t) || t < 1 || t > 18000) {
      throw InputError(opt, value, "honeycomb-torus:T needs an integer T in [1, 18000]");
    }
    // Per node beyond the common tables: 12 bytes of coordinates and a 4-byte lattice index.
    check_size(opt, value, 6ULL * static_cast<std::uint64_t>(t * t), 6, 10);
    return std::make_unique<HoneycombTorus>(HoneycombTorusShape::kHexagonal, static_cast<int>(t));
  }
  if (kind == "honeycomb-rect" || kind == "honeycomb-rhombic") {
    const std::size_t x = args.find('x');
    long long m = 0;
    long long n = 0;
    if (x == std::string_view::npos || !parse_int(args.substr(0, x), m) ||
        !parse_int(args.substr(x + 1), n) || m < 1 || n < 1 || m > (1LL << 31) || n > (1LL << 31)) {
      throw InputError(opt, value, std::string(kind) + ":MxN needs two positive integer sizes");
    }
    if (static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(n) > (1ULL << 31)) {
      throw InputError(opt, value, "at most 2^31 nodes");
    }
    check_size(opt, value, static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(n), 6, 10);
    return std::make_unique<HoneycombTorus>(kind == "honeycomb-rect"
                                                ? HoneycombTorusShape::kRectangular
                                                : HoneycombTorusShape::kRhombic,
                                            static_cast<int>(m), static_cast<int>(n));
  }
  if (kind == enum_name(TopologyKind::kTorus) || kind == enum_name(TopologyKind::kMesh)) {
    std::vector<int> sizes;
    std::size_t pos = 0;
    while (true) {
      const std::size_t x = args.find('x', pos);
      const std::string_view part =
          args.substr(pos, x == std::string_view::npos ? std::string_view::npos : x - pos);
      long long k = 0;
      if (!parse_int(part, k)) {
        throw InputError(opt, value,
                         std::string(kind) + ":AxB... needs 1 to 6 integer sizes separated by 'x'");
      }
      if (k < 2 || k > (1LL << 31)) {
        throw InputError(opt, value, "every dimension size must be an integer >= 2");
      }
      sizes.push_back(static_cast<int>(k));
      if (sizes.size() > 6) throw InputError(opt, value, "at most 6 dimensions");
      if (x == std::string_view::npos) break;
      pos = x + 1;
    }
    std::uint64_t nodes = 1;
    for (const int k : sizes) {
      nodes *= static_cast<std::uint64_t>(k);
      if (nodes > (1ULL << 31)) throw InputError(opt, value, "at most 2^31 nodes");
    }
    check_size(opt, value, nodes, 2 * static_cast<int>(sizes.size()), 0);
    return std::make_unique<Torus>(std::move(sizes), kind == enum_name(TopologyKind::kTorus));
  }
  throw InputError(opt, value, kForms);
}

}  // namespace wormnet
