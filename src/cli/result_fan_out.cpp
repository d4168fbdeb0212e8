#include "result_fan_out.hpp"

namespace wormnet::cli {

void ResultFanOut::begin_point(int index, double offered_load) {
  if (writer_ != nullptr) writer_->begin_point(index, offered_load);
}

void ResultFanOut::window(const WindowRow& row) {
  printer_.window(row);
  if (writer_ != nullptr) writer_->window(row);
}

void ResultFanOut::channel_window(
    Cycle cycle_end, const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits,
    const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_blocked) {
  if (writer_ != nullptr) writer_->channel_window(cycle_end, channel_flits, channel_blocked);
}

void ResultFanOut::congestion(const ChannelCongestion& mine) {
  if (writer_ != nullptr) writer_->congestion(mine);
}

void ResultFanOut::end_point(
    const RunSummary& summary, const MeasuredStats& measured,
    const std::vector<std::pair<std::uint32_t, std::uint64_t>>& channel_flits) {
  printer_.finish();
  if (writer_ != nullptr) writer_->end_point(summary, measured, channel_flits);
}

}  // namespace wormnet::cli
