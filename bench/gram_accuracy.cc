// The accuracy of training's Gram statistics (lib/host/training/gram.h: float sums within blocks of at
// most kGramRows rows, double across them; here every block but the last has kGramRows rows, the
// most training's blocks hold) against an all-double reference on real data: the same
// features (rfk's map at the data-scale default gamma, after rfk's default standardisation) go
// once through GramAccumulator and once through DSYRK/DGEMM in double over all rows; both are
// solved at the same lambda (SolveRidge) and both heads are scored on a test file.
//
// usage: rfk_gram_accuracy TRAIN TEST [-D D] [--lambda L] [--threads T]
// Prints one JSON object: relative errors of G (largest entry error over the largest diagonal
// entry; Frobenius), of h, of the head W (Frobenius) and of the bias, and both test errors.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <numeric>
#include <string>
#include <vector>

#include "cblas.h"
#include "maps/fourier_map.h"
#include "training/gram.h"
#include "data/input_stats.h"
#include "rfk/host/data.hpp"
#include "training/solver.h"
#include "training/targets.h"

namespace {

using namespace rfk::host;

struct Args {
  std::string train, test;
  std::uint32_t D = 4000;
  double lambda = 1e-6;
  unsigned threads = 2;
};

Args Parse(int argc, char** argv) {
  Args a;
  if (argc < 3) throw std::runtime_error("usage: rfk_gram_accuracy TRAIN TEST [-D D] [--lambda L] [--threads T]");
  a.train = argv[1];
  a.test = argv[2];
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "-D") a.D = static_cast<std::uint32_t>(std::stoul(v));
    else if (k == "--lambda") a.lambda = std::stod(v);
    else if (k == "--threads") a.threads = static_cast<unsigned>(std::stoul(v));
    else throw std::runtime_error("unknown option " + k);
  }
  return a;
}

// Both sets of statistics of every row of `data` through map m.
void Statistics(const Dataset& data, const InputScaling& sc, const FourierMap& m, const Targets& t,
                unsigned threads, RidgeStats* fast, RidgeStats* ref) {
  const std::uint32_t D = m.features(), K = t.K;
  *fast = RidgeStats(D, K);
  *ref = RidgeStats(D, K);
  GramAccumulator gram(D, K, threads);
  std::vector<MapWorkspace> ws(threads);
  std::vector<std::uint32_t> rows(kGramRows);
  std::vector<float> Z(kGramRows * D);
  std::vector<double> Zd(kGramRows * D);
  const std::vector<double> all_y = t.Matrix();
  for (std::size_t b = 0; b < data.rows; b += kGramRows) {
    const std::size_t R = std::min(kGramRows, data.rows - b);
    std::iota(rows.begin(), rows.begin() + R, static_cast<std::uint32_t>(b));
    ComputeBlock(InputRows{data, sc}, m, rows.data(), R, Z.data(), &ws, threads);
    const double* Y = all_y.data() + b * K;
    gram.Add(Z.data(), R, Y, nullptr, fast);
    for (std::size_t i = 0; i < R * D; ++i) Zd[i] = Z[i];
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, int(D), int(R), 1.0, Zd.data(), int(D), 1.0,
                ref->G.data(), int(D));
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, int(D), int(K), int(R), 1.0, Zd.data(), int(D), Y,
                int(K), 1.0, ref->h.data(), int(K));
    for (std::size_t r = 0; r < R; ++r) {
      for (std::uint32_t j = 0; j < D; ++j) ref->s[j] += Zd[r * D + j];
      for (std::uint32_t k = 0; k < K; ++k) ref->ysum[k] += Y[r * K + k];
    }
    ref->n += double(R);
  }
}

// Frobenius norm of a - b over norm of b (upper triangle when `upper`, for G).
double RelDiff(const std::vector<double>& a, const std::vector<double>& b, std::size_t D, bool upper) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (upper && i % D < i / D) continue;
    num += (a[i] - b[i]) * (a[i] - b[i]);
    den += b[i] * b[i];
  }
  return std::sqrt(num / den);
}

// Misclassification rate (or relative RMSE) of head h on every row of `test`.
double TestError(const Dataset& test, const InputScaling& sc, const FourierMap& m, const Targets& t,
                 const RidgeSolution& h, unsigned threads) {
  const std::uint32_t D = m.features(), K = t.K;
  std::vector<MapWorkspace> ws(threads);
  std::vector<std::uint32_t> rows(kGramRows);
  std::vector<float> Z(kGramRows * D);
  std::vector<double> out(kGramRows * K);
  double loss = 0;
  for (std::size_t b = 0; b < test.rows; b += kGramRows) {
    const std::size_t R = std::min(kGramRows, test.rows - b);
    std::iota(rows.begin(), rows.begin() + R, static_cast<std::uint32_t>(b));
    ComputeBlock(InputRows{test, sc}, m, rows.data(), R, Z.data(), &ws, threads);
    HeadOutputs(Z.data(), R, D, h.W, h.bias, threads, out.data());
    for (std::size_t r = 0; r < R; ++r) loss += RowLoss(t, out.data() + r * K, b + r);
  }
  return Metric(t, loss, double(test.rows), RmsTarget(t, 1));
}

}  // namespace

int main(int argc, char** argv) try {
  const Args a = Parse(argc, argv);
  const BlasOneThread one_thread;
  const Dataset train = ReadDataset(a.train);
  ReadOptions ro;
  ro.min_cols = train.cols;
  const Dataset test = ReadDataset(a.test, ro);
  const auto nothing = [](rfk::format::Task, std::uint32_t) {};
  const Targets t = MakeTargets(train, TaskChoice::kAuto, nothing);
  const Targets tt = MakeTargets(test, TaskChoice::kAuto, nothing);
  const InputScaling sc = ComputeStandardization(train, ChooseStandardization(train, -1));
  const double gamma = DefaultGamma(train, rfk::format::Kernel::kGaussian, sc, 1);
  const auto map = DrawFourierMap(rfk::format::MapKind::kFourier, rfk::format::Kernel::kGaussian, a.D,
                                  static_cast<std::uint32_t>(train.cols), 1, a.threads)->At(gamma);
  RidgeStats fast, ref;
  Statistics(train, sc, *map, t, a.threads, &fast, &ref);
  const std::size_t D = a.D;
  double worst = 0, diag = 0;
  for (std::size_t i = 0; i < D; ++i) {
    diag = std::max(diag, ref.G[i * D + i]);
    for (std::size_t j = i; j < D; ++j) worst = std::max(worst, std::fabs(fast.G[i * D + j] - ref.G[i * D + j]));
  }
  const RidgeSolution hf = SolveRidge(fast, a.lambda, a.threads), hr = SolveRidge(ref, a.lambda, a.threads);
  std::printf("{\"train\": \"%s\", \"rows\": %zu, \"D\": %u, \"gamma\": %.6g, \"lambda\": %g, "
              "\"G_max_err_over_max_diag\": %.3g, \"G_rel_frobenius\": %.3g, \"h_rel\": %.3g, "
              "\"W_rel\": %.3g, \"bias_rel\": %.3g, \"test_error_float_gram\": %.6f, "
              "\"test_error_double_gram\": %.6f}\n",
              a.train.c_str(), train.rows, a.D, gamma, a.lambda, worst / diag, RelDiff(fast.G, ref.G, D, true),
              RelDiff(fast.h, ref.h, D, false), RelDiff(hf.W, hr.W, D, false), RelDiff(hf.bias, hr.bias, D, false),
              TestError(test, sc, *map, tt, hf, a.threads), TestError(test, sc, *map, tt, hr, a.threads));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "rfk_gram_accuracy: %s\n", e.what());
  return 1;
}
