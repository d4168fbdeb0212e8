// The part of the network one rank simulates: its routers (RouterBank), their sources, the
// links that leave them. This class is the loop over the rank's blocks of routers that calls
// its parts (docs/engine.md draws them and the order of a cycle): RankLinks, ArrivalWheel,
// WalkSchedule, PrefetchPlan, RankCounters; RankStateView answers the questions about its
// state. Every link delay is at least one cycle, so the routers of a cycle can be stepped in
// any order, a large rank's layers may lag (the skewed walk) and a rank may run ahead of its
// neighbours by the lookahead. It never sees MPI: what it sends to another rank goes to an
// outbox that the engine's transport carries. The walk itself is in rank_model_walk.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/engine/arrival_wheel.hpp"
#include "wormnet/engine/message_script.hpp"
#include "wormnet/engine/partition.hpp"
#include "wormnet/engine/prefetch_plan.hpp"
#include "wormnet/engine/rank_counters.hpp"
#include "wormnet/engine/rank_links.hpp"
#include "wormnet/engine/rank_state_view.hpp"
#include "wormnet/engine/walk_schedule.hpp"
#include "wormnet/plan/run_plan.hpp"
#include "wormnet/router/router_bank.hpp"
#include "wormnet/router/router_events.hpp"

namespace wormnet {

class RankModel {
 public:
  /// Part `rank` of `partition`, its sources at `rate` flits/node/cycle; `plan` from `config`.
  RankModel(const SimConfig& config, const RunPlan& plan, const Topology& topo,
            const RoutingFunction& routing, const DestinationPattern& pattern,
            const Partition& partition, int rank, double rate, WalkLayout layout = {});
  // The router bank holds a reference to packets_: a model stays where it was built.
  RankModel(const RankModel&) = delete;
  RankModel& operator=(const RankModel&) = delete;

  /// Simulates cycle t: arrivals due at t, messages generated at t, every active router.
  void step(Cycle t);
  /// Cycle t in two halves around receive() of what peers sent for t (to overlap computing
  /// with the exchange): routers without a link to another rank, then the rest. As step(t).
  void step_interior(Cycle t);
  void step_boundary(Cycle t);
  /// The engine reads the state after cycle t - 1 and no sooner: until then the layers away
  /// from the boundary may lag (the skewed walk). 0, the default: level after every step.
  void set_level_at(Cycle t) { walk_.set_level_at(t); }
  [[nodiscard]] bool level() const { return walk_.level(); }           ///< all layers at one cycle
  [[nodiscard]] std::size_t layers() const { return walk_.layers(); }  ///< 1: one block

  /// A message in local `node`'s source queue as if made at m.created (tests); layers level.
  void enqueue(NodeId node, const Message& m);
  /// Closed-loop traffic (workloads): releases messages at every cycle, hears of deliveries.
  void set_script(MessageScript* script) { script_ = script; }
  /// Called with each packet whose tail is ejected and its delivery cycle (tests, traces).
  using DeliveryObserver = std::function<void(const Packet&, Cycle)>;
  void set_delivery_observer(DeliveryObserver f) { on_delivery_ = std::move(f); }
  /// Told of every switch crossing and credit (the reference router's test; default none).
  void set_router_observer(RouterObserver* observer) { observer_ = observer; }

  // Between ranks (RankLinks).
  [[nodiscard]] std::vector<Outbox>& outboxes() { return links_.outboxes(); }
  [[nodiscard]] const std::vector<int>& neighbor_ranks() const { return links_.neighbor_ranks(); }
  /// Accepts what a peer sent. Arrival cycles are not in the past; between step_interior(t)
  /// and step_boundary(t) they may be t itself (applied at once, to boundary routers only).
  void receive(const Outbox& from_peer);
  [[nodiscard]] std::uint64_t links_to(int peer) const { return links_.links_to(peer); }
  void set_window_end(Cycle t) { links_.set_window_end(t); }
  /// The most flits, and credits, one link carries one way in `window` cycles.
  [[nodiscard]] std::uint64_t crossing_limit(Cycle window) const;

  /// Counters since the last call, and the flits per sending channel as (global channel id,
  /// flits) (--congestion series); each resets what it returns. The layers must be level.
  TrafficCounters take_window();
  std::vector<std::pair<std::uint32_t, std::uint64_t>> take_channel_window();
  /// The cycles each receiving channel's input VCs were blocked since the last call, inside
  /// the measurement window, as (global channel id, cycles) (--congestion series;
  /// RouterBank::take_channel_blocked()). The layers must be level.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> take_channel_blocked();
  /// The questions about the rank's state (counts, stuck VCs, snapshot); layers level.
  [[nodiscard]] RankStateView state() const;
  /// The state of a checkpoint `all` (any partition's snapshots, merged) on this rank; its
  /// counters are global totals, kept by rank `keeper` only. Same configuration as wrote it.
  void restore(const ModelSnapshot& all, bool keeper);
  [[nodiscard]] std::size_t bytes() const;  ///< model state held (buffers, tables, hints)

 private:
  // The walk (rank_model_walk.hpp says why each piece is shaped as it is).
  template <bool kBlocked, bool kObserved>
  friend struct CarryMove;
  static constexpr std::size_t kNoBlock = ~std::size_t{0};
  void wake(std::uint32_t r);
  void begin_cycle(Cycle t);  ///< script releases, deeper layers caught up (layers.cpp)
  void end_cycle(Cycle t);    ///< layer 0 has simulated t
  void enter_cycle(Cycle c);  ///< the wheel's buckets of cycle c, the measurement flag
  template <WalkPass kPass>
  void step_layer(std::size_t layer, Cycle c);
  template <WalkPass kPass, bool kBlocked, bool kObserved, bool kCounted, MaskWidth kWidth>
  void step_blocks(std::size_t first, std::size_t end, Cycle c);
  template <WalkPass kPass, bool kBlocked, bool kObserved, bool kCounted>
  void step_blocks_as(std::size_t first, std::size_t end, Cycle c);
  template <bool kBlocked, bool kObserved, bool kCounted, MaskWidth kWidth>
  [[gnu::always_inline]] inline void arrive(std::size_t block, std::size_t next, Cycle c);
  [[nodiscard]] BlockGraph block_graph() const;
  template <bool kBlocked, bool kObserved, bool kCounted, MaskWidth kWidth>
  [[gnu::always_inline]] inline void step_router(std::uint32_t r, Cycle t);
  [[gnu::always_inline]] inline void deposit(std::uint32_t r, int local_vc, Flit f, Cycle t);
  void eject(const Flit& f, Cycle t);
  [[gnu::noinline]] void observe_move(std::uint32_t r, int in_port, int in_vc, int out_port,
                                      int out_vc, Flit f, Cycle t) const;
  [[gnu::noinline]] void observe_credit(std::uint32_t o, Cycle t) const;
  template <bool kBlocked>
  [[gnu::always_inline]] inline void send_flit(std::uint32_t r, int out_port, int vc, Flit f,
                                               Cycle t);
  template <bool kBlocked>
  [[gnu::always_inline]] inline void send_credit(std::uint32_t r, int in_port, int vc, Cycle t);
  [[gnu::noinline, gnu::cold]] void send_remote_flit(std::uint32_t remote, int in_port, int vc,
                                                     Flit f, Cycle arrival);
  [[gnu::noinline, gnu::cold]] void send_remote_credit(std::uint32_t remote, int out_port, int vc,
                                                       Cycle arrival);
  template <MaskWidth kWidth = MaskWidth::kAny>
  [[nodiscard]] bool idle(std::uint32_t r) const {
    return bank_.idle<kWidth>(r);
  }

  // Configuration (copied: the hot loop reads them every cycle) and the parts.
  const Topology& topo_;
  int ports_;          ///< network ports P; port P is the terminal (injection/ejection)
  int vcs_;            ///< VCs per port
  Cycle flit_delay_;   ///< switch allocation + switch + link: cycles from grant to arrival
  Cycle eject_delay_;  ///< switch allocation + switch + ejection channel: grant to delivery
  Cycle credit_delay_;
  Cycle route_wake_delay_ = 0;  ///< a head's arrival to its router's wake (0: at arrival)
  Cycle measure_begin_;
  Cycle measure_end_;
  PacketTable packets_;
  RouterBank bank_;
  RankLinks links_;
  TrafficSources sources_;
  ArrivalWheel wheel_;
  WalkSchedule walk_{1};
  ArrivalWheel::Slot* arriving_ = nullptr;             ///< the slot of the cycle being stepped
  WheelBucket<Arrival>* flits_due_ = nullptr;          ///< where this cycle's flits land
  WheelBucket<std::uint32_t>* credits_due_ = nullptr;  ///< and its credits
  HugeVector<std::uint64_t> active_;  ///< routers with work (engine/router_set.hpp)
  bool cycle_open_ = false;           ///< between step_interior(t) and step_boundary(t)
  RankCounters counters_;
  PrefetchPlan plan_;
  Cycle now_ = 0;  ///< first cycle not yet simulated
  bool in_measurement_ = false;
  bool counted_ = false;  ///< the routers count where packets wait (--congestion): the counted walk
  Cycle count_from_ = 0;  ///< the counted walk runs from this cycle (totals on one layer: begin)
  bool count_opened_ = true;       ///< the counters were opened (RouterBank::open_congestion())
  Cycle count_until_ = ~Cycle{0};  ///< and up to this one (totals on one layer: the window's end)
  bool count_closed_ = false;      ///< the counters were closed (RouterBank::close_congestion())
  DeliveryObserver on_delivery_;
  RouterObserver* observer_ = nullptr;
  MessageScript* script_ = nullptr;
  std::vector<std::pair<NodeId, Message>> released_;  ///< scratch for script_->release()
};

}  // namespace wormnet
