// Private to src/io: the names of a checkpoint's objects in the file (checkpoint_file.hpp;
// docs/hdf5-schema.md). The fields themselves are declared once, in checkpoint_layout.hpp;
// these are their names. The root attributes every wormnet file has are in h5/h5_schema.hpp.
#pragma once

#include <string_view>

namespace wormnet::io::schema {

namespace checkpoint {
/// fixed string on the root: kKind.
inline constexpr std::string_view kKindAttr = "kind";
inline constexpr std::string_view kKind = "wormnet checkpoint";
/// int64 on the root: the checkpoint layout version (checkpoint_file.cpp's history).
inline constexpr std::string_view kVersionAttr = "checkpoint_version";
/// uint64 on every dataset: its digest (wormnet/h5/row_digest.hpp).
inline constexpr std::string_view kDigestAttr = "digest";
/// uint64 on the root: the digest of the progress and shape attributes.
inline constexpr std::string_view kAttributesDigestAttr = "attributes_digest";

// Root attributes: the run's progress (io::RunProgress) and the routers' shape.
inline constexpr std::string_view kCommand = "command";
inline constexpr std::string_view kOutput = "output";
inline constexpr std::string_view kPoint = "point";
inline constexpr std::string_view kRate = "rate";
inline constexpr std::string_view kLeftAfterSaturation = "left_after_saturation";
inline constexpr std::string_view kCycle = "cycle";
inline constexpr std::string_view kWindowStart = "window_start";
inline constexpr std::string_view kNextWindow = "next_window";
inline constexpr std::string_view kNextCheck = "next_check";
inline constexpr std::string_view kFlitHops = "flit_hops";
inline constexpr std::string_view kSeriesRows = "series_rows";
inline constexpr std::string_view kSummaryRows = "summary_rows";
inline constexpr std::string_view kPorts = "ports";
inline constexpr std::string_view kVcs = "vcs";
inline constexpr std::string_view kDepth = "depth";
inline constexpr std::string_view kNodes = "nodes";

/// Group of the per-router rows (row = global router id).
inline constexpr std::string_view kRouters = "routers";
inline constexpr std::string_view kIvcReady = "ivc_ready";
inline constexpr std::string_view kIvcSince = "ivc_since";
inline constexpr std::string_view kIvcMeta = "ivc_meta";
inline constexpr std::string_view kFlitPacket = "flit_packet";
inline constexpr std::string_view kFlitKind = "flit_kind";
inline constexpr std::string_view kOvcCredits = "ovc_credits";
inline constexpr std::string_view kOvcOwner = "ovc_owner";
inline constexpr std::string_view kOvcPacket = "ovc_packet";
inline constexpr std::string_view kVaLast = "va_last";
inline constexpr std::string_view kSaLastVc = "sa_last_vc";
inline constexpr std::string_view kSaLastPort = "sa_last_port";
inline constexpr std::string_view kInjection = "injection";
inline constexpr std::string_view kCongVcWait = "congestion_vc_wait";
inline constexpr std::string_view kCongCreditWait = "congestion_credit_wait";
inline constexpr std::string_view kCongHeld = "congestion_held";
inline constexpr std::string_view kCongOccupancy = "congestion_occupancy";
inline constexpr std::string_view kCongFlits = "congestion_flits";
inline constexpr std::string_view kCongWindowFlits = "congestion_window_flits";
inline constexpr std::string_view kCongBlockedMark = "congestion_blocked_mark";
inline constexpr std::string_view kSourceCounter = "source_counter";
inline constexpr std::string_view kSourceNextTime = "source_next_time";
inline constexpr std::string_view kSourceSequence = "source_sequence";
inline constexpr std::string_view kChannelFlits = "channel_flits";

// Lists (one group each, a dataset per column, rows of every rank in rank order).
inline constexpr std::string_view kFlitsList = "lists/flits";
inline constexpr std::string_view kCreditsList = "lists/credits";
inline constexpr std::string_view kMessagesList = "lists/messages";
inline constexpr std::string_view kStreamsList = "lists/streams";
inline constexpr std::string_view kPacketsList = "lists/packets";
inline constexpr std::string_view kArrival = "arrival";
inline constexpr std::string_view kRouter = "router";
inline constexpr std::string_view kLocalVc = "local_vc";
inline constexpr std::string_view kPacket = "packet";
inline constexpr std::string_view kKindColumn = "kind";
inline constexpr std::string_view kCreated = "created";
inline constexpr std::string_view kDest = "dest";
inline constexpr std::string_view kLength = "length";
inline constexpr std::string_view kMeasured = "measured";
inline constexpr std::string_view kSequence = "sequence";
inline constexpr std::string_view kInjected = "injected";
inline constexpr std::string_view kId = "id";
inline constexpr std::string_view kSource = "source";
inline constexpr std::string_view kState = "state";
inline constexpr std::string_view kHops = "hops";

/// Group of the additive counters, stored as global sums.
inline constexpr std::string_view kCounters = "counters";
inline constexpr std::string_view kWindowCounters = "window";
inline constexpr std::string_view kScalars = "scalars";
inline constexpr std::string_view kLatencyTotal = "latency_total";
inline constexpr std::string_view kLatencyNetwork = "latency_network";
inline constexpr std::string_view kLatencyQueueing = "latency_queueing";
/// Group and dataset of a closed-loop workload's progress (RunProgress::workload), when the
/// run has one.
inline constexpr std::string_view kWorkload = "workload";
inline constexpr std::string_view kWorkloadTimes = "times";
/// Attributes of a histogram dataset: uint64 totals (its digest covers them).
inline constexpr std::string_view kHistogramCount = "count";
inline constexpr std::string_view kHistogramSum = "sum";
inline constexpr std::string_view kHistogramMax = "max";
}  // namespace checkpoint

}  // namespace wormnet::io::schema
