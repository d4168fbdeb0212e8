// The one-rank cost of the parallel engine. Runs the same network, seed and cycle count two
// ways in one process and prints both speeds:
//   engine: Simulation::run on one MPI rank, as `wormnet run` does (windows of lookahead
//           cycles, transport, outbox clearing, statistics windows, control-check reductions);
//   model:  the bare per-rank model stepped cycle after cycle, with none of the above.
// Both must do exactly the same work (the flit-hop totals are compared), so the ratio is the
// engine's overhead. Repeats alternate the two and keep each one's fastest time (seconds of
// wall clock), which filters out interference from other processes.
//
//   wormnet_engine_overhead [-t torus:16x16] [-r dor-dateline] [--load 0.1] [--cycles 20000]
//                           [--repeats 5]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <limits>

#include <CLI/CLI.hpp>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/driver/sim_network.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace {

using wormnet::Cycle;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  wormnet::MpiSession mpi(&argc, &argv);
  CLI::App app{"One-rank overhead of the parallel engine over the bare model loop"};
  std::string topology = "torus:16x16";
  std::string routing = "dor-dateline";
  double load = 0.1;
  Cycle cycles = 20000;
  int repeats = 5;
  app.add_option("-t,--topology", topology, "network");
  app.add_option("-r,--routing", routing, "routing function");
  app.add_option("--load", load, "offered load, flits/node/cycle")->check(CLI::Range(1e-6, 1.0));
  app.add_option("--cycles", cycles, "simulated cycles")->check(CLI::Range(100, 100000000));
  app.add_option("--repeats", repeats, "alternating repetitions")->check(CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);

  try {
    wormnet::SimConfig config;
    config.network.topology = topology;
    config.network.routing = routing;
    config.traffic.load = load;
    config.measure.warmup = 0;
    config.measure.measure = cycles;
    config.measure.drain_limit = 0;  // stop at `cycles`: both loops then run the same count
    config.measure.stats_window = 1000;
    const wormnet::Communicator comm = wormnet::Communicator::world();
    // One part, as `wormnet run` builds it on one rank.
    const wormnet::SimNetwork net = wormnet::build_network(config, comm);

    double best_engine = std::numeric_limits<double>::infinity();
    double best_model = best_engine;
    std::uint64_t hops_engine = 0;
    std::uint64_t hops_model = 0;
    Cycle engine_cycles = 0;
    for (int i = 0; i < repeats; ++i) {
      {
        wormnet::Simulation sim = wormnet::make_simulation(config, net, comm);
        wormnet::ResultSink sink;
        const auto start = Clock::now();
        const wormnet::RunSummary s = sim.run(load, sink, 0);
        best_engine = std::min(best_engine, seconds_since(start));
        hops_engine = s.flit_hops;
        engine_cycles = s.cycles;
      }
      {
        const auto start = Clock::now();
        wormnet::RankModel model = wormnet::make_rank_model(config, net, 0, load);
        model.set_window_end(std::numeric_limits<Cycle>::max());
        for (Cycle t = 0; t < engine_cycles; ++t) model.step(t);
        hops_model = model.take_window().flit_hops;
        best_model = std::min(best_model, seconds_since(start));
      }
    }
    const double rc =
        static_cast<double>(engine_cycles) * static_cast<double>(net.topology->num_nodes());
    std::printf("network   %s, %s, load %.4g flits/node/cycle, %llu cycles, best of %d\n",
                topology.c_str(), routing.c_str(), load,
                static_cast<unsigned long long>(engine_cycles), repeats);
    std::printf("engine    %.4f s  %.3e router-cycles/s  %llu flit-hops\n", best_engine,
                rc / best_engine, static_cast<unsigned long long>(hops_engine));
    std::printf("model     %.4f s  %.3e router-cycles/s  %llu flit-hops\n", best_model,
                rc / best_model, static_cast<unsigned long long>(hops_model));
    std::printf("overhead  %+.2f %% (engine time / model time - 1)\n",
                100.0 * (best_engine / best_model - 1.0));
    if (hops_engine != hops_model) {
      std::fprintf(stderr, "engine_overhead: the two loops did different work (%llu vs %llu)\n",
                   static_cast<unsigned long long>(hops_engine),
                   static_cast<unsigned long long>(hops_model));
      return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "engine_overhead: %s\n", e.what());
    return 2;
  }
  return 0;
}
