// Brute-force check of a routing's declarations (RoutingFunction::arrival_class(),
// destination_class(), translation_invariance() and translation_step()) against its route():
// every request a packet could make on a small network, compared with every request the
// declaration says must give the same result. Returns the first violation in words, or an empty
// string. Shares no code with the analyses that rely on the declarations.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/honeycomb_torus.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet::test {

namespace detail {

/// The result of route() as a comparable list: (port, VC mask, next state) per option, the
/// masks left out (0) when only the ports count.
inline std::vector<std::tuple<int, int, std::uint32_t>> route_result(const RoutingFunction& routing,
                                                                     const RouteRequest& r,
                                                                     ArrivalScope scope) {
  RouteOptions options;
  routing.route(r, options);
  std::vector<std::tuple<int, int, std::uint32_t>> out;
  for (const RouteOption& o : options) {
    out.emplace_back(o.port, scope == ArrivalScope::kOptions ? o.vcs : 0, o.next_state);
  }
  return out;
}

/// Every arrival of a node: the injection, and each port with a link on each VC.
inline std::vector<std::pair<PortId, VcId>> arrivals(const Topology& topo, NodeId n, int vcs) {
  std::vector<std::pair<PortId, VcId>> a{{kInjectionPort, 0}};
  for (int p = 0; p < topo.num_ports(); ++p) {
    if (!topo.has_port(n, static_cast<PortId>(p))) continue;
    for (int v = 0; v < vcs; ++v) a.emplace_back(static_cast<PortId>(p), static_cast<VcId>(v));
  }
  return a;
}

inline std::string request_text(const Topology& topo, const RouteRequest& r) {
  return "at " + topo.node_label(r.node) + " bound for " + topo.node_label(r.dest) + " (in port " +
         std::to_string(r.in_port) + " vc " + std::to_string(r.in_vc) + ", state " +
         std::to_string(r.state) + ")";
}

/// The sources a request is made for: all of them for a source-dependent routing, else one.
inline std::vector<NodeId> sources_for(const Topology& topo, const RoutingFunction& routing,
                                       NodeId dest) {
  std::vector<NodeId> s;
  for (std::uint32_t v = 0; v < topo.num_nodes(); ++v) {
    if (v == dest.value()) continue;
    s.push_back(NodeId(v));
    if (!routing.source_dependent()) break;
  }
  return s;
}

}  // namespace detail

/// Arrivals of one class must give the same result (within the scope) for every node,
/// destination, source and packet state.
inline std::string check_arrival_classes(const Topology& topo, const RoutingFunction& routing,
                                         ArrivalScope scope) {
  const int vcs = routing.vcs_required();
  for (std::uint32_t n = 0; n < topo.num_nodes(); ++n) {
    const auto arrivals = detail::arrivals(topo, NodeId(n), vcs);
    for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
      if (d == n) continue;
      for (NodeId s : detail::sources_for(topo, routing, NodeId(d))) {
        for (int st = 0; st < routing.state_count(); ++st) {
          std::map<int, std::vector<std::tuple<int, int, std::uint32_t>>> by_class;
          for (const auto& [port, vc] : arrivals) {
            RouteRequest r;
            r.node = NodeId(n);
            r.source = s;
            r.dest = NodeId(d);
            r.in_port = port;
            r.in_vc = vc;
            r.state = static_cast<RouteState>(st);
            const auto result = detail::route_result(routing, r, scope);
            const int c = routing.arrival_class(scope, port, vc);
            if (c < 0 || c > 255)
              return "arrival class out of range " + detail::request_text(topo, r);
            const auto [it, fresh] = by_class.emplace(c, result);
            if (!fresh && it->second != result) {
              return "arrivals of class " + std::to_string(c) + " differ " +
                     detail::request_text(topo, r);
            }
          }
        }
      }
    }
  }
  return "";
}

/// Destinations of one class at a node must give the same whole result (VC masks included)
/// for every arrival and packet state; classes lie in [0, destination_classes()).
inline std::string check_destination_classes(const Topology& topo, const RoutingFunction& routing) {
  const int classes = routing.destination_classes();
  if (classes == 0) return "";
  if (routing.source_dependent()) return "destination classes on a source-dependent routing";
  const int vcs = routing.vcs_required();
  for (std::uint32_t n = 0; n < topo.num_nodes(); ++n) {
    const auto arrivals = detail::arrivals(topo, NodeId(n), vcs);
    // (class, arrival, state) -> the result of the first destination met
    std::map<std::tuple<int, int, int, int>, std::vector<std::tuple<int, int, std::uint32_t>>> seen;
    for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
      if (d == n) continue;
      const int c = routing.destination_class(NodeId(n), NodeId(d));
      if (c < 0 || c >= classes) {
        return "destination class " + std::to_string(c) + " out of range at " +
               topo.node_label(NodeId(n)) + " bound for " + topo.node_label(NodeId(d));
      }
      for (const auto& [port, vc] : arrivals) {
        for (int st = 0; st < routing.state_count(); ++st) {
          RouteRequest r;
          r.node = NodeId(n);
          r.dest = NodeId(d);
          r.in_port = port;
          r.in_vc = vc;
          r.state = static_cast<RouteState>(st);
          const auto result = detail::route_result(routing, r, ArrivalScope::kOptions);
          const auto [it, fresh] = seen.emplace(std::tuple{c, int{port}, int{vc}, st}, result);
          if (!fresh && it->second != result) {
            return "destinations of class " + std::to_string(c) + " differ " +
                   detail::request_text(topo, r);
          }
        }
      }
    }
  }
  return "";
}

/// On a torus: the declared translation invariance, for a shift by one along every ring
/// dimension (which generates all translations).
inline std::string check_translation(const Torus& topo, const RoutingFunction& routing) {
  const Translation tr = routing.translation_invariance();
  if (tr == Translation::kNone) return "";
  const ArrivalScope scope =
      tr == Translation::kOptions ? ArrivalScope::kOptions : ArrivalScope::kPorts;
  const int vcs = routing.vcs_required();
  for (int dim = 0; dim < topo.num_dims(); ++dim) {
    if (!topo.is_ring(dim)) continue;
    const auto shift = [&](NodeId v) {
      Coord c = topo.coords(v);
      c[dim] = (c[dim] + 1) % topo.size(dim);
      return topo.node_at(c);
    };
    for (std::uint32_t s = 0; s < topo.num_nodes(); ++s) {
      for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
        if (s == d) continue;
        for (int c = 0; c < routing.initial_choices(); ++c) {
          if (routing.chosen_initial_state(NodeId(s), NodeId(d), c) !=
              routing.chosen_initial_state(shift(NodeId(s)), shift(NodeId(d)), c)) {
            return "initial state changes under a shift along dimension " + std::to_string(dim);
          }
        }
      }
    }
    for (std::uint32_t n = 0; n < topo.num_nodes(); ++n) {
      for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
        if (d == n) continue;
        for (NodeId s : detail::sources_for(topo, routing, NodeId(d))) {
          for (const auto& [port, vc] : detail::arrivals(topo, NodeId(n), vcs)) {
            for (int st = 0; st < routing.state_count(); ++st) {
              RouteRequest r;
              r.node = NodeId(n);
              r.source = s;
              r.dest = NodeId(d);
              r.in_port = port;
              r.in_vc = vc;
              r.state = static_cast<RouteState>(st);
              RouteRequest moved = r;
              moved.node = shift(r.node);
              moved.source = shift(r.source);
              moved.dest = shift(r.dest);
              if (detail::route_result(routing, r, scope) !=
                  detail::route_result(routing, moved, scope)) {
                return "result changes under a shift along dimension " + std::to_string(dim) + " " +
                       detail::request_text(topo, r);
              }
            }
          }
        }
      }
    }
  }
  return "";
}

namespace detail {

/// Every request of the routing at every node toward every destination (all arrivals,
/// sources and states), with its result moved by `move` compared; the first difference in
/// words, or "".
template <class Move>
std::string compare_moved(const Topology& topo, const RoutingFunction& routing, ArrivalScope scope,
                          const Move& move, const std::string& what) {
  const int vcs = routing.vcs_required();
  for (std::uint32_t s = 0; s < topo.num_nodes(); ++s) {
    for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
      if (s == d) continue;
      for (int c = 0; c < routing.initial_choices(); ++c) {
        if (routing.chosen_initial_state(NodeId(s), NodeId(d), c) !=
            routing.chosen_initial_state(move(NodeId(s)), move(NodeId(d)), c)) {
          return "initial state changes under " + what;
        }
      }
    }
  }
  for (std::uint32_t n = 0; n < topo.num_nodes(); ++n) {
    for (std::uint32_t d = 0; d < topo.num_nodes(); ++d) {
      if (d == n) continue;
      for (NodeId s : sources_for(topo, routing, NodeId(d))) {
        for (const auto& [port, vc] : arrivals(topo, NodeId(n), vcs)) {
          for (int st = 0; st < routing.state_count(); ++st) {
            RouteRequest r;
            r.node = NodeId(n);
            r.source = s;
            r.dest = NodeId(d);
            r.in_port = port;
            r.in_vc = vc;
            r.state = static_cast<RouteState>(st);
            RouteRequest moved = r;
            moved.node = move(r.node);
            moved.source = move(r.source);
            moved.dest = move(r.dest);
            if (route_result(routing, r, scope) != route_result(routing, moved, scope)) {
              return "result changes under " + what + " " + request_text(topo, r);
            }
          }
        }
      }
    }
  }
  return "";
}

}  // namespace detail

/// On a honeycomb torus: the declared translation invariance, within each scope it claims, for
/// the translations t of the lattice modulo L whose coordinate k is a multiple of the declared
/// translation_step(scope, k). They are listed in brick form, x in [0, m) and j = y - z in
/// [0, n) (every vector of x + y + z = 0 is one of these modulo L, with j = x mod 2), and the
/// check takes a set that generates them all (each new one not yet generated by those before;
/// a group is told by where it sends node 0, translations acting freely). Node u moves to the
/// node at coords(u) + t.
inline std::string check_translation(const HoneycombTorus& topo, const RoutingFunction& routing) {
  const Translation tr = routing.translation_invariance();
  std::vector<ArrivalScope> scopes;
  if (tr != Translation::kNone) scopes.push_back(ArrivalScope::kPorts);
  if (tr == Translation::kOptions) scopes.push_back(ArrivalScope::kOptions);
  using Vector = std::array<int, 3>;
  const auto image = [&](NodeId v, const Vector& t) {
    const Coord c = topo.coords(v);
    return topo.lattice_node(c[0] + t[0], c[1] + t[1], c[2] + t[2]);
  };
  for (const ArrivalScope scope : scopes) {
    Vector step{};
    for (int k = 0; k < 3; ++k) {
      step[static_cast<std::size_t>(k)] = routing.translation_step(scope, k);
      if (step[static_cast<std::size_t>(k)] < 1 ||
          topo.period(k) % step[static_cast<std::size_t>(k)] != 0) {
        return "translation step " + std::to_string(step[static_cast<std::size_t>(k)]) +
               " of coordinate " + std::to_string(k) + " does not divide the period " +
               std::to_string(topo.period(k));
      }
    }
    std::vector<Vector> generated{{0, 0, 0}};  // the group generated so far
    std::set<std::uint32_t> reached{0};        // where its members send node 0
    for (int x = 0; x < topo.ght_m(); ++x) {
      for (int j = 0; j < topo.ght_n(); ++j) {
        if ((j - x) % 2 != 0) continue;
        const Vector t{x, (j - x) / 2, -(j + x) / 2};
        bool allowed = true;
        for (std::size_t k = 0; k < 3; ++k) allowed = allowed && t[k] % step[k] == 0;
        if (!allowed || reached.count(image(NodeId(0), t).value()) != 0) continue;
        const auto move = [&](NodeId v) { return image(v, t); };
        const std::string defect =
            detail::compare_moved(topo, routing, scope, move,
                                  "the translation (" + std::to_string(t[0]) + ", " +
                                      std::to_string(t[1]) + ", " + std::to_string(t[2]) + ")");
        if (!defect.empty()) return defect;
        // Close the group under t.
        for (std::size_t i = 0; i < generated.size(); ++i) {
          const Vector u{generated[i][0] + t[0], generated[i][1] + t[1], generated[i][2] + t[2]};
          if (reached.insert(image(NodeId(0), u).value()).second) generated.push_back(u);
        }
      }
    }
  }
  return "";
}

}  // namespace wormnet::test
