#include "fault_options.hpp"

#include "toml_string.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/driver/network_faults.hpp"

namespace wormnet::cli {

void add_fault_options(CLI::App& app, FaultConfig& f) {
  app.add_option("--faults", f.file,
                 "fault file: failed links and nodes in coordinates, one a line: 'link (0,0) "
                 "(1,0)', 'link (0,0) X+', 'node (2,2)' (docs/faults.md)")
      ->group("Faults");
  app.add_option("--fail-links", f.links,
                 "working links to fail at random (after the file's), never splitting the "
                 "working nodes unless --allow-disconnected")
      ->group("Faults");
  app.add_option("--fail-nodes", f.nodes,
                 "working nodes to fail at random (a node and all its links), never splitting "
                 "the working nodes unless --allow-disconnected")
      ->group("Faults");
  app.add_option("--fault-seed", f.seed,
                 "seed of --fail-links and --fail-nodes (not --seed: the same faults under "
                 "any traffic seed)")
      ->capture_default_str()
      ->group("Faults");
  app.add_flag("--allow-disconnected", f.allow_disconnected,
               "let the faults split the working nodes (random draws may, a fault file may)")
      ->group("Faults");
}

void check_fault_options(const FaultConfig& f, const std::set<std::string>& given) {
  const auto has = [&](const char* option) { return given.count(option) > 0; };
  if (has("--fault-seed") && f.links == 0 && f.nodes == 0) {
    throw InputError("--fault-seed", std::to_string(f.seed),
                     "is read with --fail-links or --fail-nodes only (a fault file is drawn "
                     "from no seed)");
  }
  if (has("--allow-disconnected") && f.allow_disconnected && !f.any()) {
    throw InputError("--allow-disconnected", "set",
                     "is read with --faults, --fail-links or --fail-nodes only");
  }
}

std::string fault_toml(const FaultConfig& f) {
  if (!f.any()) return "";
  std::string s;
  if (!f.file.empty()) s += "faults = " + toml_string(f.file) + "\n";
  if (f.links > 0) s += "fail-links = " + std::to_string(f.links) + "\n";
  if (f.nodes > 0) s += "fail-nodes = " + std::to_string(f.nodes) + "\n";
  if (f.links > 0 || f.nodes > 0) s += "fault-seed = " + std::to_string(f.seed) + "\n";
  if (f.allow_disconnected) s += "allow-disconnected = true\n";
  return s;
}

std::string fault_line(const Topology& topo, const FaultSet& set, const FaultConfig& faults) {
  if (!faults.any()) return "";
  return "faults     " + describe_faults(topo, set, faults) + "\n";
}

FaultOption fault_option(const FaultConfig& f) {
  if (!f.file.empty()) return {"--faults", f.file};
  if (f.links > 0) return {"--fail-links", std::to_string(f.links)};
  return {"--fail-nodes", std::to_string(f.nodes)};
}

}  // namespace wormnet::cli
