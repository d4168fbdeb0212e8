#include "wormnet/verify/routing_analysis.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>

#include "destination_block_pass.hpp"
#include "destination_pass.hpp"
#include "symmetric_cover.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/int_math.hpp"
#include "wormnet/topology/honeycomb_torus.hpp"
#include "wormnet/topology/torus.hpp"
#include "wormnet/verify/coordinate_distances.hpp"

namespace wormnet {

double load_deviation(const std::vector<double>& gamma, double perfect, int k) {
  if (gamma.empty()) return 0.0;
  // Loads repeat (on a torus every channel of a direction carries the same): the power of a
  // value seen recently is taken from a small cache, the same number powl() gave it.
  struct Seen {
    double g = std::numeric_limits<double>::quiet_NaN();
    long double power = 0;
  };
  std::array<Seen, 64> cache{};
  long double sum = 0;
  for (double g : gamma) {
    const auto bits = std::bit_cast<std::uint64_t>(g);
    Seen& e = cache[(bits * 0x9E3779B97F4A7C15ULL) >> 58];  // 64 entries
    if (!(e.g == g)) e = Seen{g, std::pow(static_cast<long double>(std::fabs(perfect - g)), k)};
    sum += e.power;
  }
  return static_cast<double>(std::pow(sum / static_cast<long double>(gamma.size()), 1.0L / k));
}

namespace {

/// The torus whose ring dimensions carry the translations, or nullptr.
const Torus* ring_torus(const Topology& topo) {
  const auto* t = dynamic_cast<const Torus*>(&topo);
  if (t == nullptr) return nullptr;
  for (int i = 0; i < t->num_dims(); ++i) {
    if (t->is_ring(i)) return t;
  }
  return nullptr;
}

/// Class of a node under the ring translations: its coordinates in the other dimensions.
std::uint32_t translation_class(const Torus& t, NodeId n) {
  std::uint32_t c = 0;
  for (int i = t.num_dims() - 1; i >= 0; --i) {
    if (!t.is_ring(i))
      c = c * static_cast<std::uint32_t>(t.size(i)) + static_cast<std::uint32_t>(t.coord(n, i));
  }
  return c;
}

/// The nodes under the translations a routing commutes with: each class is one orbit, every
/// class has `translations` nodes (translations act freely), and the first explored
/// destination of each class stands for all of it.
struct TranslationClasses {
  std::vector<std::uint32_t> of_node;  ///< [node] -> class
  std::uint32_t classes = 0;
  std::uint64_t translations = 0;       ///< nodes per class
  std::vector<NodeId> representatives;  ///< one per class, in node order
};

/// On a torus with rings: the ring shifts (a class is the coordinates outside the rings, its
/// representative the node at 0 on every ring). On a honeycomb torus: the translations that
/// move coordinate k by multiples of the routing's step s_k (a divisor of the period P_k).
/// Two nodes of one colour differ by a lattice vector t (up to L, whose coordinate k is a
/// multiple of P_k, so of s_k); one maps to the other iff s_k divides t_k for every k. So a
/// class is (colour, x mod s_x, y mod s_y, z mod s_z) of the canonical coordinates.
/// Empty when the topology has no translations.
std::optional<TranslationClasses> translation_classes(const Topology& topo,
                                                      const RoutingFunction& routing,
                                                      ArrivalScope scope) {
  TranslationClasses out;
  const std::uint32_t n = topo.num_nodes();
  out.of_node.resize(n);
  if (const Torus* t = ring_torus(topo)) {
    out.translations = 1;
    for (int i = 0; i < t->num_dims(); ++i) {
      if (t->is_ring(i)) out.translations *= static_cast<std::uint64_t>(t->size(i));
    }
    for (std::uint32_t v = 0; v < n; ++v) {
      const std::uint32_t k = translation_class(*t, NodeId(v));
      out.of_node[v] = k;
      out.classes = std::max(out.classes, k + 1);
      bool origin = true;
      for (int i = 0; i < t->num_dims() && origin; ++i) {
        origin = !t->is_ring(i) || t->coord(NodeId(v), i) == 0;
      }
      if (origin) out.representatives.push_back(NodeId(v));
    }
    return out;
  }
  const auto* h = dynamic_cast<const HoneycombTorus*>(&topo);
  if (h == nullptr) return std::nullopt;
  std::array<std::int64_t, 3> step{};
  for (int k = 0; k < 3; ++k) {
    step[static_cast<std::size_t>(k)] = routing.translation_step(scope, k);
    require(step[static_cast<std::size_t>(k)] >= 1 &&
                h->period(k) % step[static_cast<std::size_t>(k)] == 0,
            "analysis: a translation step that does not divide the period");
  }
  std::map<std::array<std::int64_t, 4>, std::uint32_t> index;
  std::vector<std::uint64_t> members;
  for (std::uint32_t v = 0; v < n; ++v) {
    const Coord c = h->coords(NodeId(v));
    const std::array<std::int64_t, 4> key{h->black(NodeId(v)) ? 1 : 0, floor_mod(c[0], step[0]),
                                          floor_mod(c[1], step[1]), floor_mod(c[2], step[2])};
    const auto [it, fresh] = index.emplace(key, out.classes);
    if (fresh) {
      ++out.classes;
      members.push_back(0);
      out.representatives.push_back(NodeId(v));
    }
    out.of_node[v] = it->second;
    ++members[it->second];
  }
  out.translations = members[0];
  for (const std::uint64_t m : members) {
    require(m == out.translations, "analysis: translation classes of different sizes");
  }
  return out;
}

/// Whether the routing's kPorts classes ignore the VC: then the VC masks never matter for the
/// ports a packet takes, and states may be merged across VCs for loads.
bool port_classes_ignore_vcs(const Topology& topo, const RoutingFunction& routing, int vcs) {
  for (int p = 0; p <= topo.num_ports(); ++p) {
    const PortId port = p == topo.num_ports() ? kInjectionPort : static_cast<PortId>(p);
    const int c0 = routing.arrival_class(ArrivalScope::kPorts, port, 0);
    for (int v = 1; v < vcs; ++v) {
      if (routing.arrival_class(ArrivalScope::kPorts, port, static_cast<VcId>(v)) != c0) {
        return false;
      }
    }
  }
  return true;
}

const char* scope_text(const Topology& topo, const RoutingFunction& routing, ArrivalScope scope,
                       int vcs) {
  // Which arrivals the classes merge, told from the classes themselves.
  bool any_port = false;
  bool any_vc = false;
  const int inj = routing.arrival_class(scope, kInjectionPort, 0);
  for (int p = 0; p < topo.num_ports(); ++p) {
    const int c0 = routing.arrival_class(scope, static_cast<PortId>(p), 0);
    any_port = any_port || c0 != inj;
    for (int v = 1; v < vcs; ++v) {
      any_vc = any_vc ||
               routing.arrival_class(scope, static_cast<PortId>(p), static_cast<VcId>(v)) != c0;
    }
  }
  if (!any_port && !any_vc) return "one state per node and packet state";
  if (!any_vc) return "states per node and input port";
  return "states per input channel and VC";
}

}  // namespace

std::string AnalysisScope::summary(const Topology& topo) const {
  const std::uint32_t n = topo.num_nodes();
  std::string s =
      std::to_string(destinations.size()) + " of " + std::to_string(n) + " destinations";
  if (faulty) s += " (the working ones; faults: no symmetry used)";
  switch (coverage) {
    case Coverage::kEveryDestination:
      break;
    case Coverage::kTranslations:
      s += topo.kind() == TopologyKind::kHoneycombTorus
               ? " (one per class of the " + std::to_string(static_cast<std::uint64_t>(scale)) +
                     " translations of this torus the routing commutes with)"
               : " (the routing is translation-invariant on this torus: each stands for " +
                     std::to_string(static_cast<std::uint64_t>(scale)) + ")";
      break;
    case Coverage::kEveryPair:
      s += ", one source at a time (source-dependent routing)";
      break;
    case Coverage::kSymmetries:
      s += " (one per orbit of the " + std::to_string(symmetries.size()) +
           " network symmetries the routing commutes with)";
      break;
  }
  return s + ", " + merge;
}

AnalysisScope analysis_scope(const Topology& topo, const RoutingFunction& routing,
                             const AnalysisOptions& options) {
  AnalysisScope plan;
  const int vcs = options.vcs > 0 ? options.vcs : routing.vcs_required();
  const std::uint32_t n = topo.num_nodes();
  // The CDG needs whole results merged; loads only the ports, when the VCs cannot change them.
  plan.scope = !options.cdg && port_classes_ignore_vcs(topo, routing, vcs) ? ArrivalScope::kPorts
                                                                           : ArrivalScope::kOptions;
  plan.merge = scope_text(topo, routing, plan.scope, vcs);
  // Faults break the translations and symmetries: every working destination is explored.
  plan.faulty = options.faults != nullptr && !options.faults->empty();
  const Translation tr = routing.translation_invariance();
  const bool symmetric = !plan.faulty && !routing.source_dependent() &&
                         (tr == Translation::kOptions ||
                          (tr == Translation::kPorts && plan.scope == ArrivalScope::kPorts));
  std::optional<TranslationClasses> translations =
      symmetric ? translation_classes(topo, routing, plan.scope) : std::nullopt;
  if (translations && translations->translations > 1) {
    plan.coverage = AnalysisScope::Coverage::kTranslations;
    plan.destinations = std::move(translations->representatives);
    plan.scale = static_cast<double>(translations->translations);
  } else if (std::vector<NetworkSymmetry> group =
                 options.symmetries && !plan.faulty && !routing.source_dependent() &&
                         !routing.needs_bubble()
                     ? routing.symmetries(options.cdg ? ArrivalScope::kOptions
                                                      : ArrivalScope::kPorts)
                     : std::vector<NetworkSymmetry>{};
             group.size() > 1) {
    plan.coverage = AnalysisScope::Coverage::kSymmetries;
    plan.destinations = detail::orbit_representatives(group, n);
    plan.scale = static_cast<double>(n) / static_cast<double>(plan.destinations.size());
    plan.symmetries = std::move(group);
  } else {
    plan.coverage = routing.source_dependent() ? AnalysisScope::Coverage::kEveryPair
                                               : AnalysisScope::Coverage::kEveryDestination;
    plan.destinations.reserve(n);
    for (std::uint32_t v = 0; v < n; ++v) {
      if (!plan.faulty || !options.faults->node_failed(NodeId(v))) {
        plan.destinations.push_back(NodeId(v));
      }
    }
  }
  // Work: every pass reaches about every node; a per-pair pass only the route's nodes.
  const std::uint64_t per_pass =
      routing.source_dependent() ? static_cast<std::uint64_t>(n) *
                                       static_cast<std::uint64_t>(std::max(1, topo.diameter() / 2))
                                 : n;
  plan.estimated_states = per_pass * plan.destinations.size();
  return plan;
}

namespace {

/// Whether a CDG analysis pays to split in two: its dependencies have no symmetry to use (one
/// pass per destination), while its loads and path figures do (declared network symmetries or
/// torus translations in the port scope).
bool split_pays(const Topology& topo, const RoutingFunction& routing,
                const AnalysisOptions& options) {
  if (!options.cdg || !options.symmetries) return false;
  if (options.faults != nullptr && !options.faults->empty()) return false;
  if (analysis_scope(topo, routing, options).coverage !=
      AnalysisScope::Coverage::kEveryDestination) {
    return false;
  }
  AnalysisOptions ports = options;
  ports.cdg = false;
  const AnalysisScope::Coverage c = analysis_scope(topo, routing, ports).coverage;
  return c == AnalysisScope::Coverage::kSymmetries || c == AnalysisScope::Coverage::kTranslations;
}

/// The split analysis: the delivery figures (and loads, if asked) from the port-scope pass over
/// the symmetry classes, then the channel dependencies and the defects from a pass over every
/// destination in the dependencies' own scope that follows no flows. The path lengths are
/// exact sums (ExactSum), so they are the same bits as one pass over every destination; a
/// defect found by either pass reruns the whole analysis without symmetries, which names the
/// first defect in destination order as that pass always did.
RoutingAnalysis analyze_split(const Topology& topo, const RoutingFunction& routing,
                              const AnalysisOptions& options, AnalysisShare share,
                              const ShareReduction& reduction) {
  AnalysisOptions unsplit = options;
  unsplit.symmetries = false;
  AnalysisOptions delivery = options;
  delivery.cdg = false;
  RoutingAnalysis out = analyze_routing(topo, routing, delivery, share, reduction);
  if (!out.delivery.ok) return analyze_routing(topo, routing, unsplit, share, reduction);

  const int vcs = options.vcs > 0 ? options.vcs : routing.vcs_required();
  out.cdg = ChannelDependencyGraph(topo, vcs);
  out.cdg.set_aside_ring_dependencies(routing.needs_bubble());
  const CoordinateDistances distances(topo);  // block order (no minimality check without flows)
  detail::PartialAnalysis part;
  part.flows = false;
  // Every route minimal (toward the representatives, so toward their images too: the port
  // symmetries map routes onto routes): every step is one hop closer, no state repeats, and
  // there is no livelock to look for.
  part.acyclic = out.delivery.all_minimal;
  part.cdg = &out.cdg;
  const std::uint32_t n = topo.num_nodes();
  if (part.acyclic && detail::DestinationBlockPass::applies(topo, routing)) {
    // Up to 64 destinations at a time, each route asked once per destination class.
    detail::DestinationBlockPass pass(topo, routing, vcs, distances);
    const std::vector<std::vector<NodeId>> blocks = pass.blocks();
    for (auto b = static_cast<std::size_t>(share.part); b < blocks.size();
         b += static_cast<std::size_t>(share.parts)) {
      if (!pass.run(blocks[b], out.cdg, part.states)) {
        part.defect = "a defect (named by the analysis without symmetries)";
        break;
      }
    }
  } else {
    const FaultSet none;
    detail::DestinationPass pass(topo, routing, vcs, ArrivalScope::kOptions, distances, none);
    for (auto d = static_cast<std::uint32_t>(share.part); d < n;
         d += static_cast<std::uint32_t>(share.parts)) {
      pass.run(NodeId(d), NodeId::invalid(), d, part);
    }
  }
  std::vector<std::uint64_t> counts{part.states};
  reduction.sum(counts);
  reduction.bit_or(out.cdg.words());
  bool defect = false;
  for (const std::string& t : reduction.gather(part.defect)) defect = defect || !t.empty();
  if (defect) return analyze_routing(topo, routing, unsplit, share, reduction);
  out.states_explored += counts[0];
  const std::string merge = scope_text(topo, routing, ArrivalScope::kOptions, vcs);
  out.plan.merge += "; the dependencies from all " + std::to_string(n) + " destinations" +
                    (merge == out.plan.merge ? std::string() : ", " + merge);
  return out;
}

}  // namespace

RoutingAnalysis analyze_routing(const Topology& topo, const RoutingFunction& routing,
                                const AnalysisOptions& options) {
  return analyze_routing(topo, routing, options, AnalysisShare{}, ShareReduction{});
}

RoutingAnalysis analyze_routing(const Topology& topo, const RoutingFunction& routing,
                                const AnalysisOptions& options, AnalysisShare share,
                                const ShareReduction& reduction) {
  if (split_pays(topo, routing, options))
    return analyze_split(topo, routing, options, share, reduction);
  const int vcs = options.vcs > 0 ? options.vcs : routing.vcs_required();
  RoutingAnalysis out;
  out.plan = analysis_scope(topo, routing, options);
  const AnalysisScope& plan = out.plan;
  if (options.cdg) {
    out.cdg = ChannelDependencyGraph(topo, vcs);
    out.cdg.set_aside_ring_dependencies(routing.needs_bubble());
  }
  const std::uint32_t n = topo.num_nodes();
  const std::uint32_t channels = topo.num_channels();
  const FaultSet none;
  const FaultSet& faults = plan.faulty ? *options.faults : none;
  // The traffic's nodes: all of them, or the working ones.
  const std::uint32_t working = plan.faulty ? faults.working_nodes() : n;

  // This share's destinations.
  const CoordinateDistances distances(topo, faults);
  detail::PartialAnalysis part;
  if (options.loads) part.loads.resize(channels);
  part.cdg = options.cdg ? &out.cdg : nullptr;
  detail::DestinationPass pass(topo, routing, vcs, plan.scope, distances, faults);
  // Under symmetries: the representatives grouped by the symmetries that fix them (their
  // orbits are alike), each group's figures kept apart until they are moved onto the orbits.
  struct OrbitKind {
    std::uint32_t stabilizer;
    std::vector<std::size_t> movers;  // one symmetry per orbit member
    detail::PartialAnalysis part;
  };
  std::vector<OrbitKind> kinds;
  for (std::size_t i = static_cast<std::size_t>(share.part); i < plan.destinations.size();
       i += static_cast<std::size_t>(share.parts)) {
    const NodeId d = plan.destinations[i];
    if (plan.coverage == AnalysisScope::Coverage::kSymmetries) {
      const std::uint32_t fixed = detail::stabilizer(plan.symmetries, d);
      auto kind = std::find_if(kinds.begin(), kinds.end(),
                               [&](const OrbitKind& k) { return k.stabilizer == fixed; });
      if (kind == kinds.end()) {
        kinds.push_back(OrbitKind{fixed, detail::orbit_movers(plan.symmetries, d), {}});
        kind = kinds.end() - 1;
        kind->part.loads.resize(part.loads.size());
        kind->part.cdg = part.cdg;
      }
      pass.run(d, NodeId::invalid(), i, kind->part);
    } else if (plan.coverage == AnalysisScope::Coverage::kEveryPair) {
      for (std::uint32_t s = 0; s < n; ++s) {
        if (s == d.value() || faults.node_failed(NodeId(s))) continue;
        if (!routing.claims(NodeId(s), d)) {
          ++part.unclaimed;  // no route claimed (a table made around faults): not checked
          continue;
        }
        pass.run(d, NodeId(s), i, part);
      }
    } else {
      pass.run(d, NodeId::invalid(), i, part);
    }
  }

  for (const OrbitKind& kind : kinds) {
    for (std::size_t m : kind.movers) {
      detail::add_images(topo, plan.symmetries[m], kind.part.loads, part.loads);
    }
    part.hops.add(kind.part.hops.times(static_cast<std::uint32_t>(kind.movers.size())));
    part.states += kind.part.states;
    part.max_path = std::max(part.max_path, kind.part.max_path);
    part.all_minimal = part.all_minimal && kind.part.all_minimal;
    if (kind.part.defect_at < part.defect_at) {
      part.defect_at = kind.part.defect_at;
      part.defect = kind.part.defect;
    }
  }

  // Combine the shares: exact sums (in chunks, to bound the memory of the limbs), maxima, the
  // dependency bits, the first defect. One share has nothing to combine.
  ExactSum hops = part.hops;
  if (share.parts > 1) {
    constexpr auto kLimbs = static_cast<std::size_t>(ExactSum::kLimbs);
    constexpr std::size_t kChunk = std::size_t{1} << 18;  // channels per reduction
    std::vector<std::uint64_t> limbs;
    const std::size_t total = part.loads.size() + 1;  // the loads, then the hops
    for (std::size_t begin = 0; begin < total; begin += kChunk) {
      const std::size_t end = std::min(total, begin + kChunk);
      limbs.assign((end - begin) * kLimbs, 0);
      auto limb = [&](std::size_t i) {
        return std::span<std::uint64_t, kLimbs>(&limbs[(i - begin) * kLimbs], kLimbs);
      };
      for (std::size_t i = begin; i < end; ++i) {
        (i < part.loads.size() ? part.loads[i] : hops).to_limbs(limb(i));
      }
      reduction.sum(limbs);
      for (std::size_t i = begin; i < end; ++i) {
        (i < part.loads.size() ? part.loads[i] : hops) = ExactSum::from_limbs(limb(i));
      }
    }
  }
  std::vector<std::uint64_t> counts{part.states, part.minimal_sum, part.unclaimed};
  reduction.sum(counts);
  out.states_explored = counts[0];
  std::vector<std::uint64_t> maxima{static_cast<std::uint64_t>(part.max_path),
                                    part.all_minimal ? 0U : 1U};
  reduction.max(maxima);
  if (options.cdg) reduction.bit_or(out.cdg.words());
  std::uint64_t first = ~std::uint64_t{0};
  std::string defect;
  const bool moved = plan.coverage == AnalysisScope::Coverage::kSymmetries;
  for (const std::string& t :
       reduction.gather(part.defect.empty() ? std::string()
                                            : std::to_string(part.defect_at) + " " + part.defect)) {
    if (t.empty()) continue;
    const std::size_t space = t.find(' ');
    const std::uint64_t at = std::strtoull(t.c_str(), nullptr, 10);
    if (at < first) {
      first = at;
      defect = t.substr(space + 1);
    }
  }

  if (moved && !defect.empty()) {
    // A defect names a state toward a representative; the first in destination order may lie
    // toward another orbit member: again without the symmetries, for the same message.
    AnalysisOptions all = options;
    all.symmetries = false;
    return analyze_routing(topo, routing, all, share, reduction);
  }
  if (moved && options.cdg)
    detail::add_dependency_images(topo, plan.symmetries, vcs, out.cdg.words());

  DeliveryReport& d = out.delivery;
  d.ok = defect.empty();
  d.defect = defect;
  d.unclaimed = counts[2];
  d.pairs = static_cast<std::uint64_t>(working) * (working - 1) - d.unclaimed;
  d.max_path = static_cast<int>(maxima[0]);
  d.all_minimal = maxima[1] == 0;
  const auto minimal_sum =
      static_cast<long double>(plan.faulty ? counts[1] : distances.all_pairs_sum());
  d.average_minimal = d.pairs ? static_cast<double>(minimal_sum / d.pairs) : 0.0;

  // From the explored destinations to all of them.
  std::vector<double> gamma(part.loads.size());
  long double hop_total = 0;
  if (plan.coverage == AnalysisScope::Coverage::kTranslations) {
    // gamma(n, p) = sum over the explored destinations r and the translations t of the load
    // toward r on channel (t^-1 n, p): the sum of the loads on every channel (m, p) whose node
    // m lies in n's class (on a torus: agrees with n outside the rings).
    const TranslationClasses tc = *translation_classes(topo, routing, plan.scope);
    const auto ports = static_cast<std::size_t>(topo.num_ports());
    const auto translations = static_cast<std::uint32_t>(plan.scale);
    std::vector<ExactSum> by_class;
    std::vector<std::uint64_t> bits;
    std::vector<std::uint32_t> cls(channels);
    const std::uint32_t classes = tc.classes;
    for (std::uint32_t v = 0; v < n; ++v) {
      for (std::uint32_t c = topo.first_channel(NodeId(v)); c < topo.first_channel(NodeId(v + 1));
           ++c) {
        cls[c] = tc.of_node[v];
      }
    }
    if (options.loads) {
      by_class.resize(classes * ports);
      for (std::uint32_t c = 0; c < channels; ++c) {
        by_class[cls[c] * ports + topo.channel_port(ChannelId(c))].add(part.loads[c]);
      }
      for (std::uint32_t c = 0; c < channels; ++c) {
        gamma[c] = by_class[cls[c] * ports + topo.channel_port(ChannelId(c))].value();
      }
    }
    if (options.cdg) {
      const auto v = static_cast<std::size_t>(vcs);
      const std::span<std::uint64_t> words = out.cdg.words();
      bits.assign(classes * ports * v, 0);
      for (std::uint32_t c = 0; c < channels; ++c) {
        for (std::size_t x = 0; x < v; ++x) {
          bits[(cls[c] * ports + topo.channel_port(ChannelId(c))) * v + x] |= words[c * v + x];
        }
      }
      for (std::uint32_t c = 0; c < channels; ++c) {
        for (std::size_t x = 0; x < v; ++x) {
          words[c * v + x] = bits[(cls[c] * ports + topo.channel_port(ChannelId(c))) * v + x];
        }
      }
    }
    hop_total = hops.times(translations).long_value();
  } else {
    for (std::size_t c = 0; c < part.loads.size(); ++c) gamma[c] = part.loads[c].value();
    hop_total = hops.long_value();
  }
  d.average_path = d.pairs ? static_cast<double>(hop_total / d.pairs) : 0.0;

  if (options.loads) {
    LoadReport& l = out.loads;
    l.gamma = std::move(gamma);
    // The channels that can carry traffic: all of them, or the working ones (a failed
    // channel's gamma is 0 and stays in gamma, for the files and the heatmaps).
    std::vector<double> kept;
    if (plan.faulty) {
      for (std::uint32_t c = 0; c < channels; ++c) {
        if (!faults.channel_failed(ChannelId(c))) kept.push_back(l.gamma[c]);
      }
    }
    const std::vector<double>& usable = plan.faulty ? kept : l.gamma;
    long double total = 0;
    for (double g : usable) total += g;
    const auto count = static_cast<long double>(usable.size());
    l.pi = usable.empty() ? 0.0 : *std::max_element(usable.begin(), usable.end());
    l.min_load = usable.empty() ? 0.0 : *std::min_element(usable.begin(), usable.end());
    l.mean_load = count > 0 ? static_cast<double>(total / count) : 0.0;
    l.perfect_load = count > 0 ? static_cast<double>(minimal_sum / count) : 0.0;
    l.sigma4 = load_deviation(usable, l.perfect_load, 4);
    l.saturation_rate = l.pi > 0 ? static_cast<double>(working - 1) / l.pi : 0.0;
  }
  return out;
}

}  // namespace wormnet
