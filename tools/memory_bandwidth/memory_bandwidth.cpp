// The machine's memory limits that a loop over state far beyond the caches runs into
// (issue 42: "report the measured DRAM-bound figure and how far it is from the machine's
// memory bandwidth limit"). Three figures, each on 1 and on 2 threads (one per rank of the
// 2-rank runs), over an array far larger than the last-level cache:
//   * stream: a sequential read of 8-byte words summed, bytes/s (the bandwidth bound);
//   * random lines: reads of one word from independent random 64-byte lines (indices known in
//     advance, so the core overlaps the misses as the simulator's loop over many routers can),
//     lines/s: the bound for a loop whose every state access is a miss to a random line;
//   * chase: a dependent chain of random line reads (each address comes from the last load),
//     ns per line: the latency of one miss, the bound when nothing overlaps.
// Not part of the simulator and not a test: a benchmark that prints its figures.
//   usage: wormnet_memory_bandwidth [--mib N] [--seconds S]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kLineWords = 8;  // 64-byte lines of 8-byte words

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Runs `work(thread index)` on `threads` threads at once; the wall-clock seconds of all.
template <class Work>
double timed(int threads, Work work) {
  const Clock::time_point start = Clock::now();
  std::vector<std::thread> pool;
  for (int k = 0; k < threads; ++k) pool.emplace_back(work, k);
  for (std::thread& t : pool) t.join();
  return seconds_since(start);
}

struct Figures {
  double stream_bytes_per_s = 0;
  double random_lines_per_s = 0;
  double chase_ns_per_line = 0;
};

// Each thread works on its own array (as each rank owns its part of the model).
Figures measure(std::vector<std::vector<std::uint64_t>>& arrays, int threads, int repeats) {
  Figures f;
  const std::size_t words = arrays[0].size();
  const std::size_t lines = words / kLineWords;
  std::vector<std::uint64_t> sink(static_cast<std::size_t>(threads) * 8,
                                  0);  // per thread, own line

  // Stream: every word of the array, `repeats` times.
  const double stream_s = timed(threads, [&](int k) {
    const std::vector<std::uint64_t>& a = arrays[static_cast<std::size_t>(k)];
    std::uint64_t sum = 0;
    for (int r = 0; r < repeats; ++r) sum += std::accumulate(a.begin(), a.end(), std::uint64_t{0});
    sink[static_cast<std::size_t>(k) * 8] = sum;
  });
  f.stream_bytes_per_s =
      static_cast<double>(threads) * repeats * static_cast<double>(words) * 8 / stream_s;

  // Random lines: indices from a generator the core computes ahead of the loads.
  const std::size_t reads = lines;  // as many reads as the array has lines
  const double random_s = timed(threads, [&](int k) {
    const std::vector<std::uint64_t>& a = arrays[static_cast<std::size_t>(k)];
    std::uint64_t x = 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(k);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < reads; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;  // an LCG: no dependence on loads
      sum += a[((x >> 20) % lines) * kLineWords];
    }
    sink[static_cast<std::size_t>(k) * 8] += sum;
  });
  f.random_lines_per_s = static_cast<double>(threads) * static_cast<double>(reads) / random_s;

  // Chase: the array's lines linked in one random cycle (word 0 of each line: the next line).
  for (int k = 0; k < threads; ++k) {
    std::vector<std::uint64_t>& a = arrays[static_cast<std::size_t>(k)];
    std::vector<std::uint64_t> order(lines);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    std::shuffle(order.begin(), order.end(), std::mt19937_64(7 + static_cast<unsigned>(k)));
    for (std::size_t i = 0; i < lines; ++i) {
      a[order[i] * kLineWords] = order[(i + 1) % lines] * kLineWords;
    }
  }
  const std::size_t steps = std::min<std::size_t>(lines, 20'000'000);
  const double chase_s = timed(threads, [&](int k) {
    const std::vector<std::uint64_t>& a = arrays[static_cast<std::size_t>(k)];
    std::uint64_t at = 0;
    for (std::size_t i = 0; i < steps; ++i) at = a[at];
    sink[static_cast<std::size_t>(k) * 8] += at;
  });
  f.chase_ns_per_line = chase_s * 1e9 / static_cast<double>(steps);
  if (std::accumulate(sink.begin(), sink.end(), std::uint64_t{0}) == 42) std::puts("");  // keep
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The machine's memory bandwidth, random-line rate and miss latency"};
  std::size_t mib = 1024;
  int repeats = 3;
  app.add_option("--mib", mib, "MiB per thread (far beyond the last-level cache)")
      ->check(CLI::Range(std::size_t{64}, std::size_t{16384}));
  app.add_option("--repeats", repeats, "passes of the sequential read")->check(CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);

  std::printf("%-8s %14s %18s %16s\n", "threads", "stream GB/s", "random Mlines/s",
              "chase ns/line");
  for (int threads : {1, 2}) {
    std::vector<std::vector<std::uint64_t>> arrays;
    for (int k = 0; k < threads; ++k) {
      arrays.emplace_back(mib * 1024 * 1024 / 8);
      std::vector<std::uint64_t>& a = arrays.back();
      for (std::size_t i = 0; i < a.size(); ++i) a[i] = i;  // touch every page
    }
    const Figures f = measure(arrays, threads, repeats);
    std::printf("%-8d %14.2f %18.1f %16.1f\n", threads, f.stream_bytes_per_s / 1e9,
                f.random_lines_per_s / 1e6, f.chase_ns_per_line);
  }
  return 0;
}
