// The binning design: random binning features, alone or after a Fourier-type map's, under one
// linear head. The design is kept sparse -- the dense Fourier block (n x D_F floats) and one
// column per grid and row -- and solved matrix-free by conjugate gradients (sparse_ridge.h), so
// memory and time grow with rows x grids, never with the number of bins.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <utility>

#include "maps/bin_features.h"
#include "training/design.h"
#include "maps/fourier_map.h"
#include "parallel.h"
#include "training/sparse_ridge.h"

namespace rfk::host {

namespace {

// Selection only ranks (gamma, lambda) points by held-out error, which settles long before the
// final solve's 1e-6: a looser tolerance and an iteration cap bound its cost. The chosen point
// is then solved to the full tolerance.
constexpr double kCvCgTolerance = 1e-4;
constexpr int kCvCgIterations = 300;

// Summed (weighted) losses of `heads` on data rows `rows` of design Z, one per head: each row's
// losses on any thread, then summed in row order (the same bits for any thread count).
std::vector<double> ScoreDesign(const SparseDesign& Z, const std::vector<std::uint32_t>& rows,
                                const std::vector<Head>& heads, const Targets& targets,
                                unsigned threads) {
  const std::uint32_t K = targets.K;
  const std::size_t L = heads.size();
  std::vector<double> loss(rows.size() * L);
  Parallel(threads, [&](unsigned t) {
    std::vector<double> out(K);
    for (std::size_t r = t; r < rows.size(); r += threads) {
      const std::size_t i = rows[r];
      for (std::size_t l = 0; l < L; ++l) {
        const Head& h = heads[l];
        for (std::uint32_t k = 0; k < K; ++k) out[k] = h.bias[k];
        for (std::uint32_t j = 0; j < Z.Df; ++j) {
          const double zj = Z.Zf[i * Z.Df + j];
          for (std::uint32_t k = 0; k < K; ++k) out[k] += zj * h.W[std::size_t{j} * K + k];
        }
        for (std::uint32_t p = 0; p < Z.P; ++p) {
          const std::uint32_t c = Z.cols[std::size_t{p} * Z.n + i];
          if (c == kNoBinColumn) continue;
          for (std::uint32_t k = 0; k < K; ++k) out[k] += Z.scale * h.W[std::size_t{Z.Df + c} * K + k];
        }
        loss[r * L + l] = targets.Weight(i) * RowLoss(targets, out.data(), i);
      }
    }
  });
  std::vector<double> err(L, 0.0);
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t l = 0; l < L; ++l) err[l] += loss[r * L + l];
  return err;
}

// Per fold g, the rows of every other fold, ascending: the rows fold g's heads are fitted on.
std::vector<std::vector<std::uint32_t>> TrainingRows(const Folds& folds, std::size_t n) {
  const std::size_t nf = folds.count;
  std::vector<std::uint32_t> fold_of(n);
  for (std::uint32_t i = 0; i < n; ++i) fold_of[i] = static_cast<std::uint32_t>(folds.Of(i));
  std::vector<std::vector<std::uint32_t>> train(nf);
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::size_t g = 0; g < nf; ++g)
      if (g != fold_of[i]) train[g].push_back(i);
  return train;
}

class BinningDesign final : public Design {
 public:
  explicit BinningDesign(const TrainContext& ctx);
  double Gamma(double factor) const override {
    return Df_ ? fourier_base_ * factor : bin_base_ * factor;
  }
  // 0: a point at +inf error never replaces the start (as the binning loop always chose).
  double StartGamma() const override { return 0.0; }
  std::vector<double> HeldOutLosses(double factor, const Folds& folds,
                                    const std::vector<double>& lambdas) override;
  Head Fit(double factor, double lambda, const CalibrationSample* cal) override;
  void Describe(ModelSpec* spec, std::string* metadata) const override;
  double Loss(const Head& head, std::size_t stride) override {
    std::vector<std::uint32_t> rows;
    for (std::size_t i = 0; i < ctx_.data.rows; i += stride) rows.push_back(static_cast<std::uint32_t>(i));
    return ScoreDesign(design_, rows, {head}, ctx_.targets, ctx_.threads)[0];
  }

 private:
  // The design's rows at one gamma factor: keys (and the dense Fourier block) for every row.
  struct AtFactor {
    Grids grids;
    std::vector<std::uint64_t> keys;               // P x n
    std::unique_ptr<FourierMap> map;               // null without a Fourier-type map
    std::vector<float> Zf;                         // n x D_F
  };
  AtFactor At(double factor) const;
  const double* Weights() const { return ctx_.targets.w.empty() ? nullptr : ctx_.targets.w.data(); }
  SparseDesign Sparse(const AtFactor& a, const BinColumns& bc) const;
  // Heads at every lambda on `rows`: a CG path from the largest lambda down, each solve
  // warm-started from the last (neighbouring solutions are close, and the large-lambda systems
  // converge fastest).
  std::vector<Head> LambdaPath(const SparseDesign& z, const std::vector<std::uint32_t>& rows,
                               const std::vector<double>& lambdas, const std::string& what);

  const TrainContext& ctx_;
  const std::uint32_t P_, Df_;
  double bin_base_ = 0;          // binning's gamma at factor 1
  const double fourier_base_;    // the Fourier-type map's
  GridDraws grids_;
  std::unique_ptr<FourierDraws> draws_;  // null without a Fourier-type map
  CgOptions cg_, cg_cv_;
  std::vector<std::uint32_t> all_rows_;
  std::vector<double> Y_;  // the targets, n x K (the CG solves take them whole)
  std::vector<std::vector<std::uint32_t>> train_rows_;  // per fold, once selection starts
  std::uint64_t cv_done_ = 0;                           // selection's solves so far
  double bin_gamma_ = 0;                                // fitted
  AtFactor fit_;
  BinColumns columns_;
  SparseDesign design_;
};

BinningDesign::BinningDesign(const TrainContext& ctx)
    : ctx_(ctx),
      P_(ctx.opt.grids),
      Df_(ctx.opt.fourier ? ctx.opt.features : 0),
      fourier_base_(ctx.opt.gamma > 0 ? ctx.opt.gamma : ctx.report->gamma_default),
      all_rows_(ctx.data.rows),
      Y_(ctx.targets.Matrix()) {
  ctx.report->bin_gamma_default =
      DefaultGamma(ctx.data, format::Kernel::kLaplacian, ctx.scaling, ctx.opt.seed);
  bin_base_ = ctx.opt.bin_gamma > 0 ? ctx.opt.bin_gamma : ctx.report->bin_gamma_default;
  grids_ = DrawGrids(P_, static_cast<std::uint32_t>(ctx.data.cols), ctx.opt.seed);
  if (Df_ > 0)
    draws_ = DrawFourierMap(ctx.opt.map, ctx.opt.kernel, Df_, static_cast<std::uint32_t>(ctx.data.cols),
                            ctx.opt.seed, ctx.threads, ctx.opt.w_storage);
  cg_.threads = ctx.threads;
  cg_cv_ = cg_;
  cg_cv_.tolerance = kCvCgTolerance;
  cg_cv_.max_iterations = kCvCgIterations;
  std::iota(all_rows_.begin(), all_rows_.end(), 0u);
}

BinningDesign::AtFactor BinningDesign::At(double factor) const {
  AtFactor a;
  a.grids = GridsAt(grids_, bin_base_ * factor);
  a.keys = ComputeKeys(ctx_.data, ctx_.scaling, a.grids, P_, ctx_.opt.seed, ctx_.threads);
  if (Df_ == 0) return a;
  a.map = draws_->At(fourier_base_ * factor);
  const std::size_t n = ctx_.data.rows;
  a.Zf.resize(n * Df_);
  std::vector<MapWorkspace> ws(ctx_.threads);
  const InputRows in{ctx_.data, ctx_.scaling};
  for (std::size_t b0 = 0; b0 < n; b0 += kBlockRows) {
    const std::size_t R = std::min(kBlockRows, n - b0);
    ComputeBlock(in, *a.map, all_rows_.data() + b0, R, a.Zf.data() + b0 * Df_, &ws, ctx_.threads);
  }
  return a;
}

SparseDesign BinningDesign::Sparse(const AtFactor& a, const BinColumns& bc) const {
  SparseDesign z;
  z.n = ctx_.data.rows;
  z.Df = Df_;
  z.Zf = Df_ ? a.Zf.data() : nullptr;
  z.P = P_;
  z.cols = bc.cols.data();
  z.Cb = bc.count;
  z.scale = 1.0 / std::sqrt(static_cast<double>(P_));
  return z;
}

std::vector<Head> BinningDesign::LambdaPath(const SparseDesign& z, const std::vector<std::uint32_t>& rows,
                                            const std::vector<double>& lambdas, const std::string& what) {
  const std::uint64_t total =
      std::uint64_t{ctx_.opt.cv_folds} * (ctx_.opt.gamma_auto ? 5 : 1) * lambdas.size();
  std::vector<Head> heads(lambdas.size());
  Head prev;
  for (std::size_t q = lambdas.size(); q-- > 0;) {
    Head sol = SolveRidgeCg(z, rows, Y_.data(), Weights(), ctx_.targets.K, lambdas[q], cg_cv_,
                            nullptr, prev.W.empty() ? nullptr : &prev);
    heads[q] = sol;
    prev = std::move(sol);
    ctx_.Progress(std::min(++cv_done_, total), total, what);
  }
  return heads;
}

std::vector<double> BinningDesign::HeldOutLosses(double factor, const Folds& folds,
                                                 const std::vector<double>& lambdas) {
  if (train_rows_.empty()) train_rows_ = TrainingRows(folds, ctx_.data.rows);
  const std::vector<std::vector<std::uint32_t>> held_out = folds.HeldOut(ctx_.data.rows);
  const AtFactor a = At(factor);
  const std::string what = "cv bin-gamma " + FormatDouble(bin_base_ * factor);
  std::vector<double> err(lambdas.size(), 0.0);
  for (std::size_t f = 0; f < held_out.size(); ++f) {
    const BinColumns bc =
        BuildColumns(a.keys, ctx_.data.rows, P_, train_rows_[f], ctx_.opt.buckets, ctx_.threads);
    if (!ctx_.opt.buckets)
      CheckMemory(ctx_.data, ctx_.opt, ctx_.targets.task, ctx_.targets.K, ctx_.threads, bc.count, ctx_.report);
    const SparseDesign z = Sparse(a, bc);
    const std::vector<Head> heads = LambdaPath(z, train_rows_[f], lambdas, what);
    const std::vector<double> e = ScoreDesign(z, held_out[f], heads, ctx_.targets, ctx_.threads);
    for (std::size_t l = 0; l < lambdas.size(); ++l) err[l] += e[l];
  }
  return err;
}

Head BinningDesign::Fit(double factor, double lambda, const CalibrationSample* /*cal*/) {
  TrainReport& rep = *ctx_.report;
  train_rows_ = {};  // selection is over
  bin_gamma_ = bin_base_ * factor;
  rep.bin_gamma = bin_gamma_;
  ctx_.Progress(0, 1, "binning features");
  fit_ = At(factor);
  columns_ = BuildColumns(fit_.keys, ctx_.data.rows, P_, all_rows_, ctx_.opt.buckets, ctx_.threads);
  if (!ctx_.opt.buckets) CheckMemory(ctx_.data, ctx_.opt, ctx_.targets.task, ctx_.targets.K, ctx_.threads, columns_.count, &rep);
  design_ = Sparse(fit_, columns_);
  CgStats stats;
  ctx_.Progress(0, 1, "conjugate gradients");
  Head sol = SolveRidgeCg(design_, all_rows_, Y_.data(), Weights(), ctx_.targets.K, lambda,
                          cg_, &stats);
  rep.cg_iterations = stats.iterations;
  rep.cg_residual = stats.relative_residual;
  rep.occupied_bins = columns_.occupied;
  return sol;
}

void BinningDesign::Describe(ModelSpec* spec, std::string* metadata) const {
  const TrainOptions& opt = ctx_.opt;
  if (fit_.map) fit_.map->Describe(spec);
  spec->num_grids = P_;
  spec->bin_mode = opt.buckets ? format::BinMode::kHashed : format::BinMode::kExact;
  spec->bin_buckets = opt.buckets;
  spec->bin_gamma = static_cast<float>(bin_gamma_);
  spec->bin_scale = static_cast<float>(design_.scale);
  spec->bin_seed = opt.seed;
  spec->bin_inv_width = fit_.grids.inv_width;
  spec->bin_offset = fit_.grids.offset;
  if (!opt.buckets) {
    spec->bin_grid_start = columns_.grid_start;
    spec->bin_keys = columns_.table;
  }
  *metadata += "map=" + (fit_.map ? std::string(MapName(opt.map)) + "+binning" : "binning") +
               "\ngrids=" + std::to_string(P_) + "\nbin_mode=" + (opt.buckets ? "hashed" : "exact") +
               "\nbin_gamma=" + FormatDouble(bin_gamma_) + "\n";
  if (fit_.map)
    *metadata += std::string("kernel=") + KernelName(opt.kernel) +
                 "\ngamma=" + FormatDouble(fit_.map->gamma()) + "\n";
}

}  // namespace

std::unique_ptr<Design> MakeBinningDesign(const TrainContext& ctx) {
  return std::make_unique<BinningDesign>(ctx);
}

}  // namespace rfk::host
