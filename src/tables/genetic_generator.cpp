#include "wormnet/tables/genetic_generator.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "stopwatch.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/rng.hpp"
#include "wormnet/tables/route_search.hpp"
#include "wormnet/tables/source_partition.hpp"
#include "wormnet/tables/unique_routes.hpp"
#include "wormnet/topology/working_network.hpp"

namespace wormnet::tables {

namespace {

// Stream ids: one per chromosome of the first generation, then per generation one for the
// parent and crossover draws and one per child for its mutations.
constexpr std::uint64_t kInitStreams = 1ULL << 40;

/// sigma(4, R) = (1/|C| sum |perfect - gamma_c|^4)^(1/4), as verify/load_deviation().
double sigma4(const std::vector<std::int64_t>& loads, double perfect) {
  long double sum = 0;
  for (std::int64_t g : loads) {
    const long double d = static_cast<long double>(g) - perfect;
    sum += d * d * d * d;
  }
  return loads.empty()
             ? 0.0
             : static_cast<double>(std::pow(sum / static_cast<long double>(loads.size()), 0.25L));
}

/// sigma(4, R) over the channels listed (the working ones of a network with faults).
double sigma4_over(const std::vector<std::int64_t>& loads, double perfect,
                   const std::vector<std::uint32_t>& channels) {
  long double sum = 0;
  for (std::uint32_t c : channels) {
    const long double d = static_cast<long double>(loads[c]) - perfect;
    sum += d * d * d * d;
  }
  return channels.empty() ? 0.0
                          : static_cast<double>(
                                std::pow(sum / static_cast<long double>(channels.size()), 0.25L));
}

struct Chromosome {
  std::vector<std::uint8_t> genes;  // this rank's genes: route number per stored pair
  std::vector<std::int64_t> loads;  // global channel loads
  double fitness = 0.0;
};

/// This rank's genes: the pairs of its sources that have more than one route.
class GenePool {
 public:
  GenePool(const Torus& topo, std::uint64_t first_pair, std::uint64_t pairs)
      : topo_(topo), n_(topo.num_nodes()), first_pair_(first_pair), gene_of_pair_(pairs, -1) {}

  void add(std::uint64_t pair, const std::vector<RouteWord>& routes) {
    gene_of_pair_[pair - first_pair_] = static_cast<std::int32_t>(pair_.size());
    pair_.push_back(pair);
    offset_.push_back(static_cast<std::uint32_t>(words_.size()));
    count_.push_back(static_cast<std::uint8_t>(routes.size()));
    const NodeId s(static_cast<std::uint32_t>(pair / n_));
    const NodeId d(static_cast<std::uint32_t>(pair % n_));
    for (RouteWord w : routes) {
      words_.push_back(w);
      // The route's channels, kept: loads change by whole routes many times per generation.
      for_each_channel(topo_, s, expand_route(topo_, s, d, w),
                       [&](ChannelId c) { channels_.push_back(c.value()); });
      first_channel_.push_back(static_cast<std::uint32_t>(channels_.size()));
    }
  }
  [[nodiscard]] std::size_t size() const { return pair_.size(); }
  [[nodiscard]] std::uint8_t variants(std::size_t g) const { return count_[g]; }
  [[nodiscard]] RouteWord route(std::size_t g, std::uint8_t v) const {
    return words_[offset_[g] + v];
  }
  /// Gene of a global pair index, or -1 (another rank's pair, or a single-route pair).
  [[nodiscard]] std::int64_t gene_of(std::uint64_t pair) const {
    if (pair < first_pair_ || pair >= first_pair_ + gene_of_pair_.size()) return -1;
    return gene_of_pair_[pair - first_pair_];
  }
  /// First stored gene whose pair is >= `pair`.
  [[nodiscard]] std::size_t lower_bound(std::uint64_t pair) const {
    return static_cast<std::size_t>(std::lower_bound(pair_.begin(), pair_.end(), pair) -
                                    pair_.begin());
  }
  /// Adds `sign` to the load of every channel of gene g's route v.
  void add_load(std::size_t g, std::uint8_t v, std::int64_t sign, std::int64_t* loads) const {
    const std::size_t r = offset_[g] + v;
    for (std::uint32_t k = first_channel_[r]; k < first_channel_[r + 1]; ++k) {
      loads[channels_[k]] += sign;
    }
  }
  /// Moves gene g from route `from` to route `to` in `loads`.
  void swap_load(std::size_t g, std::uint8_t from, std::uint8_t to, std::int64_t* loads) const {
    add_load(g, to, 1, loads);
    add_load(g, from, -1, loads);
  }
  [[nodiscard]] std::uint64_t pair(std::size_t g) const { return pair_[g]; }

 private:
  const Torus& topo_;
  std::uint64_t n_;
  std::uint64_t first_pair_;
  std::vector<std::int32_t> gene_of_pair_;
  std::vector<std::uint64_t> pair_;
  std::vector<std::uint32_t> offset_;
  std::vector<std::uint8_t> count_;
  std::vector<RouteWord> words_;
  std::vector<std::uint32_t> first_channel_{0};  // [route]: first entry in channels_
  std::vector<std::uint32_t> channels_;
};

}  // namespace

void generate_genetic(const RoutingGraph& graph, const GeneratorOptions& options,
                      const Communicator& comm, RouteTable& table, GenerationStats& stats) {
  const GeneticOptions& ga = options.genetic;
  require(ga.population >= 2 && ga.children >= 2 && ga.children % 2 == 0,
          "genetic: population >= 2 and an even number of children");
  const Torus& topo = graph.topology();
  const std::uint32_t n = topo.num_nodes();
  const std::size_t channels = topo.num_channels();
  const std::uint64_t all_pairs = static_cast<std::uint64_t>(n) * n;
  const SourceBlock block = source_block(n, comm.rank(), comm.size());
  RouteSearch search(graph);

  // Single-route pairs are fixed; the others become genes with their route variants.
  GenePool pool(topo, static_cast<std::uint64_t>(block.begin) * n,
                static_cast<std::uint64_t>(block.end - block.begin) * n);
  std::vector<std::int64_t> fixed(channels, 0);
  std::vector<RouteWord> variants;
  const std::uint64_t unique_pairs = split_unique_routes(
      search, block, table,
      [&](std::uint32_t s, std::uint32_t d, RouteWord route) {
        const ExpandedRoute plan = expand_route(topo, NodeId(s), NodeId(d), route);
        for_each_channel(topo, NodeId(s), plan, [&](ChannelId c) { ++fixed[c.value()]; });
      },
      [&](std::uint32_t s, std::uint32_t d) {
        search.enumerate_routes(NodeId(s), NodeId(d), static_cast<std::size_t>(ga.max_variants),
                                variants);
        pool.add(static_cast<std::uint64_t>(s) * n + d, variants);
      });
  comm.sum(fixed);
  double perfect = 0.0;
  // With faults the fitness is the table check's sigma(4, R): over the working channels,
  // against the perfect load of the distances over the working links.
  std::vector<std::uint32_t> working;
  const FaultSet* faults = graph.faults();
  if (faults == nullptr) {
    long double distance_sum = 0;
    for (std::uint32_t d = 0; d < n; ++d) distance_sum += topo.distance(NodeId(0), NodeId(d));
    perfect = static_cast<double>(distance_sum * n / static_cast<long double>(channels));
  } else {
    for (std::uint32_t c = 0; c < channels; ++c) {
      if (!faults->channel_failed(ChannelId(c))) working.push_back(c);
    }
    perfect =
        static_cast<double>(static_cast<long double>(working_distance_totals(topo, *faults).sum) /
                            static_cast<long double>(working.size()));
  }
  const auto fitness = [&](const std::vector<std::int64_t>& loads) {
    return faults == nullptr ? sigma4(loads, perfect) : sigma4_over(loads, perfect, working);
  };

  const auto pop_size = static_cast<std::size_t>(ga.population);
  const auto kids = static_cast<std::size_t>(ga.children);
  const std::size_t genes = pool.size();

  // First generation: gene v of chromosome c from a counter-based draw at the pair index.
  std::vector<Chromosome> population(pop_size);
  {
    std::vector<std::int64_t> partial(pop_size * channels, 0);
    for (std::size_t c = 0; c < pop_size; ++c) {
      const std::uint64_t key = RandomStream(options.seed, kInitStreams + c).key();
      population[c].genes.resize(genes);
      for (std::size_t g = 0; g < genes; ++g) {
        RandomStream draw = RandomStream::restore(key, pool.pair(g));
        const auto v = static_cast<std::uint8_t>(draw.next_u64() % pool.variants(g));
        population[c].genes[g] = v;
        pool.add_load(g, v, 1, &partial[c * channels]);
      }
    }
    comm.sum(partial);
    for (std::size_t c = 0; c < pop_size; ++c) {
      auto& loads = population[c].loads;
      loads.assign(partial.begin() + static_cast<std::ptrdiff_t>(c * channels),
                   partial.begin() + static_cast<std::ptrdiff_t>((c + 1) * channels));
      for (std::size_t i = 0; i < channels; ++i) loads[i] += fixed[i];
      population[c].fitness = fitness(loads);
    }
  }
  auto by_fitness = [](const Chromosome& a, const Chromosome& b) { return a.fitness < b.fitness; };
  std::stable_sort(population.begin(), population.end(), by_fitness);
  double best = population[0].fitness;
  stats.initial_sigma4 = best;

  const double log_keep = std::log1p(-ga.mutation);
  std::vector<Chromosome> children(kids);
  std::vector<std::int64_t> delta(kids * channels);
  std::vector<std::size_t> parent_of(kids);
  int stale = 0;
  int generation = 0;
  const double enough = ga.good_enough * stats.initial_sigma4;
  while (generation < ga.max_generations && stale < ga.patience && best > enough) {
    ++generation;
    const std::uint64_t gen_stream =
        kInitStreams + pop_size + static_cast<std::uint64_t>(generation) * (kids + 1);
    RandomStream pick(options.seed, gen_stream);
    std::fill(delta.begin(), delta.end(), 0);
    for (std::size_t k = 0; k < kids / 2; ++k) {
      const auto a = static_cast<std::size_t>(pick.uniform_int(0, pop_size - 1));
      auto b = static_cast<std::size_t>(pick.uniform_int(0, pop_size - 2));
      if (b >= a) ++b;
      std::uint64_t p1 = pick.uniform_int(0, all_pairs);
      std::uint64_t p2 = pick.uniform_int(0, all_pairs);
      if (p1 > p2) std::swap(p1, p2);
      Chromosome& c1 = children[2 * k];
      Chromosome& c2 = children[2 * k + 1];
      c1.genes = population[a].genes;
      c2.genes = population[b].genes;
      parent_of[2 * k] = a;
      parent_of[2 * k + 1] = b;
      std::int64_t* d1 = &delta[2 * k * channels];
      std::int64_t* d2 = &delta[(2 * k + 1) * channels];
      // Two-point crossover: the pairs in [p1, p2) come from the other parent. The second
      // child's change is the first one's, negated.
      const std::size_t g1 = pool.lower_bound(p1);
      const std::size_t g2 = pool.lower_bound(p2);
      for (std::size_t g = g1; g < g2; ++g) {
        const std::uint8_t va = c1.genes[g];
        const std::uint8_t vb = c2.genes[g];
        if (va == vb) continue;
        c1.genes[g] = vb;
        c2.genes[g] = va;
        pool.swap_load(g, va, vb, d1);
      }
      if (g1 < g2) {
        for (std::size_t i = 0; i < channels; ++i) d2[i] = -d1[i];
      }
    }
    // Mutation: the mutated pairs of a child are a Bernoulli(rate) process over all pair
    // indices, drawn as geometric gaps (every rank draws the same sequence).
    for (std::size_t j = 0; j < kids; ++j) {
      RandomStream mutate(options.seed, gen_stream + 1 + j);
      std::int64_t* dj = &delta[j * channels];
      std::uint64_t pair = 0;
      bool first = true;
      while (true) {
        const double gap = std::floor(std::log1p(-mutate.uniform()) / log_keep);
        const double next = (first ? 0.0 : static_cast<double>(pair) + 1.0) + gap;
        first = false;
        if (!(next < static_cast<double>(all_pairs))) break;
        pair = static_cast<std::uint64_t>(next);
        const double choice = mutate.uniform();
        const std::int64_t g = pool.gene_of(pair);
        if (g < 0) continue;
        const auto gi = static_cast<std::size_t>(g);
        const std::uint8_t count = pool.variants(gi);
        const std::uint8_t old = children[j].genes[gi];
        const auto step = static_cast<std::uint8_t>(1 + static_cast<int>(choice * (count - 1)));
        const auto now = static_cast<std::uint8_t>((old + step) % count);
        children[j].genes[gi] = now;
        pool.swap_load(gi, old, now, dj);
      }
    }
    const Stopwatch sum;
    comm.sum(delta);
    stats.exchange_seconds += sum.wall();
    stats.exchange_cpu_seconds += sum.cpu();
    for (std::size_t j = 0; j < kids; ++j) {
      children[j].loads = population[parent_of[j]].loads;
      for (std::size_t i = 0; i < channels; ++i) children[j].loads[i] += delta[j * channels + i];
      children[j].fitness = fitness(children[j].loads);
    }
    // Selection: the best of parents and children (parents first among equals).
    std::vector<Chromosome> all;
    all.reserve(pop_size + kids);
    for (auto& c : population) all.push_back(std::move(c));
    for (auto& c : children) all.push_back(std::move(c));
    std::stable_sort(all.begin(), all.end(), by_fitness);
    population.assign(std::make_move_iterator(all.begin()),
                      std::make_move_iterator(all.begin() + static_cast<std::ptrdiff_t>(pop_size)));
    children.assign(kids, Chromosome{});
    const double now = population[0].fitness;
    const bool gained = now < best && (best - now) > ga.min_gain * best;
    stale = gained ? 0 : stale + 1;
    best = now;
  }

  const Chromosome& winner = population[0];
  for (std::size_t g = 0; g < genes; ++g) {
    const std::uint64_t pair = pool.pair(g);
    table.set(NodeId(static_cast<std::uint32_t>(pair / n)),
              NodeId(static_cast<std::uint32_t>(pair % n)), pool.route(g, winner.genes[g]));
  }
  std::vector<NodeId> own;
  for (std::uint32_t s = block.begin; s < block.end; ++s) own.push_back(NodeId(s));
  const Stopwatch rows;
  share_rows(table, own, comm);
  stats.rows_seconds = rows.wall();
  stats.rows_cpu_seconds = rows.cpu();
  stats.expanded = comm.sum(search.expanded());
  stats.unique_pairs = comm.sum(unique_pairs);
  stats.genes = comm.sum(static_cast<std::uint64_t>(genes));
  stats.generations = generation;
  stats.final_sigma4 = best;
}

}  // namespace wormnet::tables
