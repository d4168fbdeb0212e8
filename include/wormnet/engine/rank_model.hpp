// The part of the network one rank simulates: its routers (a RouterBank: the pipeline and its
// state), its terminals (sources and sinks) and the links that leave them. This class is the
// loop over the rank's blocks of routers that calls its parts (docs/engine.md): the links
// (RankLinks: where each link leads, the outboxes for other ranks), the walk's schedule
// (WalkSchedule), the counters (RankCounters); it keeps the arrival wheel that delays flits
// and credits on local links and the set of active routers. Routers interact only through
// links whose latency is >= 1 cycle, so the routers of a cycle can be stepped in any order, and
// a rank can run ahead of its neighbours by the lookahead. This class never sees MPI: flits
// and credits bound for another rank are appended to outboxes that the engine's transport
// carries.
//
// The skewed walk. A large rank's routers form blocks (2^block_shift consecutive local
// indices), and the blocks layers by their distance from the rank's boundary; the deeper
// layers may lag behind the engine's cycle between the cycles the engine reads the state
// (WalkSchedule, walk_schedule.hpp, says which layer simulates which cycle). Results are those
// of the level walk, bit for bit.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/engine/message_script.hpp"
#include "wormnet/engine/model_snapshot.hpp"
#include "wormnet/engine/partition.hpp"
#include "wormnet/engine/rank_counters.hpp"
#include "wormnet/engine/rank_links.hpp"
#include "wormnet/engine/router_set.hpp"
#include "wormnet/engine/walk_schedule.hpp"
#include "wormnet/engine/wheel_bucket.hpp"
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
  struct Arrival {
    std::uint32_t router;    ///< local router index
    std::uint16_t local_vc;  ///< port * vcs + vc
    Flit flit;
  };
  /// A head that reached the front of an input VC, due for its route: it wakes the router
  /// for it, and hints at the packet record and the router's output VCs that its VC
  /// allocation reads.
  struct RouteDue {
    std::uint32_t router;  ///< local router index
    std::uint32_t packet;  ///< PacketTable slot
  };
  /// A VC expected to move a flit over a link (after the flits it holds): hints only (the
  /// output VC's record, whose credit the move takes, the link and its flit counter).
  struct MoveDue {
    std::uint32_t output;   ///< OutputUnit index
    std::uint32_t channel;  ///< RankLinks::slot() (links and channel counters), or kNoLink
  };
  /// The arrivals due at one cycle, in one bucket per block of routers (see blocks_).
  struct WheelSlot {
    std::vector<WheelBucket<Arrival>> flits;
    std::vector<WheelBucket<std::uint32_t>> credits;  ///< OutputUnit indices
    /// Heads deposited routing_delay cycles before this slot's cycle (a large rank, with a
    /// routing delay the wheel spans): hints, read while the walk is a block before theirs,
    /// and the routers to wake for their route (arrive()).
    std::vector<WheelBucket<RouteDue>> routes;
    /// Moves due at this slot's cycle, left by the arrivals of the cycle or two before.
    std::vector<WheelBucket<MoveDue>> moves;
  };
  static constexpr std::uint32_t kNoLink = RankLinks::kNoLink;

  /// Which active routers a pass over the bitmap steps.
  enum class Pass { kAll, kInterior, kBoundary };
  void wake(std::uint32_t r);
  /// Opens the engine's cycle t: the messages a script releases at t, and the deeper layers
  /// brought to where layer 0 can simulate t (and further, at a catch-up).
  void begin_cycle(Cycle t);
  /// Closes the engine's cycle t: layer 0 has simulated it.
  void end_cycle(Cycle t);
  /// Points the walk at cycle c: the wheel's buckets for what it sends, the measurement flag.
  void enter_cycle(Cycle c);
  /// Simulates cycle c at the routers of `layer` (kBoundary: its boundary routers only).
  template <Pass kPass>
  void step_layer(std::size_t layer, Cycle c);
  /// kObserved: observer_ is told of every move and credit (set_router_observer()).
  template <Pass kPass, bool kBlocked, bool kObserved>
  void step_blocks(std::size_t first, std::size_t end, Cycle c);
  /// The flits and credits due at cycle c at the routers of `block`, applied in the walk just
  /// before the block's routers are stepped; `next` (or kNoBlock) is the block walked next,
  /// whose arrivals ask_ahead() then hints at. kBlocked: a rank of several blocks (hints).
  template <bool kBlocked, bool kObserved>
  [[gnu::always_inline]] inline void arrive(std::size_t block, std::size_t next, Cycle c);
  static constexpr std::size_t kNoBlock = ~std::size_t{0};
  /// The next block's arrivals not yet asked for (arrive() sets them, ask_ahead(n) asks for
  /// the next n).
  struct Ahead {
    const Arrival* flit = nullptr;
    const Arrival* flits_end = nullptr;
    const std::uint32_t* credit = nullptr;
    const std::uint32_t* credits_end = nullptr;
    const RouteDue* route = nullptr;
    const RouteDue* routes_end = nullptr;
    const MoveDue* move = nullptr;
    const MoveDue* moves_end = nullptr;
  };
  void ask_ahead(std::size_t n);
  /// Hints for a move: the output VC's record, the link's neighbour and its flit counter.
  /// No effect on the state.
  void prefetch_move(const MoveDue& m) const;
  /// After a flit's deposit at cycle c into input VC local_vc of router r (of `block`): if
  /// the VC holds an output VC, hints for its move now, and on the wheel for its next moves.
  void hint_moves(std::size_t block, std::uint32_t r, int local_vc, bool tail, Cycle c);
  /// The rank's blocks and the links between them (for the skewed walk's layers).
  [[nodiscard]] BlockGraph block_graph() const;
  /// Router r at cycle t, its moves carried on (links, ejection) as they happen. Inlined
  /// into the loop over routers (a call per router saved and restored every register).
  template <bool kBlocked, bool kObserved>
  [[gnu::always_inline]] inline void step_router(std::uint32_t r, Cycle t);
  /// RouterBank::step's on_move for router r at cycle t: carries on each flit that crosses
  /// the switch. A functor whose call is always inlined: the per-flit path makes no call.
  template <bool kBlocked, bool kObserved>
  struct Carry {
    RankModel& model;
    std::uint32_t r;
    Cycle t;
    [[gnu::always_inline]] inline void operator()(int in_port, int in_vc, int out_port, int out_vc,
                                                  Flit f) const;
  };
  /// Cycle of the arrivals in wheel bucket w (the wheel holds the next wheel_.size() cycles
  /// from now_).
  [[nodiscard]] Cycle arrival_cycle(std::size_t w) const {
    const Cycle base = now_ & ~static_cast<Cycle>(wheel_mask_);
    const Cycle c = base + w;
    return c < now_ ? c + wheel_.size() : c;
  }
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
  /// The wheel bucket (block) of local router r.
  [[nodiscard]] std::size_t block_of(std::uint32_t r) const {
    return blocks_ > 1 ? r >> block_shift_ : 0;
  }
  /// The rare path of send_flit(): the link crosses to another rank.
  [[gnu::noinline, gnu::cold]] void send_remote_flit(std::uint32_t remote, int in_port, int vc,
                                                     Flit f, Cycle arrival);
  /// The rare path of send_credit(): the link crosses to another rank.
  [[gnu::noinline, gnu::cold]] void send_remote_credit(std::uint32_t remote, int out_port, int vc,
                                                       Cycle arrival);
  [[nodiscard]] bool idle(std::uint32_t r) const { return bank_.idle(r); }
  // Configuration (copied: the hot loop reads them every cycle).
  const Topology& topo_;
  int ports_;          ///< network ports P; port P is the terminal (injection/ejection)
  int vcs_;            ///< VCs per port
  Cycle flit_delay_;   ///< switch allocation + switch + link: cycles from grant to arrival
  Cycle eject_delay_;  ///< switch allocation + switch + ejection channel: grant to delivery
  Cycle credit_delay_;
  /// A head's arrival to its route (RouterParams::routing_delay) when the wheel spans it
  /// and the rank is large: its hints then wait on the wheel; 0: hinted at arrival.
  Cycle route_hint_delay_ = 0;
  /// Cycles ahead that hint_moves() leaves hints on the wheel for (0: none, a small rank).
  Cycle move_hint_span_ = 0;
  Cycle measure_begin_;
  Cycle measure_end_;

  PacketTable packets_;
  RouterBank bank_;
  RankLinks links_;
  TrafficSources sources_;

  std::vector<WheelSlot> wheel_;  ///< arrivals by cycle modulo its size (a power of two)
  std::size_t wheel_mask_ = 0;
  /// The wheel keeps a cycle's arrivals in one bucket per block of 2^block_shift_ routers
  /// (local index >> block_shift_), and the walk over a block applies them just before it
  /// steps the block's routers. On a rank too large for the caches, applying them all in a
  /// pass before the walk touched each receiving router's state twice from memory: the
  /// deposit, then the router's own step, after the state had left the cache. Ranks smaller
  /// than WalkLayout::blocked_min keep one block: their state stays in the caches, and the
  /// buckets would only add work.
  int block_shift_ = 10;
  std::size_t blocks_ = 1;
  /// The layers of the walk and the cycles each has simulated.
  WalkSchedule walk_{1};
  WheelSlot* arriving_ = nullptr;  ///< the slot of the cycle being stepped
  /// The buckets (one per block) of the flits and the credits sent during the cycle being
  /// stepped (all of a cycle's local sends arrive together: the delays are fixed), set by
  /// enter_cycle().
  WheelBucket<Arrival>* flits_due_ = nullptr;
  WheelBucket<std::uint32_t>* credits_due_ = nullptr;
  /// The next block's arrivals not yet hinted at (within the current cycle's buckets, which
  /// no send of the cycle grows: sends are a cycle or more ahead).
  Ahead ahead_;
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
  Cycle now_ = 0;                ///< first cycle not yet simulated
  bool in_measurement_ = false;  ///< the cycle being stepped is in the measurement window
  DeliveryObserver on_delivery_;
  RouterObserver* observer_ = nullptr;
  MessageScript* script_ = nullptr;
  std::vector<std::pair<NodeId, Message>> released_;  ///< scratch for script_->release()
};

}  // namespace wormnet
