// The part of the network one rank simulates: its routers (RouterBank), their sources, the
// links that leave them. This class is the loop over the rank's blocks of routers that calls
// its parts (docs/engine.md draws them and the order of a cycle): RankLinks, ArrivalWheel,
// WalkSchedule, PrefetchPlan, RankCounters. Links have a latency of at least one cycle, so
// the routers of a cycle can be stepped in any order, the deeper layers of a large rank may
// lag (the skewed walk: results those of the level walk, bit for bit), and a rank may run
// ahead of its neighbours by the lookahead. It never sees MPI: what it sends to another rank
// goes to an outbox that the engine's transport carries.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/engine/arrival_wheel.hpp"
#include "wormnet/engine/message_script.hpp"
#include "wormnet/engine/model_snapshot.hpp"
#include "wormnet/engine/partition.hpp"
#include "wormnet/engine/prefetch_plan.hpp"
#include "wormnet/engine/rank_counters.hpp"
#include "wormnet/engine/rank_links.hpp"
#include "wormnet/engine/router_set.hpp"
#include "wormnet/engine/walk_schedule.hpp"
#include "wormnet/plan/run_plan.hpp"
#include "wormnet/router/packet_table.hpp"
#include "wormnet/router/router_bank.hpp"
#include "wormnet/router/router_events.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/stats/channel_congestion.hpp"
#include "wormnet/stats/traffic_counters.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/traffic/traffic_sources.hpp"
#include "wormnet/verify/wait_for_graph.hpp"

namespace wormnet {

class RankModel {
 public:
  /// The routers of `partition`'s part `rank`, their sources generating `rate`
  /// flits/node/cycle; `plan` is the one derived from `config` on this network.
  RankModel(const SimConfig& config, const RunPlan& plan, const Topology& topo,
            const RoutingFunction& routing, const DestinationPattern& pattern,
            const Partition& partition, int rank, double rate, WalkLayout layout = {});
  // The router bank holds a reference to packets_: a model stays where it was built.
  RankModel(const RankModel&) = delete;
  RankModel& operator=(const RankModel&) = delete;

  /// Simulates cycle t: arrivals due at t, messages generated at t, every active router.
  void step(Cycle t);
  /// Cycle t in two halves, so that a multi-rank run can overlap computing with the messages
  /// of the previous window: step_interior() takes the arrivals due at t that are already
  /// here, generates and steps every active router without a link to another rank (no
  /// remote flit or credit can reach those at t); receive() may then bring what peers sent
  /// for t; step_boundary() steps the remaining routers. Same result as step(t): the routers
  /// of a cycle can be stepped in any order.
  void step_interior(Cycle t);
  void step_boundary(Cycle t);
  /// The engine will read the state (counters, snapshot, checks) after simulating cycle t - 1
  /// and no sooner: until then the layers away from the rank's boundary may lag behind the
  /// cycle stepped (the skewed walk). 0, the default, keeps every layer level after every
  /// step. Every reader of the state requires level layers.
  void set_level_at(Cycle t) { walk_.set_level_at(t); }
  /// Whether every layer has simulated the same cycles (always, on a rank of one block).
  [[nodiscard]] bool level() const { return walk_.level(); }
  /// Layers of the skewed walk (1 on a rank of one block).
  [[nodiscard]] std::size_t layers() const { return walk_.layers(); }

  /// Puts a message in the source queue of `node` (a local node) as if generated at
  /// m.created: scripted traffic for tests and hand-worked scenarios. The layers must be level.
  void enqueue(NodeId node, const Message& m);
  /// Closed-loop traffic (application workloads): asked at every cycle for the messages due
  /// at this rank's nodes and told of every delivery to them. None by default.
  void set_script(MessageScript* script) { script_ = script; }
  /// Called with each packet whose tail is ejected and its delivery cycle (tests, traces); while
  /// the layers lag, in no particular order of cycles.
  using DeliveryObserver = std::function<void(const Packet&, Cycle)>;
  void set_delivery_observer(DeliveryObserver f) { on_delivery_ = std::move(f); }
  /// Told of every flit that crosses a switch and every credit that reaches an output VC
  /// (tests: the reference router's, tests/unit/router/reference_router_test.cpp); null, the
  /// default, for none. The walk then runs its observed copy (kObserved), so that the
  /// unobserved one has no test for it in the per-flit path.
  void set_router_observer(RouterObserver* observer) { observer_ = observer; }

  /// Flits/credits for peer ranks produced since the last clear; index = peer rank.
  [[nodiscard]] std::vector<Outbox>& outboxes() { return links_.outboxes(); }
  /// Peer ranks that share a link with this one (ascending).
  [[nodiscard]] const std::vector<int>& neighbor_ranks() const { return links_.neighbor_ranks(); }
  /// Accepts what a peer sent. Arrival cycles are not in the past; between step_interior(t)
  /// and step_boundary(t) they may be t itself (applied at once, to boundary routers only).
  void receive(const Outbox& from_peer);
  /// Links between this rank's routers and `peer`'s.
  [[nodiscard]] std::uint64_t links_to(int peer) const { return links_.links_to(peer); }
  /// First cycle of the next window: anything sent to another rank must arrive at or after
  /// it (the lookahead promise, checked on every remote send).
  void set_window_end(Cycle t) { links_.set_window_end(t); }

  /// Counters since the last take_window(); resets them.
  TrafficCounters take_window();
  [[nodiscard]] const MeasuredStats& measured() const {
    require(level(), "measured() while the walk's layers are not level");
    return counters_.measured();
  }
  /// Flits switched per local channel during the measurement window, by global channel id.
  [[nodiscard]] std::vector<std::pair<std::uint32_t, std::uint64_t>> channel_flits() const;
  /// Where packets wait (--congestion), this rank's channels by global id (rank_congestion.cpp).
  [[nodiscard]] ChannelCongestion congestion() const;
  /// The flits and messages this rank holds (flits_in_network(), flits_at_sources(),
  /// messages_at_sources()) in O(1), from the counts of what entered and left since the model
  /// was built or restored: what every statistics window records. Equal to counted_gauges().
  [[nodiscard]] FlitGauges gauges() const;
  /// The same, counted router by router (O(routers)): the definition gauges() keeps.
  [[nodiscard]] FlitGauges counted_gauges() const;
  /// Flits currently in router buffers and on links (incl. outboxes), counted directly.
  [[nodiscard]] std::uint64_t flits_in_network() const;
  /// Flits waiting at sources (queued messages and the unsent rest of packets being injected).
  [[nodiscard]] std::uint64_t flits_at_sources() const;
  [[nodiscard]] std::uint64_t messages_at_sources() const;
  /// Messages this rank's sources dropped (--drop-unroutable), from the start.
  [[nodiscard]] std::uint64_t dropped_messages() const { return sources_.dropped_messages(); }
  /// Labelled packets generated and delivered so far (for the drain).
  [[nodiscard]] std::uint64_t measured_created() const {
    require(level(), "measured_created() while the walk's layers are not level");
    return sources_.measured_packets();
  }
  [[nodiscard]] std::uint64_t measured_delivered() const { return measured().delivered_packets; }
  [[nodiscard]] std::uint64_t measured_created_flits() const {
    require(level(), "measured_created_flits() while the walk's layers are not level");
    return sources_.measured_flits();
  }
  /// Input VCs of this rank that hold flits and have moved none for `threshold` cycles or
  /// more before cycle t (the next to simulate): the deadlock detector looks further only when
  /// some rank has one. `threshold` < 2^31.
  [[nodiscard]] std::uint64_t stuck_vcs(Cycle t, Cycle threshold) const;
  /// What each stuck input VC of this rank that cannot move at t waits for (every VC, here
  /// or downstream, whose progress could let it move); a VC with a way to move has no edge.
  /// Exact when nothing is in flight between ranks and `threshold` exceeds the credit
  /// latency (so no credit is on its way from a stuck VC).
  [[nodiscard]] std::vector<WaitEdge> wait_for_edges(Cycle t, Cycle threshold) const;
  /// The state of this rank's routers, partition-independent (see ModelSnapshot). Taken at a
  /// window boundary, after the exchange (outboxes empty).
  [[nodiscard]] ModelSnapshot snapshot() const;
  /// Replaces the state with the union of snapshots `all` (as read from a checkpoint: rows of
  /// this rank's routers, every list entry of any rank); the counters of `all` are global
  /// totals, kept by rank `keeper` only. The configuration must be the one that wrote it.
  void restore(const ModelSnapshot& all, bool keeper);

  /// Bytes of model state held by this rank (buffers, tables, queues).
  [[nodiscard]] std::size_t bytes() const;
  /// The most flits, and the most credits, that one link carries in one direction during a
  /// window of `window` cycles (the exchange between ranks is sized by it).
  [[nodiscard]] std::uint64_t crossing_limit(Cycle window) const;

 private:
  /// Calls f(router, local VC) for every non-empty input VC of an active router that has
  /// waited at least `threshold` cycles at `t`.
  template <class F>
  void for_each_stuck_vc(Cycle t, Cycle threshold, F&& f) const;
  static constexpr std::uint32_t kNoLink = RankLinks::kNoLink;

  void wake(std::uint32_t r);
  /// Opens the engine's cycle t: the messages a script releases at t, and the deeper layers
  /// brought to where layer 0 can simulate t (and further, at a catch-up).
  void begin_cycle(Cycle t);
  /// Closes the engine's cycle t: layer 0 has simulated it.
  void end_cycle(Cycle t);
  /// Points the walk at cycle c: the wheel's buckets for what it sends, the measurement flag.
  void enter_cycle(Cycle c);
  /// Simulates cycle c at the routers of `layer` (kBoundary: its boundary routers only).
  template <WalkPass kPass>
  void step_layer(std::size_t layer, Cycle c);
  /// kObserved: observer_ is told of every move and credit (set_router_observer()).
  template <WalkPass kPass, bool kBlocked, bool kObserved>
  void step_blocks(std::size_t first, std::size_t end, Cycle c);
  /// The flits and credits due at cycle c at the routers of `block`, applied in the walk just
  /// before the block's routers are stepped; `next` (or kNoBlock) is the block walked next,
  /// whose arrivals the prefetch plan then asks for. kBlocked: a rank of several blocks.
  template <bool kBlocked, bool kObserved>
  [[gnu::always_inline]] inline void arrive(std::size_t block, std::size_t next, Cycle c);
  static constexpr std::size_t kNoBlock = ~std::size_t{0};
  /// The rank's blocks and the links between them (for the skewed walk's layers).
  [[nodiscard]] BlockGraph block_graph() const;
  /// Router r at cycle t, its moves carried on (links, ejection) as they happen. Inlined
  /// into the loop over routers (a call per router saved and restored every register).
  template <bool kBlocked, bool kObserved>
  [[gnu::always_inline]] inline void step_router(std::uint32_t r, Cycle t);
  /// RouterBank::step's on_move (rank_model_walk.hpp): carries on each flit that crosses
  /// the switch.
  template <bool kBlocked, bool kObserved>
  friend struct CarryMove;
  /// A flit enters router r's input VC at t (and the router has work). Inlined: every flit
  /// taken off a link comes here.
  [[gnu::always_inline]] inline void deposit(std::uint32_t r, int local_vc, Flit f, Cycle t);
  void eject(const Flit& f, Cycle t);
  /// Tells observer_ of a flit of router r crossing its switch at t, and of a credit
  /// reaching output VC o (an OutputUnit index) at t. Out of line: the observed walk only.
  [[gnu::noinline]] void observe_move(std::uint32_t r, int in_port, int in_vc, int out_port,
                                      int out_vc, Flit f, Cycle t) const;
  [[gnu::noinline]] void observe_credit(std::uint32_t o, Cycle t) const;
  // send_flit() and send_credit() run for every flit that crosses a switch: inlined into the
  // router step, their rare remote paths kept out of line.
  template <bool kBlocked>
  [[gnu::always_inline]] inline void send_flit(std::uint32_t r, int out_port, int vc, Flit f,
                                               Cycle t);
  template <bool kBlocked>
  [[gnu::always_inline]] inline void send_credit(std::uint32_t r, int in_port, int vc, Cycle t);
  /// The rare path of send_flit(): the link crosses to another rank.
  [[gnu::noinline, gnu::cold]] void send_remote_flit(std::uint32_t remote, int in_port, int vc,
                                                     Flit f, Cycle arrival);
  /// The rare path of send_credit(): the link crosses to another rank.
  [[gnu::noinline, gnu::cold]] void send_remote_credit(std::uint32_t remote, int out_port, int vc,
                                                       Cycle arrival);
  [[nodiscard]] bool idle(std::uint32_t r) const { return bank_.idle(r); }
  /// gauges() without the offsets a restore sets.
  [[nodiscard]] FlitGauges flow_balance() const;
  // Configuration (copied: the hot loop reads them every cycle).
  const Topology& topo_;
  int ports_;          ///< network ports P; port P is the terminal (injection/ejection)
  int vcs_;            ///< VCs per port
  Cycle flit_delay_;   ///< switch allocation + switch + link: cycles from grant to arrival
  Cycle eject_delay_;  ///< switch allocation + switch + ejection channel: grant to delivery
  Cycle credit_delay_;
  /// A head's arrival to the wake of its router for its route (RouterParams::routing_delay)
  /// on a rank of blocks whose wheel spans it; 0: its router wakes at its arrival.
  Cycle route_wake_delay_ = 0;
  Cycle measure_begin_;
  Cycle measure_end_;

  PacketTable packets_;
  RouterBank bank_;
  RankLinks links_;
  TrafficSources sources_;

  /// The flits and credits on local links, by cycle and block (a large rank's arrivals are
  /// applied block by block, just before the walk steps the block's routers).
  ArrivalWheel wheel_;
  WalkSchedule walk_{1};  ///< the layers of the walk and the cycles each has simulated
  ArrivalWheel::Slot* arriving_ = nullptr;  ///< the slot of the cycle being stepped
  /// The buckets of what the cycle being stepped sends (its local sends all arrive together:
  /// the delays are fixed), set by enter_cycle().
  WheelBucket<Arrival>* flits_due_ = nullptr;
  WheelBucket<std::uint32_t>* credits_due_ = nullptr;
  /// Routers with work (bit r % 64 of word r / 64). Stepped in index order: routers are
  /// laid out by index, so a large rank walks its state forwards (prefetch-friendly) rather
  /// than in wake order; nothing wakes another router within a cycle's router loop (arrivals
  /// land on the wheel), so the bit scan meets every router that was active at its start.
  /// A router that holds flits is active, except while its only flits are heads waiting out
  /// their routing delay at idle VCs (a rank of blocks: arrive() wakes it when they route).
  HugeVector<std::uint64_t> active_;
  bool cycle_open_ = false;  ///< between step_interior(t) and step_boundary(t)

  /// Counts by cycle masked like the wheel, which spans the layers' spread.
  RankCounters counters_;
  /// What the walk over a rank of blocks asks for ahead of use, and when.
  PrefetchPlan plan_;
  Cycle now_ = 0;                ///< first cycle not yet simulated
  bool in_measurement_ = false;  ///< the cycle being stepped is in the measurement window
  DeliveryObserver on_delivery_;
  RouterObserver* observer_ = nullptr;
  MessageScript* script_ = nullptr;
  std::vector<std::pair<NodeId, Message>> released_;  ///< scratch for script_->release()
  std::uint64_t remote_in_ = 0;                       ///< flits received from other ranks
  std::uint64_t remote_out_ = 0;                      ///< flits put in outboxes for other ranks
  /// counted_gauges() - flow_balance() at the restore (zero for a model built empty).
  FlitGauges gauge_offset_;
};

}  // namespace wormnet
