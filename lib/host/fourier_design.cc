// The Fourier design: a Fourier-type map alone. Feature blocks stream through the map into the
// ridge statistics (Z'Z, Z'Y, Z'1 through BLAS, gram.h: O(D^2) memory, never O(n D)); the head
// comes from a Cholesky solve of those statistics; selection accumulates one set per fold, so
// every fold's training statistics are a subtraction and one pass serves the whole lambda grid.
#include <algorithm>
#include <memory>
#include <numeric>
#include <utility>

#include "design.h"
#include "fourier_map.h"
#include "gram.h"
#include "quantize_head.h"

namespace rfk::host {

namespace {

// Streams rows through a map in blocks of kGramRows: fn(Z, rb, R) gets each block's features
// (Z: R x D floats) and its R data rows rb; then *done advances and progress is reported. The
// buffers serve every Run. The blocks are fixed by the row list alone (gram.h: they are the unit
// of float summation).
class BlockStream {
 public:
  BlockStream(const TrainContext& ctx, const FourierMap& m)
      : ctx_(ctx), m_(m), ws_(ctx.threads), Z_(kGramRows * m.features()) {}

  template <class Fn>
  void Run(const std::vector<std::uint32_t>& rows, std::uint64_t* done, std::uint64_t total,
           const std::string& what, Fn&& fn) {
    const InputRows in{ctx_.data, ctx_.scaling};
    for (std::size_t b0 = 0; b0 < rows.size(); b0 += kGramRows) {
      const std::size_t R = std::min(kGramRows, rows.size() - b0);
      const std::uint32_t* rb = rows.data() + b0;
      ComputeBlock(in, m_, rb, R, Z_.data(), &ws_, ctx_.threads);
      fn(Z_.data(), rb, R);
      *done += R;
      ctx_.Progress(*done, total, what);
    }
  }

 private:
  const TrainContext& ctx_;
  const FourierMap& m_;
  std::vector<MapWorkspace> ws_;
  std::vector<float> Z_;
};

// The ridge statistics of `rows` through map m, weighted by the targets' row weights. Memory:
// O(D^2 + kGramRows * D).
RidgeStats Accumulate(const TrainContext& ctx, const FourierMap& m,
                      const std::vector<std::uint32_t>& rows, std::uint64_t* done,
                      std::uint64_t total, const std::string& what) {
  const std::uint32_t D = m.features(), K = ctx.targets.K;
  const Targets& tg = ctx.targets;
  RidgeStats st(D, K);
  GramAccumulator gram(D, K, ctx.threads);
  std::vector<double> Yb(kGramRows * K), wb(tg.w.empty() ? 0 : kGramRows);
  BlockStream(ctx, m).Run(rows, done, total, what,
                          [&](const float* Z, const std::uint32_t* rb, std::size_t R) {
                            for (std::size_t r = 0; r < R; ++r) {
                              const double* y = tg.Y.data() + std::size_t{rb[r]} * K;
                              std::copy(y, y + K, Yb.data() + r * K);
                              if (!wb.empty()) wb[r] = tg.w[rb[r]];
                            }
                            gram.Add(Z, R, Yb.data(), wb.empty() ? nullptr : wb.data(), &st);
                          });
  return st;
}

// Each fold's statistics and their sum, in one pass over the folds' rows. Fold f's training
// statistics are then a subtraction (Without), not another pass. Memory: (folds + 1) sets.
struct FoldStats {
  std::vector<RidgeStats> fold;
  RidgeStats total;
  RidgeStats Without(std::size_t f) const {
    RidgeStats train = total;
    train.Add(fold[f], -1.0);
    return train;
  }
};

FoldStats AccumulateFolds(const TrainContext& ctx, const FourierMap& m, const Folds& folds,
                          std::uint64_t* done, std::uint64_t total, const std::string& what) {
  FoldStats fs;
  fs.total = RidgeStats(m.features(), ctx.targets.K);
  for (const std::vector<std::uint32_t>& rows : folds.held_out) {
    fs.fold.push_back(Accumulate(ctx, m, rows, done, total, what));
    fs.total.Add(fs.fold.back(), 1.0);
  }
  return fs;
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

// Held-out losses of several heads: rows of fold f are scored with heads[f][l] for every l.
// Returns the summed (weighted) losses per l, rows added in order.
std::vector<double> Score(const TrainContext& ctx, const FourierMap& m,
                          const std::vector<std::vector<std::uint32_t>>& fold_rows,
                          const std::vector<std::vector<Head>>& heads, std::uint64_t* done,
                          std::uint64_t total, const std::string& what) {
  const std::uint32_t D = m.features(), K = ctx.targets.K;
  const std::size_t L = heads[0].size();
  std::vector<double> err(L, 0.0), out(kGramRows * L * K);
  BlockStream blocks(ctx, m);
  for (std::size_t f = 0; f < fold_rows.size(); ++f) {
    const StackedHeads sh = Stack(heads[f], D, K);
    blocks.Run(fold_rows[f], done, total, what,
               [&](const float* Z, const std::uint32_t* rb, std::size_t R) {
                 HeadOutputs(Z, R, D, sh.W, sh.bias, ctx.threads, out.data());
                 for (std::size_t r = 0; r < R; ++r)
                   for (std::size_t l = 0; l < L; ++l)
                     err[l] += ctx.targets.Weight(rb[r]) *
                               RowLoss(ctx.targets, out.data() + (r * L + l) * K, rb[r]);
               });
  }
  return err;
}

class FourierDesign final : public Design {
 public:
  explicit FourierDesign(const TrainContext& ctx)
      : ctx_(ctx),
        base_(ctx.opt.gamma > 0 ? ctx.opt.gamma : ctx.report->gamma_default),
        draws_(DrawFourierMap(ctx.opt.map, ctx.opt.kernel, ctx.opt.features,
                              static_cast<std::uint32_t>(ctx.data.cols), ctx.opt.seed, ctx.threads, ctx.opt.w_storage)) {}

  double Gamma(double factor) const override { return base_ * factor; }
  // The default: a point at +inf error replaces the start only at a smaller gamma.
  double StartGamma() const override { return base_; }
  std::vector<double> HeldOutLosses(double factor, const Folds& folds,
                                    const std::vector<double>& lambdas) override;
  // The full-data statistics at the best factor: the sum of its folds' (Fit solves them).
  void KeepBest() override { best_total_ = std::move(total_); }
  Head Fit(double factor, double lambda, const Folds* calibration_folds) override;
  bool HeldOutOutputs(double factor, double lambda, const Folds& folds, std::vector<double>* out) override;
  void Describe(ModelSpec* spec, std::string* metadata) const override;
  double Loss(const Head& head, const std::vector<std::uint32_t>& rows) override;
  const Int8Head* RoundedHead() const override { return int8_head_.get(); }

 private:
  // With an int8 head: rounds the fitted head for its outputs on the fit's statistics.
  void RoundHead(const RidgeStats& stats, double lambda, const Head& head) {
    if (ctx_.opt.head_storage == format::Storage::kInt8)
      int8_head_ = std::make_unique<Int8Head>(GptqInt8Head(stats, lambda, head, ctx_.threads));
  }

  const TrainContext& ctx_;
  double base_;  // the map's gamma at factor 1
  std::unique_ptr<FourierDraws> draws_;
  std::unique_ptr<FourierMap> map_;  // at the fitted factor
  RidgeStats total_;                 // the last factor's full-data statistics
  RidgeStats best_total_;            // the best factor's
  bool selected_ = false;            // HeldOutLosses ran
  std::unique_ptr<FoldStats> calibration_stats_;  // Fit's, for HeldOutOutputs (without selection)
  std::unique_ptr<Int8Head> int8_head_;           // Fit's int8 head (RoundHead)
};

std::vector<double> FourierDesign::HeldOutLosses(double factor, const Folds& folds,
                                                 const std::vector<double>& lambdas) {
  selected_ = true;
  total_ = RidgeStats();  // not the best (KeepBest took that): free it before the next set
  const double gamma = Gamma(factor);
  const std::unique_ptr<FourierMap> m = draws_->At(gamma);
  const std::size_t nf = folds.held_out.size();
  const std::string what = "cv gamma " + FormatDouble(gamma);
  const std::uint64_t total = 2ull * ctx_.data.rows;  // per gamma: accumulate, then score
  std::uint64_t done = 0;
  FoldStats fs = AccumulateFolds(ctx_, *m, folds, &done, total, what);
  std::vector<std::vector<Head>> heads(nf);
  for (std::size_t f = 0; f < nf; ++f) heads[f] = SolveRidgePath(fs.Without(f), lambdas, ctx_.threads);
  std::vector<double> err = Score(ctx_, *m, folds.held_out, heads, &done, total, what);
  total_ = std::move(fs.total);
  return err;
}

// With selection, the statistics KeepBest kept (empty, and refused by SolveRidge, only if no
// point had a comparable error); without, one pass over every row -- with calibration folds, the
// folds' statistics and their sum (the head is solved from the sum, as after selection), kept for
// HeldOutOutputs, which then needs no pass of its own. Peak memory: folds + 1 sets and the solve,
// no more than HeldOutOutputs itself holds.
Head FourierDesign::Fit(double factor, double lambda, const Folds* calibration_folds) {
  // Without a penalty, the centred Gram matrix of n rows has rank < n: singular for D >= n. (Its
  // float noise, gram.h, could otherwise pass for tiny pivots.)
  const Targets& tg = ctx_.targets;
  const auto rows = tg.w.empty() ? ctx_.data.rows
                                 : static_cast<std::size_t>(std::count_if(tg.w.begin(), tg.w.end(), [](double v) { return v > 0; }));
  if (lambda == 0 && rows <= ctx_.opt.features)
    throw TrainError("the ridge system is singular (" + std::to_string(ctx_.opt.features) + " features, " +
                     std::to_string(rows) + " rows) and could not be factorised; use --lambda > 0");
  total_ = RidgeStats();
  map_ = draws_->At(Gamma(factor));
  if (!selected_ && calibration_folds) {
    std::uint64_t done = 0;
    calibration_stats_ = std::make_unique<FoldStats>(
        AccumulateFolds(ctx_, *map_, *calibration_folds, &done, ctx_.data.rows, "features + Z'Z (per fold)"));
    Head head = SolveRidge(calibration_stats_->total, lambda, ctx_.threads);
    RoundHead(calibration_stats_->total, lambda, head);
    return head;
  }
  if (!selected_) {
    std::vector<std::uint32_t> all_rows(ctx_.data.rows);
    std::iota(all_rows.begin(), all_rows.end(), 0u);
    std::uint64_t done = 0;
    best_total_ = Accumulate(ctx_, *map_, all_rows, &done, ctx_.data.rows, "features + Z'Z");
  }
  Head head = SolveRidge(best_total_, lambda, ctx_.threads);
  RoundHead(best_total_, lambda, head);
  best_total_ = RidgeStats();
  return head;
}

// One pass accumulating each fold's statistics (none when Fit kept them), a solve per fold at
// lambda, one pass scoring: about the cost of one selection point.
bool FourierDesign::HeldOutOutputs(double factor, double lambda, const Folds& folds,
                                   std::vector<double>* out) {
  const double gamma = Gamma(factor);
  const std::unique_ptr<FourierMap> m = draws_->At(gamma);
  const std::uint32_t D = m->features(), K = ctx_.targets.K;
  const std::size_t nf = folds.held_out.size();
  const std::string what = "calibration";
  const bool kept = calibration_stats_ && calibration_stats_->fold.size() == nf;
  const std::uint64_t total = (kept ? 1ull : 2ull) * ctx_.data.rows;
  std::uint64_t done = 0;
  FoldStats fs = kept ? std::move(*calibration_stats_) : AccumulateFolds(ctx_, *m, folds, &done, total, what);
  calibration_stats_.reset();
  out->assign(ctx_.data.rows * std::size_t{K}, 0.0);
  std::vector<double> o(kGramRows * K);
  BlockStream blocks(ctx_, *m);
  for (std::size_t f = 0; f < nf; ++f) {
    const RidgeStats train = fs.Without(f);
    fs.fold[f] = RidgeStats();  // no longer needed: freed before the next solve
    const StackedHeads sh = Stack({SolveRidge(train, lambda, ctx_.threads)}, D, K);
    blocks.Run(folds.held_out[f], &done, total, what,
               [&](const float* Z, const std::uint32_t* rb, std::size_t R) {
                 HeadOutputs(Z, R, D, sh.W, sh.bias, ctx_.threads, o.data());
                 for (std::size_t r = 0; r < R; ++r)
                   std::copy(o.data() + r * K, o.data() + (r + 1) * K, out->data() + std::size_t{rb[r]} * K);
               });
  }
  return true;
}

void FourierDesign::Describe(ModelSpec* spec, std::string* metadata) const {
  map_->Describe(spec);
  *metadata += std::string("kernel=") + KernelName(ctx_.opt.kernel) + "\nmap=" + MapName(ctx_.opt.map) +
               "\ngamma=" + FormatDouble(map_->gamma()) + "\n";
}

double FourierDesign::Loss(const Head& head, const std::vector<std::uint32_t>& rows) {
  std::uint64_t done = 0;
  return Score(ctx_, *map_, {rows}, {{head}}, &done, rows.size(), "training error")[0];
}

}  // namespace

std::unique_ptr<Design> MakeFourierDesign(const TrainContext& ctx) {
  return std::make_unique<FourierDesign>(ctx);
}

}  // namespace rfk::host
