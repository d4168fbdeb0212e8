#include "wormnet/workload/npb_skeletons.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "graph_builder.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

using workload_detail::GraphBuilder;
using workload_detail::Send;
using Lists = std::vector<std::vector<std::uint32_t>>;
__extension__ using Wide = unsigned __int128;

constexpr std::size_t kClasses = 5;  // S, W, A, B, C
std::size_t index_of(NpbClass c) {
  return static_cast<std::size_t>(c);
}

// Problem sizes of NPB 3.3.1 per class (npbparams of each benchmark).
constexpr std::array<std::uint32_t, kClasses> kLuSize = {12, 33, 64, 102, 162};    // nx = ny = nz
constexpr std::array<std::uint32_t, kClasses> kMgSize = {32, 128, 256, 256, 512};  // n^3 grid
constexpr std::array<std::uint32_t, kClasses> kCgNa = {1400, 7000, 14000, 75000, 150000};
constexpr std::array<std::uint32_t, kClasses> kCgNonzer = {7, 8, 11, 13, 15};
constexpr std::array<std::array<std::uint32_t, 3>, kClasses> kFtSize = {
    {{64, 64, 64}, {128, 128, 32}, {256, 256, 128}, {512, 256, 256}, {512, 512, 512}}};
constexpr std::array<int, kClasses> kIsKeysLog2 = {16, 20, 23, 25, 27};
constexpr std::uint32_t kIsBuckets = 1024;  // NUM_BUCKETS of the MPI version (2^10)
constexpr std::uint32_t kIsTestArray = 5;   // TEST_ARRAY_SIZE: sent with the bucket counts
constexpr std::uint32_t kCgInner = 25;      // cgitmax: CG iterations per outer iteration

// The operation counts the benchmarks report (their Mop/s formulas), per iteration.
constexpr double kLuOpsPerPoint = 1984.77;  // leading term of LU's count, per grid point
constexpr double kMgOpsPerPoint = 58.0;     // MG: 58 n^3 per iteration
constexpr double kFtEvolve = 5.23518;       // FT: ntotal (5.23518 + 7.21113 ln ntotal)
constexpr double kFtFft = 7.21113;

int log2_of(std::uint32_t p) {
  return std::countr_zero(p);
}

/// Turns bytes into flits and operations into cycles at the spec's scale and rate, keeping
/// the largest of each for the caller's limits.
class Units {
 public:
  explicit Units(const NpbSpec& s, NpbWorkload& out) : s_(s), out_(out) {}
  /// Flits of a message of `bytes` bytes (0 for none: not sent), at least 1.
  std::uint32_t flits(std::uint64_t bytes) {
    if (bytes == 0) return 0;
    const std::uint64_t per = std::uint64_t{kNpbFlitBytes} * s_.scale;
    const std::uint64_t f = std::max<std::uint64_t>(1, (bytes + per - 1) / per);
    out_.largest_flits = std::max(out_.largest_flits, f);
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(f, MessageGraph::kMaxFlits + 1ULL));
  }
  /// Cycles of `ops` operations (0 without a rate).
  std::uint32_t cycles(double ops) {
    if (s_.rate <= 0 || ops <= 0) return 0;
    const double c = std::ceil(ops / (static_cast<double>(s_.scale) * s_.rate));
    const double limit = MessageGraph::kMaxCompute + 1.0;
    const auto v = static_cast<std::uint64_t>(std::min(c, limit));
    out_.largest_compute = std::max(out_.largest_compute, v);
    return static_cast<std::uint32_t>(v);
  }

 private:
  const NpbSpec& s_;
  NpbWorkload& out_;
};

/// Appends the sends of `to` (skipping itself and empty messages).
void add_send(std::vector<Send>& sends, std::uint32_t p, std::uint32_t to, std::uint32_t flits) {
  if (to != p && flits > 0) sends.push_back(Send{to, flits});
}

/// One process's step and the bookkeeping of what its receivers wait for next.
std::vector<std::uint32_t> run_step(GraphBuilder& b, std::uint32_t p,
                                    const std::vector<Send>& sends, std::uint32_t it,
                                    const std::vector<std::uint32_t>& waits, std::uint32_t compute,
                                    Lists& received) {
  const std::vector<std::uint32_t> ids = b.step(p, sends, it, waits, compute);
  for (std::size_t k = 0; k < sends.size(); ++k) received[sends[k].to].push_back(ids[k]);
  return ids;
}

/// Allreduce by recursive doubling (P a power of two): log2 P steps, partner p xor 2^k, each
/// after the previous step's receive. `waits` holds what each process waits for before it
/// (replaced by what it waits for after: its last receive); `compute[p]` before the first.
void allreduce(GraphBuilder& b, std::uint32_t it, std::uint32_t flits, Lists& waits,
               const std::vector<std::uint32_t>& compute) {
  const std::uint32_t n = b.processes();
  for (std::uint32_t k = 1; k < n; k <<= 1) {
    Lists received(n);
    for (std::uint32_t p = 0; p < n; ++p) {
      std::vector<Send> sends;
      add_send(sends, p, p ^ k, flits);
      run_step(b, p, sends, it, waits[p], k == 1 ? compute[p] : 0, received);
    }
    waits = std::move(received);
  }
}

/// All-to-all in shifted order: p sends to p+1, p+2, ..., p+P-1 (mod P), `flits_to(p, q)`
/// each (0: nothing), after `waits`; returns what each process received.
template <typename Size>
Lists all_to_all(GraphBuilder& b, std::uint32_t it, Size flits_to, const Lists& waits,
                 const std::vector<std::uint32_t>& compute) {
  const std::uint32_t n = b.processes();
  Lists received(n);
  for (std::uint32_t p = 0; p < n; ++p) {
    std::vector<Send> sends;
    for (std::uint32_t k = 1; k < n; ++k) add_send(sends, p, (p + k) % n, flits_to(p, (p + k) % n));
    run_step(b, p, sends, it, waits[p], compute[p], received);
  }
  return received;
}

// --- LU -------------------------------------------------------------------------------------

/// Extent of part `i` of `n` points split into `parts` (the first n mod parts one larger).
std::uint32_t part(std::uint32_t n, std::uint32_t parts, std::uint32_t i) {
  return n / parts + (i < n % parts ? 1 : 0);
}

/// SSOR on an A x B grid (x = xdim, NPB's row index; y = ydim): per iteration a lower sweep
/// (planes k = 2..n-1: receive plane k from -x and -y, compute, send to +x and +y: 5 values
/// per point of the shared line), an upper sweep (planes back, from +x and +y to -x and -y),
/// then rhs's halo exchange two planes deep (x neighbours first, then y) and rhs's
/// computation (a step marker).
void lu(const NpbSpec& s, GraphBuilder& b, Units& u, const std::vector<int>& grid) {
  const std::uint32_t n = kLuSize[index_of(s.size_class)];
  const auto a = static_cast<std::uint32_t>(grid[0]);
  const auto rows = static_cast<std::uint32_t>(grid[1]);
  const std::uint32_t procs = a * rows;
  const std::uint32_t planes = n - 2;
  std::vector<std::uint32_t> nx(procs), ny(procs), plane(procs), rhs(procs);
  for (std::uint32_t p = 0; p < procs; ++p) {
    nx[p] = part(n, a, p % a);
    ny[p] = part(n, rows, p / a);
    // A third of an iteration's operations in each sweep (spread over its planes), a third
    // in rhs, once its halo exchange is in.
    const double third = kLuOpsPerPoint * nx[p] * ny[p] * n / 3.0;
    plane[p] = u.cycles(third / planes);
    rhs[p] = u.cycles(third);
  }
  // A wavefront message holds the 5 values of the line the two processes share (along y
  // between x neighbours); a halo message two planes of them, all n planes deep.
  const auto line = [&](std::uint32_t p, bool along_x) {
    return u.flits(std::uint64_t{5} * 8 * (along_x ? ny[p] : nx[p]));
  };
  const auto face = [&](std::uint32_t p, bool along_x) {
    return u.flits(std::uint64_t{2} * 5 * 8 * (along_x ? ny[p] : nx[p]) * n);
  };
  for (std::uint32_t it = 0; it < s.iterations; ++it) {
    for (int sweep = 0; sweep < 2; ++sweep) {
      for (std::uint32_t k = 0; k < planes; ++k) {
        Lists got(procs);
        for (std::uint32_t i = 0; i < procs; ++i) {
          // Upstream processes first: lower sweep from (0, 0), upper sweep from the far corner.
          const std::uint32_t p = sweep == 0 ? i : procs - 1 - i;
          const std::uint32_t x = p % a;
          const std::uint32_t y = p / a;
          std::vector<Send> sends;
          if (sweep == 0) {
            if (x + 1 < a) add_send(sends, p, p + 1, line(p, true));
            if (y + 1 < rows) add_send(sends, p, p + a, line(p, false));
          } else {
            if (x > 0) add_send(sends, p, p - 1, line(p, true));
            if (y > 0) add_send(sends, p, p - a, line(p, false));
          }
          run_step(b, p, sends, it, got[p], plane[p], got);
        }
      }
    }
    Lists hx(procs);
    for (std::uint32_t p = 0; p < procs; ++p) {
      std::vector<Send> sends;
      if (p % a > 0) add_send(sends, p, p - 1, face(p, true));
      if (p % a + 1 < a) add_send(sends, p, p + 1, face(p, true));
      run_step(b, p, sends, it, {}, 0, hx);
    }
    Lists hy(procs);
    for (std::uint32_t p = 0; p < procs; ++p) {
      std::vector<Send> sends;
      if (p / a > 0) add_send(sends, p, p - a, face(p, false));
      if (p / a + 1 < rows) add_send(sends, p, p + a, face(p, false));
      run_step(b, p, sends, it, hx[p], 0, hy);
    }
    Lists none(procs);
    for (std::uint32_t p = 0; p < procs; ++p) run_step(b, p, {}, it, hy[p], rhs[p], none);
  }
}

// --- MG -------------------------------------------------------------------------------------

/// The V-cycle's halo exchanges (comm3) by level, in order: down from level lt-1 to the
/// coarsest kb (restriction), kb again (smoother), up through kb+1..lt-1 twice each
/// (residual, smoother), lt twice (residual, smoother), and the main loop's residual at lt.
std::vector<int> mg_levels(int lt, int kb) {
  std::vector<int> v;
  for (int k = lt - 1; k >= kb; --k) v.push_back(k);
  v.push_back(kb);
  for (int k = kb + 1; k <= lt - 1; ++k) v.insert(v.end(), {k, k});
  v.insert(v.end(), {lt, lt, lt});
  return v;
}

/// Multigrid on a periodic px x py x pz grid: every comm3 of the V-cycle exchanges with
/// both neighbours along x, then y, then z (each axis after the previous one's receives; a
/// face of the level's local box, with the ghost layers of the axes before), after the
/// computation on that level; after the last iteration, norm2u3's two allreduces.
void mg(const NpbSpec& s, GraphBuilder& b, Units& u, const std::vector<int>& grid) {
  const std::uint32_t n = kMgSize[index_of(s.size_class)];
  const std::uint32_t procs = b.processes();
  const int lt = log2_of(n);
  const int kb = log2_of(static_cast<std::uint32_t>(*std::max_element(grid.begin(), grid.end())));
  const std::vector<int> levels = mg_levels(lt, kb);
  // Operations per comm3 in proportion to its level's points (58 n^3 per iteration).
  double points = 0;
  for (const int k : levels) points += std::ldexp(1.0, 3 * k);
  std::vector<std::uint32_t> ops(static_cast<std::size_t>(lt) + 1);
  for (int k = kb; k <= lt; ++k) {
    ops[static_cast<std::size_t>(k)] =
        u.cycles(kMgOpsPerPoint * std::pow(double(n), 3) / procs * std::ldexp(1.0, 3 * k) / points);
  }
  Lists waits(procs);
  for (std::uint32_t it = 0; it < s.iterations; ++it) {
    for (const int k : levels) {
      std::array<std::uint32_t, 3> l{};  // local extent at level k
      for (std::size_t d = 0; d < 3; ++d) l[d] = (1U << k) / static_cast<std::uint32_t>(grid[d]);
      const std::array<std::uint64_t, 3> faces = {std::uint64_t{l[1]} * l[2],
                                                  std::uint64_t{l[0] + 2} * l[2],
                                                  std::uint64_t{l[0] + 2} * (l[1] + 2)};
      for (std::size_t axis = 0; axis < 3; ++axis) {
        const auto g = static_cast<std::uint32_t>(grid[axis]);
        const std::uint32_t stride = axis == 0 ? 1 : axis == 1 ? grid[0] : grid[0] * grid[1];
        const std::uint32_t flits = u.flits(faces[axis] * 8);
        Lists got(procs);
        for (std::uint32_t p = 0; p < procs; ++p) {
          const std::uint32_t c = p / stride % g;
          const std::uint32_t base = p - c * stride;
          const std::uint32_t up = base + (c + 1) % g * stride;
          const std::uint32_t down = base + (c + g - 1) % g * stride;
          std::vector<Send> sends;
          add_send(sends, p, up, flits);  // NPB's give3: +1 first, then -1
          add_send(sends, p, down, flits);
          run_step(b, p, sends, it, waits[p], axis == 0 ? ops[static_cast<std::size_t>(k)] : 0,
                   got);
        }
        waits = std::move(got);
      }
    }
  }
  // norm2u3 after the loop: the residual's sum of squares and largest value (8 bytes each).
  const std::vector<std::uint32_t> none(procs, 0);
  const std::uint32_t last = s.iterations - 1;
  allreduce(b, last, u.flits(8), waits, none);
  allreduce(b, last, u.flits(8), waits, none);
}

// --- CG -------------------------------------------------------------------------------------

/// Conjugate gradient on nprows x npcols processes (p = col + npcols row): per outer
/// iteration rho = r.r, then 25 times { q = A p: the row's partial products summed by
/// exchanges with col xor 1, 2, ..., npcols/2, then the piece sent to the transpose partner;
/// p.q and r.r summed by exchanges with col xor npcols/2, ..., 1 }, then r = A z (a row sum
/// and a transpose) and ||x - r||, and the main loop's x.z and z.z (one exchange of two).
void cg(const NpbSpec& s, GraphBuilder& b, Units& u, const std::vector<int>& grid) {
  const std::uint32_t na = kCgNa[index_of(s.size_class)];
  const double nz = kCgNonzer[index_of(s.size_class)];
  const auto cols = static_cast<std::uint32_t>(grid[0]);
  const auto rows = static_cast<std::uint32_t>(grid[1]);
  const std::uint32_t procs = cols * rows;
  const int l2 = log2_of(cols);
  const bool square = cols == rows;
  std::vector<std::uint32_t> exch(procs), first(procs), rest(procs), transpose(procs);
  for (std::uint32_t p = 0; p < procs; ++p) {
    const std::uint32_t row = p / cols;
    const std::uint32_t col = p % cols;
    const std::uint32_t lr = part(na, rows, row);  // the row block's length
    // The first exchange (col xor 1) of a non-square grid splits the row block in halves;
    // every later one, and the transpose, moves the half kept (the whole block if square).
    const std::uint32_t kept = square ? lr : (p % 2 == 0 ? (lr + 1) / 2 : lr / 2);
    first[p] = u.flits(std::uint64_t{8} * (square ? lr : lr - kept));
    rest[p] = u.flits(std::uint64_t{8} * kept);
    transpose[p] = rest[p];
    exch[p] = square ? col * rows + row : 2 * ((p / 2 % rows) * rows + p / 2 / rows) + p % 2;
  }
  // The benchmark's operations, shared evenly: a matrix-vector product 2 na nz(nz+1), the
  // vector updates of a CG iteration 10 na (2 before p.q, 6 before r.r, 2 in p = r + beta p,
  // before the next product), the outer iteration's norms 6 na each.
  const double share = 1.0 / procs;
  const std::uint32_t matvec = u.cycles(2.0 * na * nz * (nz + 1) * share);
  const std::uint32_t update = u.cycles(2.0 * na * share);
  const std::uint32_t pq = u.cycles(2.0 * na * share);
  const std::uint32_t rr = u.cycles(6.0 * na * share);
  const std::uint32_t norm = u.cycles(6.0 * na * share);
  const std::uint32_t one = u.flits(8);
  const std::uint32_t two = u.flits(16);
  Lists waits(procs);
  // A reduction over the row: exchanges with col xor 2^k for k in `order`.
  const auto row_sum = [&](std::uint32_t it, const std::vector<int>& order, std::uint32_t c,
                           const auto& flits_of) {
    for (std::size_t i = 0; i < order.size(); ++i) {
      Lists got(procs);
      for (std::uint32_t p = 0; p < procs; ++p) {
        std::vector<Send> sends;
        add_send(sends, p, p ^ (1U << order[i]), flits_of(p, i));
        run_step(b, p, sends, it, waits[p], i == 0 ? c : 0, got);
      }
      waits = std::move(got);
    }
  };
  std::vector<int> up;  // xor 1, 2, ..., npcols/2: the product's sum
  for (int k = 0; k < l2; ++k) up.push_back(k);
  const std::vector<int> down(up.rbegin(), up.rend());  // npcols/2, ..., 1: the dot products
  const auto scalar = [&](std::uint32_t, std::size_t) { return one; };
  const auto pair = [&](std::uint32_t, std::size_t) { return two; };
  const auto product = [&](std::uint32_t p, std::size_t i) { return i == 0 ? first[p] : rest[p]; };
  const auto multiply = [&](std::uint32_t it, std::uint32_t c) {
    row_sum(it, up, c, product);
    Lists got(procs);
    for (std::uint32_t p = 0; p < procs; ++p) {
      std::vector<Send> sends;
      add_send(sends, p, exch[p], transpose[p]);
      run_step(b, p, sends, it, waits[p], 0, got);
    }
    waits = std::move(got);
  };
  for (std::uint32_t it = 0; it < s.iterations; ++it) {
    row_sum(it, down, 0, scalar);  // rho = r.r
    for (std::uint32_t cgit = 0; cgit < kCgInner; ++cgit) {
      multiply(it, matvec + (cgit > 0 ? update : 0));
      row_sum(it, down, pq, scalar);  // d = p.q
      row_sum(it, down, rr, scalar);  // z, r updated; rho = r.r
    }
    multiply(it, matvec + update);    // r = A z (after the last p = r + beta p)
    row_sum(it, down, norm, scalar);  // ||x - r||
    row_sum(it, down, norm, pair);    // x.z and z.z
  }
}

// --- FT -------------------------------------------------------------------------------------

/// 3-D FFT in the one-dimensional layout: per iteration evolve and the FFT along the two
/// local dimensions, the transpose (an all-to-all of ntotal / P^2 complex numbers, 16 bytes,
/// per pair), the FFT along the third, and the checksum reduced to process 0 (one complex,
/// by a binomial tree: p sends to p - lowbit(p) once its children's sums are in).
void ft(const NpbSpec& s, GraphBuilder& b, Units& u) {
  const auto& size = kFtSize[index_of(s.size_class)];
  const double total = double(size[0]) * size[1] * size[2];
  const std::uint32_t procs = b.processes();
  const std::uint32_t pair = u.flits(static_cast<std::uint64_t>(total) / procs / procs * 16);
  const double fft = kFtFft * std::log(total) * total / procs;
  const std::vector<std::uint32_t> before(procs, u.cycles(kFtEvolve * total / procs + fft * 2 / 3));
  const std::uint32_t after = u.cycles(fft / 3);
  const std::uint32_t sum = u.flits(16);
  Lists waits(procs);
  for (std::uint32_t it = 0; it < s.iterations; ++it) {
    Lists got = all_to_all(
        b, it, [&](std::uint32_t, std::uint32_t) { return pair; }, waits, before);
    Lists partial(procs);
    Lists none(procs);
    for (std::uint32_t i = procs; i-- > 0;) {  // children (i + 2^k) before their parent
      // The last FFT and the local checksum (a step marker), then MPI_Reduce: the partial
      // sums of the children, then the parent.
      run_step(b, i, {}, it, got[i], after, none);
      std::vector<Send> sends;
      if (i != 0) add_send(sends, i, i - (i & (~i + 1)), sum);
      run_step(b, i, sends, it, partial[i], 0, partial);
    }
    waits.assign(procs, {});
  }
}

// --- IS -------------------------------------------------------------------------------------

/// Keys of each bucket, expected: NPB's keys are max_key (x1 + x2 + x3 + x4) / 4 for uniform
/// x's, so a bucket's share is the difference of the Irwin-Hall (n = 4) distribution function
/// at its ends; exact in integers (bucket b ends at 4b/1024 = b/256), counts floor(N F) apart.
std::vector<std::uint64_t> is_bucket_keys(std::uint64_t keys) {
  const auto g = [](std::int64_t b) {  // 24 * 256^4 * F(b / 256)
    static constexpr std::int64_t kChoose[] = {1, 4, 6, 4, 1};
    std::int64_t v = 0;
    for (std::int64_t k = 0; k <= 4 && 256 * k <= b; ++k) {
      const std::int64_t x = b - 256 * k;
      v += (k % 2 == 0 ? 1 : -1) * kChoose[k] * x * x * x * x;
    }
    return v;
  };
  const Wide whole = static_cast<Wide>(g(kIsBuckets));
  std::vector<std::uint64_t> out(kIsBuckets);
  std::uint64_t before = 0;
  for (std::uint32_t b = 0; b < kIsBuckets; ++b) {
    const auto upto = static_cast<std::uint64_t>(static_cast<Wide>(keys) *
                                                 static_cast<std::uint64_t>(g(b + 1)) / whole);
    out[b] = upto - before;
    before = upto;
  }
  return out;
}

/// Integer sort: per iteration the bucket counts summed by an allreduce (recursive
/// doubling, 1029 ints), an all-to-all of the counts to send (an int per pair), and the
/// all-to-all of the keys, pair (i, j) the keys of i in j's buckets: buckets go to processes
/// in order until each has N/P keys (NPB's rule, on the expected counts), so the sizes vary
/// with the keys' bell-shaped distribution and a process past the last bucket gets none.
void is(const NpbSpec& s, GraphBuilder& b, Units& u) {
  const std::uint32_t procs = b.processes();
  const std::uint64_t keys = std::uint64_t{1} << kIsKeysLog2[index_of(s.size_class)];
  const std::vector<std::uint64_t> bucket = is_bucket_keys(keys);
  std::vector<std::uint64_t> owned(procs, 0);  // keys of each process's buckets
  std::uint64_t total = 0;
  std::uint32_t j = 0;
  for (std::uint32_t k = 0; k < kIsBuckets && j < procs; ++k) {
    total += bucket[k];
    owned[j] += bucket[k];
    if (total * procs >= (j + 1ULL) * keys) ++j;
  }
  std::vector<std::uint32_t> to(procs);
  // Every process holds an equal share of a bucket range's keys (4 bytes each), rounded up.
  for (std::uint32_t q = 0; q < procs; ++q) to[q] = u.flits((owned[q] * 4 + procs - 1) / procs);
  const std::uint32_t counts = u.flits((kIsBuckets + kIsTestArray) * 4);
  const std::uint32_t one = u.flits(4);
  // The benchmark counts an operation per key and iteration: half in counting the keys into
  // buckets (before the allreduce), half in ranking the keys received (after the exchange).
  const std::uint32_t half = u.cycles(static_cast<double>(keys) / procs / 2);
  const std::vector<std::uint32_t> counting(procs, half);
  const std::vector<std::uint32_t> none(procs, 0);
  Lists waits(procs);
  for (std::uint32_t it = 0; it < s.iterations; ++it) {
    allreduce(b, it, counts, waits, counting);
    waits = all_to_all(
        b, it, [&](std::uint32_t, std::uint32_t) { return one; }, waits, none);
    waits = all_to_all(
        b, it, [&](std::uint32_t, std::uint32_t q) { return to[q]; }, waits, none);
    Lists ranked(procs);  // the ranking of the keys received: a step marker
    for (std::uint32_t p = 0; p < procs; ++p) run_step(b, p, {}, it, waits[p], half, ranked);
    waits.assign(procs, {});
  }
}

}  // namespace

NpbBenchmark npb_of(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kNpbLu:
      return NpbBenchmark::kLu;
    case WorkloadKind::kNpbMg:
      return NpbBenchmark::kMg;
    case WorkloadKind::kNpbCg:
      return NpbBenchmark::kCg;
    case WorkloadKind::kNpbFt:
      return NpbBenchmark::kFt;
    case WorkloadKind::kNpbIs:
      return NpbBenchmark::kIs;
    default:
      throw std::logic_error(std::string("npb_of: ") + enum_name(kind) + " is not an NPB skeleton");
  }
}

std::vector<int> npb_grid(NpbBenchmark b, std::uint32_t processes) {
  const int d = log2_of(processes);
  switch (b) {
    case NpbBenchmark::kLu:  // xdim = 2^ceil(d/2)
      return {1 << ((d + 1) / 2), 1 << (d / 2)};
    case NpbBenchmark::kMg: {  // px = 2^(d/3), py = 2^((d - d/3)/2), pz the rest
      const int dx = d / 3;
      const int dy = (d - dx) / 2;
      return {1 << dx, 1 << dy, 1 << (d - dx - dy)};
    }
    case NpbBenchmark::kCg:  // npcols = 2^ceil(d/2), nprows = 2^floor(d/2)
      return {1 << ((d + 1) / 2), 1 << (d / 2)};
    case NpbBenchmark::kFt:
    case NpbBenchmark::kIs:
      break;
  }
  return {static_cast<int>(processes)};
}

std::string npb_fits(NpbBenchmark b, NpbClass c, std::uint32_t processes) {
  if (processes < 2 || !std::has_single_bit(processes)) {
    return "a power of two of at least 2 processes";
  }
  const std::vector<int> g = npb_grid(b, processes);
  const std::size_t k = index_of(c);
  switch (b) {
    case NpbBenchmark::kLu:
      if (static_cast<std::uint32_t>(std::max(g[0], g[1])) > kLuSize[k]) {
        return "at most " + std::to_string(kLuSize[k]) + " processes along a side of its " +
               std::to_string(g[0]) + "x" + std::to_string(g[1]) + " grid (a grid point each)";
      }
      break;
    case NpbBenchmark::kMg:
      if (static_cast<std::uint32_t>(*std::max_element(g.begin(), g.end())) >= kMgSize[k]) {
        return "fewer than " + std::to_string(kMgSize[k]) + " processes along a side of its " +
               std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" + std::to_string(g[2]) +
               " grid (two levels of a point per process at least)";
      }
      break;
    case NpbBenchmark::kCg:
      if (kCgNa[k] < 2ULL * processes) {
        return "at most " + std::to_string(kCgNa[k] / 2) +
               " processes (two rows of the matrix each)";
      }
      break;
    case NpbBenchmark::kFt: {
      const std::uint32_t most = std::min(kFtSize[k][1], kFtSize[k][2]);
      if (processes > most) {
        return "at most " + std::to_string(most) +
               " processes (a plane each in the "
               "one-dimensional layout)";
      }
      break;
    }
    case NpbBenchmark::kIs:
      if (processes > kIsBuckets) {
        return "at most " + std::to_string(kIsBuckets) + " processes (a bucket each)";
      }
      break;
  }
  return "";
}

std::uint64_t npb_messages_bound(const NpbSpec& s, std::uint32_t processes) {
  const std::uint64_t p = processes;
  const std::uint64_t d = static_cast<std::uint64_t>(log2_of(processes));
  const std::vector<int> g = npb_grid(s.benchmark, processes);
  const std::size_t k = index_of(s.size_class);
  std::uint64_t per = 0;
  std::uint64_t once = 0;
  switch (s.benchmark) {
    case NpbBenchmark::kLu: {  // 2E(n - 1) messages, 2(n - 2) + P markers
      const std::uint64_t a = static_cast<std::uint64_t>(g[0]);
      const std::uint64_t rows = static_cast<std::uint64_t>(g[1]);
      per = 2 * ((a - 1) * rows + a * (rows - 1)) * (kLuSize[k] - 1) + 2 * (kLuSize[k] - 2) + p;
      break;
    }
    case NpbBenchmark::kMg: {  // 6P per comm3 (or 3P markers), 3(lt - kb) + 2 of them; two
                               // allreduces at the end
      const int lt = log2_of(kMgSize[k]);
      const int kb = log2_of(static_cast<std::uint32_t>(*std::max_element(g.begin(), g.end())));
      per = 6 * p * static_cast<std::uint64_t>(3 * (lt - kb) + 2);
      once = 2 * d * p;
      break;
    }
    case NpbBenchmark::kCg:  // 79 exchanges and 26 transposes per process
      per = (79 * static_cast<std::uint64_t>(log2_of(static_cast<std::uint32_t>(g[0]))) + 26) * p;
      break;
    case NpbBenchmark::kFt:  // P(P - 1), a reduction of P - 1, P markers
      per = p * (p - 1) + 2 * p;
      break;
    case NpbBenchmark::kIs:  // allreduce, two all-to-alls, P markers
      per = d * p + 2 * p * (p - 1) + p;
      break;
  }
  return per * s.iterations + once;
}

NpbWorkload make_npb(const NpbSpec& spec, std::span<const std::uint32_t> node_of) {
  const auto processes = static_cast<std::uint32_t>(node_of.size());
  require(npb_fits(spec.benchmark, spec.size_class, processes).empty(),
          "make_npb: the benchmark does not run on this many processes");
  require(spec.scale >= 1 && spec.iterations >= 1, "make_npb: scale and iterations >= 1");
  NpbWorkload out;
  Units u(spec, out);
  GraphBuilder b(node_of);
  const std::vector<int> grid = npb_grid(spec.benchmark, processes);
  switch (spec.benchmark) {
    case NpbBenchmark::kLu:
      lu(spec, b, u, grid);
      break;
    case NpbBenchmark::kMg:
      mg(spec, b, u, grid);
      break;
    case NpbBenchmark::kCg:
      cg(spec, b, u, grid);
      break;
    case NpbBenchmark::kFt:
      ft(spec, b, u);
      break;
    case NpbBenchmark::kIs:
      is(spec, b, u);
      break;
  }
  out.graph = b.take();
  return out;
}

}  // namespace wormnet
