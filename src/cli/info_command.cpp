// `wormnet info`: static properties of a topology (and, with --load, of a routing on it).
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "json_writer.hpp"
#include "wormnet/topology/topology_factory.hpp"
#include "wormnet/topology/topology_metrics.hpp"

namespace wormnet::cli {

namespace {

struct InfoOptions {
  std::string topology;
  bool json = false;
};

void print_text(const Topology& topo, const TopologyMetrics& m) {
  std::printf("topology          %s\n", topo.spec().c_str());
  std::printf("nodes             %llu\n", static_cast<unsigned long long>(m.nodes));
  std::printf("links             %llu\n", static_cast<unsigned long long>(m.links));
  std::printf("channels          %llu (directed)\n", static_cast<unsigned long long>(m.channels));
  std::printf("degree histogram ");
  for (const auto& [deg, count] : m.degree_histogram) {
    std::printf(" %d:%llu", deg, static_cast<unsigned long long>(count));
  }
  std::printf("\n");
  std::printf("diameter          %d hops\n", m.diameter);
  std::printf("average distance  %.6f hops (ordered pairs s != d)\n", m.average_distance);
  std::printf("bisection cut     %s: %llu | %llu nodes, %llu channels each way\n",
              m.bisection.description.c_str(), static_cast<unsigned long long>(m.bisection.side_a),
              static_cast<unsigned long long>(m.bisection.side_b),
              static_cast<unsigned long long>(m.bisection.channels_ab));
  std::printf("bisection bound   %.6f flits/node/cycle (uniform traffic)\n", m.bisection.bound);
}

void print_json(const Topology& topo, const TopologyMetrics& m) {
  JsonWriter j;
  j.begin_object();
  j.field("topology", topo.spec());
  j.field("nodes", m.nodes).field("links", m.links).field("channels", m.channels);
  j.key("degree_histogram").begin_object();
  for (const auto& [deg, count] : m.degree_histogram) j.field(std::to_string(deg), count);
  j.end_object();
  j.field("diameter", m.diameter).field("average_distance", m.average_distance);
  j.key("bisection").begin_object();
  j.field("cut", m.bisection.description)
      .field("side_a", m.bisection.side_a)
      .field("side_b", m.bisection.side_b)
      .field("channels_each_way", m.bisection.channels_ab)
      .field("bound", m.bisection.bound);
  j.end_object();
  j.field("bisection_bound", m.bisection.bound);
  j.end_object();
  std::printf("%s\n", j.str().c_str());
}

}  // namespace

Command add_info_command(CLI::App& root) {
  auto opts = std::make_shared<InfoOptions>();
  CLI::App* app = root.add_subcommand("info", "Print properties of a topology");
  app->add_option("--topology,-t", opts->topology,
                  "honeycomb:T, torus:AxBx... or mesh:AxBx... (e.g. honeycomb:6, torus:8x8x8)")
      ->required();
  app->add_flag("--json", opts->json, "Print one JSON object instead of text");
  return {app, [opts] {
            const auto topo = make_topology(opts->topology);
            const TopologyMetrics m = compute_metrics(*topo);
            if (opts->json) {
              print_json(*topo, m);
            } else {
              print_text(*topo, m);
            }
            return 0;
          }};
}

}  // namespace wormnet::cli
