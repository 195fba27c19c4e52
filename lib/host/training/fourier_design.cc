// The Fourier design: a Fourier-type map alone. Feature blocks stream through the map into the
// ridge statistics (Z'Z, Z'Y, Z'1 through BLAS, gram.h: O(D^2) memory, never O(n D)); the head
// comes from a Cholesky solve of those statistics; selection accumulates one set per fold, so
// every fold's training statistics are a subtraction and one pass serves the whole lambda grid.
#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <utility>

#include "training/design.h"
#include "maps/fourier_map.h"
#include "training/gram.h"
#include "data/row_source.h"
#include "model/quantize_head.h"

namespace rfk::host {

namespace {

// Streams the source's rows through a map in blocks of at most kGramRows: one pass (RowBlocks)
// routes the rows into groups (folds, or one group), and fn(g, Z, rb, R) gets each block's features
// (Z: R x D floats), its group and its R global rows; then *done advances and progress is reported.
// The blocks are fixed by the groups' row lists alone, never by the source's chunks (gram.h: they
// are the unit of float summation). The buffers serve every Run.
class BlockStream {
 public:
  BlockStream(const TrainContext& ctx, const FourierMap& m)
      : ctx_(ctx), m_(m), ws_(ctx.threads), Z_(kGramRows * m.features()),
        ranks_(ctx.ranks ? static_cast<std::size_t>(ctx.ranks->size()) : 1) {}

  template <class Fn>
  void Run(std::size_t groups, const RowBlocks::GroupOf& group_of, std::uint64_t* done, std::uint64_t total,
           const std::string& what, Fn&& fn) {
    RowBlocks(groups, kGramWindow, kGramRows)
        .Run(*ctx_.source, group_of,
             [&](std::size_t g, const Dataset& rows, const std::uint32_t* local, const std::uint32_t* rb, std::size_t R) {
          ComputeBlock(InputRows{rows, ctx_.scaling}, m_, local, R, Z_.data(), &ws_, ctx_.threads);
          fn(g, Z_.data(), rb, R);
          *done += R * ranks_;  // distributed: this rank's share stands for every rank's
          ctx_.Progress(*done, total, what);
        });
  }

 private:
  const TrainContext& ctx_;
  const FourierMap& m_;
  std::vector<MapWorkspace> ws_;
  std::vector<float> Z_;
  std::size_t ranks_;
};

// Distributed training: a set of statistics summed over the ranks (TrainContext::Sum), G's upper
// triangle in place (D (D + 1) / 2 doubles: the reduction's size; nothing reads G below its
// diagonal, and GramAccumulator fills none of it), the rest packed into one message. Each element
// is summed in rank order wherever it sits, so packing changes no bit.
void SumOverRanks(const TrainContext& ctx, RidgeStats* st) {
  if (ctx.ranks == nullptr) return;
  const std::size_t D = st->D;
  double* g = st->G.data();
  std::size_t at = 0;  // row i's part, g[i][i .. D), moves to g + at: left, past every packed row
  for (std::size_t i = 0; i < D; ++i) {
    std::memmove(g + at, g + i * D + i, (D - i) * sizeof(double));
    at += D - i;
  }
  ctx.Sum(g, at);
  for (std::size_t i = D; i-- > 0;) {  // back, last row first: each moves right of the rows before it
    at -= D - i;
    std::memmove(g + i * D + i, g + at, (D - i) * sizeof(double));
    std::fill(g + i * D, g + i * D + i, 0.0);
  }
  std::vector<double> v(st->h);
  v.insert(v.end(), st->s.begin(), st->s.end());
  v.insert(v.end(), st->ysum.begin(), st->ysum.end());
  v.push_back(st->n);
  ctx.Sum(&v);
  auto it = v.begin();
  for (std::vector<double>* part : {&st->h, &st->s, &st->ysum}) {
    std::copy(it, it + static_cast<std::ptrdiff_t>(part->size()), part->begin());
    it += static_cast<std::ptrdiff_t>(part->size());
  }
  st->n = *it;
}

// Each group's ridge statistics (a fold's, the calibration's group of the other folds' rows, or the
// one group of all rows) through map m, weighted
// by the targets' row weights, in one pass. Memory: a set per group and O(kGramRows * D).
// tap, if set, sees every block's features after they were added (FourierDesign::Fit keeps the
// calibration sample's).
using BlockTap = std::function<void(std::size_t g, const float* Z, const std::uint32_t* rb, std::size_t R)>;
std::vector<RidgeStats> Accumulate(const TrainContext& ctx, const FourierMap& m, std::size_t groups,
                                   const RowBlocks::GroupOf& group_of, std::uint64_t* done,
                                   std::uint64_t total, const std::string& what, const BlockTap& tap = nullptr) {
  const std::uint32_t D = m.features(), K = ctx.targets.K;
  const Targets& tg = ctx.targets;
  std::vector<RidgeStats> st(groups, RidgeStats(D, K));
  GramAccumulator gram(D, K, ctx.threads);
  std::vector<double> Yb(kGramRows * K), wb(tg.w.empty() ? 0 : kGramRows);
  BlockStream(ctx, m).Run(groups, group_of, done, total, what,
                          [&](std::size_t g, const float* Z, const std::uint32_t* rb, std::size_t R) {
                            for (std::size_t r = 0; r < R; ++r) {
                              tg.Row(rb[r], Yb.data() + r * K);
                              if (!wb.empty()) wb[r] = tg.w[rb[r]];
                            }
                            gram.Add(Z, R, Yb.data(), wb.empty() ? nullptr : wb.data(), &st[g]);
                            if (tap) tap(g, Z, rb, R);
                          });
  for (RidgeStats& g : st) SumOverRanks(ctx, &g);
  return st;
}

// Every row in group 0.
int AllRows(std::size_t) { return 0; }

// Each group's statistics and their sum, in one pass over the data: the folds' (selection), or
// the calibration's groups (CalibrationSample: its held-out folds, then at most one group of the
// other rows, which only the sum needs). Fold f's training statistics are then a subtraction
// (SolveRidge's `without`: total minus fold f, no copy), not another pass. Memory: the folds' sets
// and the sum (a group beyond them becomes the sum in place).
struct FoldStats {
  std::vector<RidgeStats> fold;  // the held-out groups' statistics
  RidgeStats total;
};

FoldStats AccumulateFolds(const TrainContext& ctx, const FourierMap& m, std::size_t groups, std::size_t folds,
                          const RowBlocks::GroupOf& group_of, std::uint64_t* done, std::uint64_t total,
                          const std::string& what, const BlockTap& tap = nullptr) {
  FoldStats fs;
  fs.fold = Accumulate(ctx, m, groups, group_of, done, total, what, tap);
  if (fs.fold.size() > folds) {  // groups - folds <= 1: the other rows
    fs.total = std::move(fs.fold.back());
    fs.fold.pop_back();
  } else {
    fs.total = RidgeStats(m.features(), ctx.targets.K);
  }
  for (const RidgeStats& f : fs.fold) fs.total.Add(f, 1.0);
  return fs;
}

// Fold f's L heads (D x K weights, K biases each): solve() on the rank whose item f is
// (TrainContext::Mine; every fold in one process), sent from there to every other rank -- the bits
// every rank would have solved, as every rank holds the same statistics.
template <class Solve>
std::vector<Head> SolveFold(const TrainContext& ctx, std::size_t f, std::size_t L, std::uint32_t D, Solve&& solve) {
  if (ctx.ranks == nullptr) return solve();
  const std::uint32_t K = ctx.targets.K;
  const std::size_t per = std::size_t{D} * K + K;
  std::vector<Head> heads = ctx.Mine(f) ? solve() : std::vector<Head>(L);
  std::vector<double> v(L * per);
  for (std::size_t l = 0; l < L && ctx.Mine(f); ++l) {
    std::copy(heads[l].W.begin(), heads[l].W.end(), v.begin() + static_cast<std::ptrdiff_t>(l * per));
    std::copy(heads[l].bias.begin(), heads[l].bias.end(), v.begin() + static_cast<std::ptrdiff_t>(l * per + per - K));
  }
  ctx.Share(f, &v);
  for (std::size_t l = 0; l < L; ++l) {
    const auto at = v.begin() + static_cast<std::ptrdiff_t>(l * per);
    heads[l].W.assign(at, at + static_cast<std::ptrdiff_t>(per - K));
    heads[l].bias.assign(at + static_cast<std::ptrdiff_t>(per - K), at + static_cast<std::ptrdiff_t>(per));
  }
  return heads;
}

// Heads side by side for HeadOutputs: W (D x L*K) and bias (L*K).
struct StackedHeads {
  std::vector<double> W, bias;
};

StackedHeads Stack(const std::vector<Head>& heads, std::uint32_t D, std::uint32_t K) {
  const std::size_t LK = heads.size() * K;
  StackedHeads s;
  s.W.resize(std::size_t{D} * LK);
  s.bias.resize(LK);
  for (std::size_t l = 0; l < heads.size(); ++l) {
    for (std::uint32_t i = 0; i < D; ++i)
      for (std::uint32_t k = 0; k < K; ++k) s.W[i * LK + l * K + k] = heads[l].W[std::size_t{i} * K + k];
    for (std::uint32_t k = 0; k < K; ++k) s.bias[l * K + k] = heads[l].bias[k];
  }
  return s;
}

// Held-out losses of several heads: rows of group g (group_of) are scored with heads[g][l] for
// every l. Returns the summed (weighted) losses per l: each group's rows added in row order, then
// the groups' sums in group order.
std::vector<double> Score(const TrainContext& ctx, const FourierMap& m, const RowBlocks::GroupOf& group_of,
                          const std::vector<std::vector<Head>>& heads, std::uint64_t* done,
                          std::uint64_t total, const std::string& what) {
  const std::uint32_t D = m.features(), K = ctx.targets.K;
  const std::size_t L = heads[0].size(), groups = heads.size();
  std::vector<std::vector<double>> err(groups, std::vector<double>(L, 0.0));
  std::vector<double> out(kGramRows * L * K);
  std::vector<StackedHeads> sh;
  for (const std::vector<Head>& h : heads) sh.push_back(Stack(h, D, K));
  BlockStream(ctx, m).Run(groups, group_of, done, total, what,
                          [&](std::size_t g, const float* Z, const std::uint32_t* rb, std::size_t R) {
                            HeadOutputs(Z, R, D, sh[g].W, sh[g].bias, ctx.threads, out.data());
                            for (std::size_t r = 0; r < R; ++r)
                              for (std::size_t l = 0; l < L; ++l)
                                err[g][l] += ctx.targets.Weight(rb[r]) *
                                             RowLoss(ctx.targets, out.data() + (r * L + l) * K, rb[r]);
                          });
  for (std::vector<double>& e : err) ctx.Sum(&e);
  std::vector<double> sum(L, 0.0);
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t l = 0; l < L; ++l) sum[l] += err[g][l];
  return sum;
}

class FourierDesign final : public Design {
 public:
  explicit FourierDesign(const TrainContext& ctx)
      : ctx_(ctx),
        base_(ctx.opt.gamma > 0 ? ctx.opt.gamma : ctx.report->gamma_default),
        draws_(DrawFourierMap(ctx.opt.map, ctx.opt.kernel, ctx.opt.features,
                              static_cast<std::uint32_t>(ctx.data.cols), ctx.opt.seed, ctx.threads, ctx.opt.w_storage)),
        positive_rows_(ctx.targets.w.empty() ? ctx.data.rows
                                             : static_cast<std::size_t>(std::count_if(ctx.targets.w.begin(), ctx.targets.w.end(),
                                                                                      [](double v) { return v > 0; }))) {}

  double Gamma(double factor) const override { return base_ * factor; }
  // The default: a point at +inf error replaces the start only at a smaller gamma.
  double StartGamma() const override { return base_; }
  std::vector<double> HeldOutLosses(double factor, const Folds& folds,
                                    const std::vector<double>& lambdas) override;
  // The full-data statistics at the best factor: the sum of its folds' (Fit solves them).
  std::uint32_t HalfFeatures() const override { return half_features_; }
  std::vector<double> HalfFeatureLosses() const override { return half_err_; }
  void KeepBest() override {
    best_total_ = std::move(total_);
    kept_ = true;
  }
  Head Fit(double factor, double lambda, const CalibrationSample* cal) override;
  bool ComputesHeldOutOutputs() const override { return true; }
  void HeldOutOutputs(double factor, double lambda, const CalibrationSample& cal, std::vector<double>* out) override;
  void Describe(ModelSpec* spec, std::string* metadata) const override;
  double Loss(const Head& head, std::size_t stride) override;
  const Int8Head* RoundedHead() const override { return int8_head_.get(); }

 private:
  // Selection in the dual (DualHeldOutOutputs) where the rows are fewer than the features, at
  // most kDualMaxRows, in one process, and their features and kernel matrix fit the memory limit:
  // an n x n solve per fold and lambda costs less than the primal's D x D one, and every lambda
  // is a direct solve (the primal's neighbours take CG iterations per output). The held-out errors
  // match the primal's to rounding; the fit (Fit) is the primal's, from the same statistics.
  static constexpr std::size_t kDualMaxRows = 4096;
  // The half-frequency model (Design::HalfFeatures): measured with at least this many features,
  // in the primal of one process; its heads join Score's as zero-padded heads over all D features.
  static constexpr std::uint32_t kMinHalfFeatures = 64;
  std::vector<std::uint32_t> HalfIndices(const FourierMap& m) const;
  void AddHalfHeads(const FoldStats& fs, const std::vector<std::uint32_t>& idx, const std::vector<double>& lambdas,
                    std::uint32_t D, std::vector<std::vector<Head>>* heads) const;
  std::uint32_t half_features_ = 0;
  std::vector<double> half_err_;
  // Decides at the first factor and counts the dual's memory into the report's estimate.
  bool SelectsInDual();
  std::vector<double> DualHeldOutLosses(const FourierMap& m, const Folds& folds, const std::vector<double>& lambdas,
                                        const std::string& what);

  // With an int8 head: rounds the fitted head for its outputs on the fit's statistics.
  void RoundHead(const RidgeStats& stats, double lambda, const Head& head) {
    if (ctx_.opt.head_storage == format::Storage::kInt8)
      int8_head_ = std::make_unique<Int8Head>(GptqInt8Head(stats, lambda, head, ctx_.threads));
  }

  // Fit's features of the calibration sample (its rows in this rank's share) where memory allows
  // (KeepsCalibrationFeatures), per (window, held-out fold) in the fit's order: the rows
  // HeldOutOutputs's own pass would route into that window's fold group, which it cuts with
  // CutBlocks into the blocks that pass would cut (the fit's blocks, cut from all of the fold's
  // rows, can differ with a stride) -- so the outputs are the same bits without the features
  // computed again.
  struct KeptGroup {
    std::uint32_t fold;
    std::size_t window, rows;
  };
  struct KeptFeatures {
    std::vector<float> Z;             // every group's rows x D, one group after the other
    std::vector<std::uint32_t> rows;  // their global rows
    std::vector<KeptGroup> groups;
  };

  // Fit's store for the calibration sample's features (KeptFeatures), or null (then HeldOutOutputs
  // computes them again) where that is cheaper than keeping them -- a Fastfood map, or fewer than
  // kKeepMinInputs inputs per row -- or where the training's memory estimate plus the sample's D
  // floats a row would pass its limit. The estimate then counts the store.
  std::unique_ptr<KeptFeatures> KeepsCalibrationFeatures(const CalibrationSample& cal) {
    if (format::IsFastfood(ctx_.opt.map) || InputsPerRow() < kKeepMinInputs) return nullptr;
    TrainReport& rep = *ctx_.report;
    const std::size_t sampled = cal.rows.size(), D = map_->features();
    const double bytes = static_cast<double>(sampled) * (4.0 * static_cast<double>(D) + 4.0);
    if (rep.memory_limit > 0 && rep.memory_estimate + bytes > rep.memory_limit) return nullptr;
    rep.memory_estimate += bytes;
    auto kf = std::make_unique<KeptFeatures>();
    kf->Z.reserve(sampled * D);  // one allocation; a rank touches only its share's pages
    kf->rows.reserve(sampled);
    return kf;
  }

  // Storing a feature, touching its page the first time and reading it back cost about as much as
  // a projection's multiply-adds over this many inputs (dense and orthogonal maps: one per input,
  // or per stored value of a sparse row, for each feature). Measured on a 2-core AMD EPYC VM,
  // 2026-11-27, one thread, same model bytes either way: with the store, Forest (54 inputs,
  // D = 5000) trained 0.9-1.3 s slower (16.3-17.3 s against 15.4-16.0 s) with 0.8 GB more peak
  // memory; Fashion-MNIST (784 inputs, D = 4000) calibrated 0.55 s faster (1.75 s against 2.3 s).
  static constexpr double kKeepMinInputs = 256;

  // The inputs a dense or orthogonal map multiplies per feature of a row: d, or a sparse row's
  // mean stored values where the rows stay sparse (in memory, not centred).
  double InputsPerRow() const {
    const Dataset& data = ctx_.data;
    if (data.sparse && !ctx_.scaling.centred && data.rows > 0 && data.row_ptr.size() == data.rows + 1)
      return static_cast<double>(data.row_ptr.back()) / static_cast<double>(data.rows);
    return data.cols;
  }

  const TrainContext& ctx_;
  double base_;  // the map's gamma at factor 1
  std::unique_ptr<FourierDraws> draws_;
  std::unique_ptr<FourierMap> map_;  // at the fitted factor
  RidgeStats total_;                 // the last factor's full-data statistics
  RidgeStats best_total_;            // the best factor's
  bool selected_ = false;            // HeldOutLosses ran
  bool kept_ = false;                // KeepBest ran: a point had a comparable error
  Folds dual_folds_;                 // the dual's folds (count 0: primal): Fit accumulates their sum
  std::unique_ptr<FoldStats> calibration_stats_;  // Fit's, for HeldOutOutputs (without selection)
  std::unique_ptr<KeptFeatures> calibration_features_;  // Fit's, for HeldOutOutputs
  std::size_t positive_rows_;                     // rows of weight > 0
  std::unique_ptr<Int8Head> int8_head_;           // Fit's int8 head (RoundHead)
};

bool FourierDesign::SelectsInDual() {
  const std::size_t n = ctx_.data.rows, D = ctx_.opt.features;
  if (ctx_.ranks != nullptr || n > D || n > kDualMaxRows) return false;
  TrainReport& rep = *ctx_.report;
  if (rep.selection_dual) return true;  // counted at the first factor
  // The rows' features (float, then double for the kernel matrix's DGEMM), the kernel matrix and
  // one fold's system and factor: n x 12 D + 24 n^2 bytes at most.
  const double bytes = static_cast<double>(n) * (12.0 * static_cast<double>(D) + 24.0 * static_cast<double>(n));
  if (rep.memory_limit > 0 && rep.memory_estimate + bytes > rep.memory_limit) return false;
  rep.memory_estimate += bytes;
  rep.selection_dual = true;
  return true;
}

// The dual: one pass keeps every row's features, then DualHeldOutOutputs scores every lambda from
// the rows' kernel matrix. No statistics: Fit accumulates the chosen factor's, as the primal
// selection would have kept them (a D x D set per fold and their sum per factor tried cost a
// tenth of a 1,000-row selection).
std::vector<double> FourierDesign::DualHeldOutLosses(const FourierMap& m, const Folds& folds,
                                                     const std::vector<double>& lambdas, const std::string& what) {
  const std::size_t n = ctx_.data.rows, D = m.features(), K = ctx_.targets.K, nf = folds.count;
  std::vector<float> Z(n * D);
  std::uint64_t done = 0;
  BlockStream(ctx_, m).Run(nf, [&folds](std::size_t row) { return folds.Of(row); }, &done, 2 * n, what,
                           [&Z, D](std::size_t, const float* Zb, const std::uint32_t* rb, std::size_t R) {
                             for (std::size_t r = 0; r < R; ++r)
                               std::copy(Zb + r * D, Zb + (r + 1) * D, Z.data() + std::size_t{rb[r]} * D);
                           });
  std::vector<int> fold(n);
  for (std::size_t i = 0; i < n; ++i) fold[i] = folds.Of(i);
  const std::vector<std::vector<double>> out =
      DualHeldOutOutputs(KernelMatrix(Z.data(), n, D, ctx_.threads), n, ctx_.targets.Matrix(), K, ctx_.targets.w,
                         fold, nf, lambdas, ctx_.threads);
  ctx_.Progress(2 * n, 2 * n, what);
  // Summed as Score sums: each fold's rows in row order, then the folds' sums in fold order.
  std::vector<double> err(lambdas.size(), 0.0);
  for (std::size_t l = 0; l < lambdas.size(); ++l) {
    std::vector<double> per(nf, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      per[static_cast<std::size_t>(fold[i])] += ctx_.targets.Weight(i) * RowLoss(ctx_.targets, out[l].data() + i * K, i);
    for (std::size_t f = 0; f < nf; ++f) err[l] += per[f];
  }
  dual_folds_ = folds;
  return err;
}

std::vector<double> FourierDesign::HeldOutLosses(double factor, const Folds& folds,
                                                 const std::vector<double>& lambdas) {
  selected_ = true;
  total_ = RidgeStats();  // not the best (KeepBest took that): free it before the next set
  const double gamma = Gamma(factor);
  const std::unique_ptr<FourierMap> m = draws_->At(gamma);
  const std::size_t nf = folds.count;
  const std::string what = "cv gamma " + FormatDouble(gamma);
  if (SelectsInDual()) return DualHeldOutLosses(*m, folds, lambdas, what);
  const std::uint64_t total = 2ull * ctx_.data.rows;  // per gamma: accumulate, then score
  std::uint64_t done = 0;
  FoldStats fs =
      AccumulateFolds(ctx_, *m, nf, nf, [&folds](std::size_t row) { return folds.Of(row); }, &done, total, what);
  std::vector<std::vector<Head>> heads(nf);
  for (std::size_t f = 0; f < nf; ++f)
    heads[f] = SolveFold(ctx_, f, lambdas.size(), m->features(),
                         [&] { return SolveRidgePath(fs.total, lambdas, ctx_.threads, &fs.fold[f]); });
  const std::vector<std::uint32_t> half = HalfIndices(*m);
  if (!half.empty()) AddHalfHeads(fs, half, lambdas, m->features(), &heads);
  std::vector<double> err = Score(ctx_, *m, [&folds](std::size_t row) { return folds.Of(row); }, heads, &done,
                                  total, what);
  half_features_ = static_cast<std::uint32_t>(half.size());
  half_err_.assign(err.begin() + static_cast<std::ptrdiff_t>(lambdas.size()), err.end());
  err.resize(lambdas.size());
  total_ = std::move(fs.total);
  return err;
}

std::vector<std::uint32_t> FourierDesign::HalfIndices(const FourierMap& m) const {
  std::vector<std::uint32_t> idx;
  const std::uint32_t D = m.features();
  if (ctx_.ranks != nullptr || D < kMinHalfFeatures) return idx;  // ranks: SolveFold shares full heads only
  const bool pairs = FindFourierMap(ctx_.opt.map)->pairs;
  const std::uint32_t F = pairs ? D / 2 : D, half = F / 2;
  for (std::uint32_t j = 0; j < half; ++j) idx.push_back(j);
  for (std::uint32_t j = 0; pairs && j < half; ++j) idx.push_back(F + j);
  return idx;
}

void FourierDesign::AddHalfHeads(const FoldStats& fs, const std::vector<std::uint32_t>& idx,
                                 const std::vector<double>& lambdas, std::uint32_t D,
                                 std::vector<std::vector<Head>>* heads) const {
  const RidgeStats total = SubStats(fs.total, idx);
  for (std::size_t f = 0; f < heads->size(); ++f) {
    const RidgeStats fold = SubStats(fs.fold[f], idx);
    for (RidgeSolution& h : SolveRidgePath(total, lambdas, ctx_.threads, &fold)) {
      Head padded;  // zero weights on the other features: the half model's outputs
      padded.W.assign(std::size_t{D} * h.bias.size(), 0.0);
      for (std::size_t i = 0; i < idx.size(); ++i)
        std::copy_n(h.W.begin() + static_cast<std::ptrdiff_t>(i * h.bias.size()), h.bias.size(),
                    padded.W.begin() + static_cast<std::ptrdiff_t>(std::size_t{idx[i]} * h.bias.size()));
      padded.bias = std::move(h.bias);
      (*heads)[f].push_back(std::move(padded));
    }
  }
}

// With selection, the statistics KeepBest kept (empty, and refused by SolveRidge, only if no
// point had a comparable error); without, one pass over every row -- with a calibration sample,
// its groups' statistics and their sum (the head is solved from the sum, as after selection), kept
// for HeldOutOutputs, which then needs no pass of its own. Peak memory: held-out folds + 1 sets and
// the solve, no more than HeldOutOutputs itself holds.
Head FourierDesign::Fit(double factor, double lambda, const CalibrationSample* cal) {
  // Without a penalty, the centred Gram matrix of n rows has rank < n: singular for D >= n. (Its
  // float noise, gram.h, could otherwise pass for tiny pivots.)
  const std::size_t rows = positive_rows_;
  if (lambda == 0 && rows <= ctx_.opt.features)
    throw TrainError("the ridge system is singular (" + std::to_string(ctx_.opt.features) + " features, " +
                     std::to_string(rows) + " rows) and could not be factorised; use --lambda > 0");
  total_ = RidgeStats();
  map_ = draws_->At(Gamma(factor));
  if (!selected_ && cal) {
    std::uint64_t done = 0;
    calibration_features_ = KeepsCalibrationFeatures(*cal);
    BlockTap tap;
    if (calibration_features_) {
      KeptFeatures& kf = *calibration_features_;
      const std::size_t D = map_->features();
      tap = [&kf, cal, D](std::size_t g, const float* Z, const std::uint32_t* rb, std::size_t R) {
        if (g >= cal->held_out) return;
        std::size_t kept = 0;
        for (std::size_t r = 0; r < R; ++r) {
          if (rb[r] % cal->stride != 0) continue;
          kf.Z.insert(kf.Z.end(), Z + r * D, Z + (r + 1) * D);
          kf.rows.push_back(rb[r]);
          ++kept;
        }
        if (kept == 0) return;
        const std::size_t window = kf.rows.back() / kGramWindow;  // a block is within one window
        if (!kf.groups.empty() && kf.groups.back().fold == g && kf.groups.back().window == window)
          kf.groups.back().rows += kept;
        else
          kf.groups.push_back({static_cast<std::uint32_t>(g), window, kept});
      };
    }
    calibration_stats_ = std::make_unique<FoldStats>(
        AccumulateFolds(ctx_, *map_, cal->Groups(), cal->held_out, [cal](std::size_t row) { return cal->GroupOf(row); },
                        &done, ctx_.data.rows, "features + Z'Z (per fold)", tap));
    Head head = SolveRidge(calibration_stats_->total, lambda, ctx_.threads);
    RoundHead(calibration_stats_->total, lambda, head);
    return head;
  }
  if (!selected_) {
    std::uint64_t done = 0;
    best_total_ = std::move(Accumulate(ctx_, *map_, 1, AllRows, &done, ctx_.data.rows, "features + Z'Z")[0]);
  } else if (dual_folds_.count != 0 && kept_) {  // the sum of the folds' statistics, as the primal keeps it
    std::uint64_t done = 0;
    const Folds folds = dual_folds_;
    best_total_ = AccumulateFolds(ctx_, *map_, folds.count, folds.count, [&folds](std::size_t row) { return folds.Of(row); },
                                  &done, ctx_.data.rows, "features + Z'Z (per fold)")
                      .total;
  }
  Head head = SolveRidge(best_total_, lambda, ctx_.threads);
  RoundHead(best_total_, lambda, head);
  best_total_ = RidgeStats();
  return head;
}

// One pass accumulating the sample's groups' statistics (none when Fit kept them), a solve per
// held-out fold at lambda, one pass scoring the sampled rows (none when Fit kept their features).
// out gets their outputs, K per row, in row order.
void FourierDesign::HeldOutOutputs(double factor, double lambda, const CalibrationSample& cal,
                                   std::vector<double>* out) {
  const double gamma = Gamma(factor);
  const std::unique_ptr<FourierMap> m = draws_->At(gamma);
  const std::uint32_t D = m->features(), K = ctx_.targets.K;
  const std::size_t nh = cal.held_out, n = ctx_.data.rows, sampled = cal.rows.size();
  const std::string what = "calibration";
  const bool kept = calibration_stats_ != nullptr;
  const std::unique_ptr<KeptFeatures> kf = kept ? std::move(calibration_features_) : nullptr;
  calibration_features_.reset();
  const std::uint64_t total = (kept ? 0ull : n) + (kf ? 0ull : sampled);
  std::uint64_t done = 0;
  FoldStats fs = kept ? std::move(*calibration_stats_)
                      : AccumulateFolds(ctx_, *m, cal.Groups(), cal.held_out,
                                        [&cal](std::size_t row) { return cal.GroupOf(row); }, &done, total, what);
  calibration_stats_.reset();
  std::vector<StackedHeads> sh;
  for (std::size_t f = 0; f < nh; ++f)
    sh.push_back(Stack(SolveFold(ctx_, f, 1, D, [&] { return std::vector<Head>{SolveRidge(fs.total, lambda, ctx_.threads, &fs.fold[f])}; }),
                       D, K));
  fs = FoldStats();  // freed before the scoring pass
  out->assign(sampled * std::size_t{K}, 0.0);
  std::vector<double> o(kGramRows * K);
  const auto score = [&](std::size_t f, const float* Z, const std::uint32_t* rb, std::size_t R) {
    HeadOutputs(Z, R, D, sh[f].W, sh[f].bias, ctx_.threads, o.data());
    for (std::size_t r = 0; r < R; ++r)
      std::copy(o.data() + r * K, o.data() + (r + 1) * K, out->data() + cal.Index(rb[r]) * K);
  };
  if (kf) {  // Fit's features, cut into the blocks the pass below would cut
    std::size_t first = 0;
    for (const KeptGroup& kg : kf->groups) {
      CutBlocks(kg.rows, kGramRows, [&](std::size_t at, std::size_t R) {
        score(kg.fold, kf->Z.data() + (first + at) * D, kf->rows.data() + first + at, R);
      });
      first += kg.rows;
    }
  } else {
    BlockStream(ctx_, *m).Run(nh, [&cal](std::size_t row) { return cal.SampleFold(row); }, &done, total, what, score);
  }
  ctx_.Sum(out);  // each row's outputs come from the one rank that holds it: the sum adds zeros
}

void FourierDesign::Describe(ModelSpec* spec, std::string* metadata) const {
  map_->Describe(spec);
  *metadata += std::string("kernel=") + KernelName(ctx_.opt.kernel) + "\nmap=" + MapName(ctx_.opt.map) +
               "\ngamma=" + FormatDouble(map_->gamma()) + "\n";
}

double FourierDesign::Loss(const Head& head, std::size_t stride) {
  std::uint64_t done = 0;
  const std::size_t sampled = (ctx_.data.rows + stride - 1) / stride;
  return Score(ctx_, *map_, [stride](std::size_t row) { return row % stride == 0 ? 0 : -1; }, {{head}}, &done,
               sampled, "training error")[0];
}

}  // namespace

std::unique_ptr<Design> MakeFourierDesign(const TrainContext& ctx) {
  return std::make_unique<FourierDesign>(ctx);
}

}  // namespace rfk::host
