// Training pipeline: targets -> frequencies -> streamed feature blocks -> ridge statistics ->
// (optional) k-fold selection of gamma and lambda -> solve -> model blob.
#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <sstream>
#include <thread>
#include <utility>

#include <unistd.h>

#include "block_kernels.h"
#include "parallel.h"
#include "random.h"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/train.hpp"
#include "rfk/kernels.hpp"
#include "rfk/model.hpp"
#include "solver.h"
#include "sparse_ridge.h"

namespace rfk::host {

using format::Kernel;
using format::MapKind;
using format::Task;

// Train never returns a model the device core would refuse: the blob is opened once more here
// (a parameter that only a float can hold badly, e.g. a gamma that rounds to 0, would otherwise
// surface only at prediction time).
void CheckModelOpens(const std::vector<std::uint8_t>& blob) {
  AlignedBytes copy(blob.size());
  std::copy(blob.begin(), blob.end(), copy.data());
  Model m;
  ModelError err;
  const Status s = OpenModel(copy.data(), copy.size(), &m, &err);
  if (s != Status::kOk) {
    throw TrainError(std::string("the trained model fails its own check (") + StatusMessage(s) +
                     " at field '" + err.field + "'); a parameter is outside what the format "
                     "holds as a float -- e.g. targets or inputs of extreme magnitude (rescale "
                     "them), or a gamma that rounds to 0");
  }
}

// The resource guard (defined with EstimateTrainingMemory below).
void CheckMemory(const Dataset& data, const TrainOptions& opt, std::uint32_t K, unsigned threads,
                 std::uint32_t exact_bins, TrainReport* rep);

namespace {

constexpr std::size_t kBlockRows = 512;
constexpr std::size_t kAutoMaxClasses = 32;  // integer labels with more distinct values: regression
constexpr std::uint64_t kPhaseStream = 1ull << 40;
constexpr std::uint64_t kFoldStream = 1ull << 41;
constexpr std::uint64_t kPairStream = 1ull << 42;
constexpr std::uint64_t kGridStream = 1ull << 43;
constexpr std::size_t kGammaPairs = 2000;
constexpr std::size_t kTrainErrorRows = 10000;
constexpr double kCvCgTolerance = 1e-4;  // binning selection solves (see TrainBinned)
constexpr int kCvCgIterations = 300;

bool ParseNumber(const std::string& s, double* v) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(x)) return false;
  *v = x;
  return true;
}

std::string Where(const Dataset& data, std::size_t row) {
  std::ostringstream o;
  o << data.source << ":" << (row < data.lines.size() ? data.lines[row] : row + 1);
  return o.str();
}

// ---------------------------------------------------------------- targets

struct Targets {
  Task task = Task::kRegression;
  std::string reason;
  std::vector<std::string> labels;  // classes, in model order
  std::vector<std::uint32_t> cls;   // class index per row (classification)
  std::vector<double> Y;            // rows x K targets
  std::uint32_t K = 1;
};

// `before_alloc(K)` runs once the number of outputs K is known, before the n x K targets exist.
template <class BeforeAlloc>
Targets MakeTargets(const Dataset& data, TaskChoice choice, BeforeAlloc&& before_alloc) {
  const std::size_t n = data.rows;
  std::vector<double> num(n);
  bool all_numeric = true, all_integer = true;
  std::size_t first_bad = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (!ParseNumber(data.labels[i], &num[i])) {
      all_numeric = false;
      if (first_bad == n) first_bad = i;
    } else if (num[i] != std::floor(num[i])) {
      all_integer = false;
    }
  }
  Targets t;
  bool classify;
  if (choice == TaskChoice::kRegression) {
    if (!all_numeric)
      throw TrainError(Where(data, first_bad) + ": label '" + data.labels[first_bad] +
                       "' is not a number (regression needs numeric targets)");
    classify = false;
    t.reason = "requested";
  } else if (choice == TaskChoice::kClassification) {
    classify = true;
    t.reason = "requested";
  } else if (!all_numeric) {
    classify = true;
    t.reason = "auto: labels are not all numbers";
  } else {
    std::vector<double> u(num);
    std::sort(u.begin(), u.end());
    const auto distinct = static_cast<std::size_t>(std::unique(u.begin(), u.end()) - u.begin());
    classify = all_integer && distinct <= kAutoMaxClasses;
    std::ostringstream o;
    o << "auto: " << distinct << (all_integer ? " distinct integer" : " distinct") << " labels"
      << (classify ? "" : all_integer ? " (more than 32)" : " (not all integers)");
    t.reason = o.str();
  }

  if (!classify) {
    // The model holds outputs as floats: a target beyond float range cannot be fitted.
    for (std::size_t i = 0; i < n; ++i) {
      if (std::fabs(num[i]) > double(FLT_MAX))
        throw TrainError(Where(data, i) + ": label '" + data.labels[i] +
                         "' is beyond the float range of the model's outputs (|y| <= 3.4e38)");
    }
    before_alloc(1u);
    t.task = Task::kRegression;
    t.Y = std::move(num);
    return t;
  }
  // Classes keyed by value when every label is a number ("+1" and "1" are one class, sorted
  // numerically), else by text (sorted lexicographically). A class's label is its first spelling.
  std::vector<std::size_t> first_row;
  if (all_numeric) {
    std::map<double, std::size_t> seen;
    for (std::size_t i = 0; i < n; ++i) seen.emplace(num[i], i);
    std::map<double, std::uint32_t> index;
    for (const auto& [value, row] : seen) {
      index[value] = static_cast<std::uint32_t>(t.labels.size());
      t.labels.push_back(data.labels[row]);
    }
    t.cls.resize(n);
    for (std::size_t i = 0; i < n; ++i) t.cls[i] = index[num[i]];
  } else {
    std::map<std::string, std::uint32_t> index;
    for (std::size_t i = 0; i < n; ++i) index.emplace(data.labels[i], 0);
    for (auto& [label, idx] : index) {
      idx = static_cast<std::uint32_t>(t.labels.size());
      t.labels.push_back(label);
    }
    t.cls.resize(n);
    for (std::size_t i = 0; i < n; ++i) t.cls[i] = index[data.labels[i]];
  }
  const std::size_t C = t.labels.size();
  if (C < 2) throw TrainError(data.source + ": classification needs at least two classes, found " +
                              std::to_string(C) + " ('" + t.labels[0] + "')");
  if (C > format::kMaxOutputs)
    throw TrainError(data.source + ": " + std::to_string(C) + " classes exceed the format's limit");
  for (const std::string& l : t.labels)
    if (l.find('\0') != std::string::npos) throw TrainError(data.source + ": a label contains a NUL byte");
  t.task = C == 2 ? Task::kBinary : Task::kMulticlass;
  t.K = C == 2 ? 1 : static_cast<std::uint32_t>(C);
  before_alloc(t.K);
  t.Y.assign(n * t.K, -1.0);
  for (std::size_t i = 0; i < n; ++i) {
    if (C == 2) t.Y[i] = t.cls[i] == 1 ? 1.0 : -1.0;
    else t.Y[i * t.K + t.cls[i]] = 1.0;
  }
  return t;
}

// ---------------------------------------------------------------- feature map

struct HostMap {
  MapKind map = MapKind::kFourier;
  std::uint32_t d = 0, F = 0, D = 0;
  float scale = 0.0f;
  std::vector<float> W, Wt, phase, mean, inv_scale;
};

// Unit-scale draws; the kernel's gamma only rescales them, so one draw serves a gamma grid.
struct Draws {
  std::vector<double> w;  // F x d
  std::vector<float> phase;
};

Draws DrawFrequencies(Kernel kernel, MapKind map, std::uint32_t F, std::uint32_t d,
                      std::uint64_t seed, unsigned threads) {
  Draws dr;
  dr.w.resize(std::size_t{F} * d);
  auto rows = [&](unsigned t) {
    for (std::uint32_t j = t; j < F; j += threads) {
      RandomStream rs(seed, j);  // one stream per frequency: independent of the thread count
      double* w = dr.w.data() + std::size_t{j} * d;
      for (std::uint32_t c = 0; c < d; ++c) {
        switch (kernel) {
          case Kernel::kGaussian: w[c] = rs.Normal(); break;
          case Kernel::kLaplacian: w[c] = rs.Cauchy(); break;
          case Kernel::kCauchy: w[c] = rs.Laplace(); break;
        }
      }
    }
  };
  Parallel(threads, rows);
  if (map == MapKind::kFourierPhase) {
    dr.phase.resize(F);
    for (std::uint32_t j = 0; j < F; ++j) {
      RandomStream rs(seed, kPhaseStream + j);
      dr.phase[j] = static_cast<float>(6.283185307179586 * rs.Uniform());
    }
  }
  return dr;
}

HostMap BuildMap(const Draws& dr, Kernel kernel, MapKind map, std::uint32_t F, std::uint32_t d,
                 double gamma, const std::vector<float>& mean, const std::vector<float>& inv_scale) {
  HostMap m;
  m.map = map;
  m.d = d;
  m.F = F;
  m.D = map == MapKind::kFourier ? 2 * F : F;
  // Gaussian exp(-g|x|^2): W ~ N(0, 2g). Laplacian exp(-g|x|_1): Cauchy(0, g). Cauchy kernel
  // prod 1/(1 + g^2 x_i^2): Laplace(0, g).
  const float g = static_cast<float>(gamma);  // the model stores gamma as f32: use that value
  const double factor = kernel == Kernel::kGaussian ? std::sqrt(2.0 * static_cast<double>(g))
                                                    : static_cast<double>(g);
  m.scale = map == MapKind::kFourier ? static_cast<float>(1.0 / std::sqrt(static_cast<double>(F)))
                                     : static_cast<float>(std::sqrt(2.0 / m.D));
  m.W.resize(dr.w.size());
  m.Wt.resize(dr.w.size());
  for (std::uint32_t j = 0; j < F; ++j)
    for (std::uint32_t c = 0; c < d; ++c) {
      const float v = static_cast<float>(factor * dr.w[std::size_t{j} * d + c]);
      m.W[std::size_t{j} * d + c] = v;
      m.Wt[std::size_t{c} * F + j] = v;
    }
  m.phase = dr.phase;
  m.mean = mean;
  m.inv_scale = inv_scale;
  return m;
}

// Per-thread buffers for computing one chunk of a block.
struct Workspace {
  std::vector<float> X, args;
};

// Z[r][:] = z(x_rows[r]) exactly as the device core computes it. Returns false if a cosine
// argument left the kernel's valid range (NaN features).
bool ComputeFeatures(const HostMap& m, const Dataset& data, const std::uint32_t* rows,
                     std::size_t R, float* Z, Workspace* ws) {
  const std::uint32_t d = m.d, F = m.F, D = m.D;
  ws->args.resize(R * F);
  const bool dense_path = !data.sparse || !m.mean.empty();
  if (dense_path) {
    ws->X.resize(R * d);
    for (std::size_t r = 0; r < R; ++r) {
      float* x = ws->X.data() + r * d;
      DenseRow(data, rows[r], x, d);
      if (!m.mean.empty()) StandardizeRef(x, m.mean.data(), m.inv_scale.data(), d, x);
    }
    ProjectDense(ws->X.data(), R, d, m.Wt.data(), F, ws->args.data());
  } else {
    for (std::size_t r = 0; r < R; ++r) {
      const std::size_t i = rows[r];
      const std::uint64_t b = data.row_ptr[i], e = data.row_ptr[i + 1];
      ProjectSparse(data.col_idx.data() + b, data.values.data() + b, e - b, m.Wt.data(), F,
                    ws->args.data() + r * F);
    }
  }
  bool finite = true;
  for (std::size_t r = 0; r < R; ++r) {
    const float* a = ws->args.data() + r * F;
    float* z = Z + r * D;
    if (m.map == MapKind::kFourier) {
      for (std::uint32_t j = 0; j < F; ++j) {
        float s, c;
        SinCosRef(a[j], &s, &c);
        z[j] = m.scale * c;
        z[F + j] = m.scale * s;
      }
    } else {
      for (std::uint32_t j = 0; j < F; ++j) z[j] = m.scale * CosRef(a[j] + m.phase[j]);
    }
    for (std::uint32_t j = 0; j < D; ++j) finite &= std::isfinite(z[j]);
  }
  return finite;
}

// One row's loss for the summed held-out errors: squared error (regression) or 1 for a
// misclassification (sign for binary, first argmax for multi-class, as DecideClass).
double RowLoss(const Targets& t, const double* out, std::size_t row) {
  if (t.task == Task::kRegression) {
    const double e = out[0] - t.Y[row];
    return e * e;
  }
  std::uint32_t pred = 0;
  if (t.K == 1) {
    pred = out[0] > 0 ? 1 : 0;
  } else {
    for (std::uint32_t k = 1; k < t.K; ++k)
      if (out[k] > out[pred]) pred = k;
  }
  return pred != t.cls[row] ? 1.0 : 0.0;
}

struct Context {
  const Dataset& data;
  const Targets& targets;
  const TrainOptions& opt;
  unsigned threads;
};

[[noreturn]] void ThrowRange(const Context& ctx, double gamma) {
  std::ostringstream o;
  o << ctx.data.source << ": a feature argument |w.x + b| exceeded " << kSinCosMaxArg
    << " with gamma = " << gamma << "; the inputs are unscaled or gamma is far too large"
    << " (keep standardisation on, or lower --gamma)";
  throw TrainError(o.str());
}

// Computes a block's features with all threads; Zf gets R x D floats.
void BlockFeatures(const Context& ctx, const HostMap& m, const std::uint32_t* rows, std::size_t R,
                   float* Zf, std::vector<Workspace>* ws, double gamma) {
  std::vector<char> ok(ctx.threads, 1);
  Parallel(ctx.threads, [&](unsigned t) {
    const std::size_t chunk = (R + ctx.threads - 1) / ctx.threads;
    const std::size_t b = std::min(R, t * chunk), e = std::min(R, b + chunk);
    if (b < e) ok[t] = ComputeFeatures(m, ctx.data, rows + b, e - b, Zf + b * m.D, &(*ws)[t]);
  });
  for (char o : ok)
    if (!o) ThrowRange(ctx, gamma);
}

void Progress(const Context& ctx, std::uint64_t done, std::uint64_t total, const std::string& what) {
  if (ctx.opt.progress) ctx.opt.progress(done, total, what);
}

// Streams `rows` through the feature map in blocks and accumulates ridge statistics. Memory:
// O(D^2 + kBlockRows * D). Deterministic for any thread count (see block_kernels.h).
RidgeStats Accumulate(const Context& ctx, const HostMap& m, const std::vector<std::uint32_t>& rows,
                      double gamma, std::uint64_t* done, std::uint64_t total, const std::string& what) {
  const std::uint32_t D = m.D, K = ctx.targets.K;
  RidgeStats st(D, K);
  std::vector<Workspace> ws(ctx.threads);
  std::vector<float> Zf(kBlockRows * D);
  std::vector<double> Zd(kBlockRows * D), Yb(kBlockRows * K);
  const std::uint32_t strips = (D + kStripRows - 1) / kStripRows;
  for (std::size_t b0 = 0; b0 < rows.size(); b0 += kBlockRows) {
    const std::size_t R = std::min(kBlockRows, rows.size() - b0);
    const std::uint32_t* rb = rows.data() + b0;
    BlockFeatures(ctx, m, rb, R, Zf.data(), &ws, gamma);
    for (std::size_t i = 0; i < R * D; ++i) Zd[i] = Zf[i];
    for (std::size_t r = 0; r < R; ++r)
      for (std::uint32_t k = 0; k < K; ++k) {
        Yb[r * K + k] = ctx.targets.Y[std::size_t{rb[r]} * K + k];
        st.ysum[k] += Yb[r * K + k];
      }
    st.n += static_cast<double>(R);
    Parallel(ctx.threads, [&](unsigned t) {
      for (std::uint32_t s = t; s < strips; s += ctx.threads)
        AccumulateStrip(Zd.data(), R, D, Yb.data(), K, s * kStripRows, st.G.data(), st.h.data(),
                        st.s.data());
    });
    *done += R;
    Progress(ctx, *done, total, what);
  }
  return st;
}

struct Head {
  std::vector<double> W;  // D x K
  std::vector<double> bias;
};

// Held-out error of several heads: rows of fold f are scored with heads[f][l] for every l.
// Returns the summed misclassifications (classification) or squared errors (regression) per l.
std::vector<double> Score(const Context& ctx, const HostMap& m,
                          const std::vector<std::vector<std::uint32_t>>& fold_rows,
                          const std::vector<std::vector<Head>>& heads, double gamma,
                          std::uint64_t* done, std::uint64_t total, const std::string& what) {
  const std::uint32_t D = m.D, K = ctx.targets.K;
  const std::size_t L = heads[0].size();
  std::vector<double> err(L, 0.0);
  std::vector<Workspace> ws(ctx.threads);
  std::vector<float> Zf(kBlockRows * D);
  for (std::size_t f = 0; f < fold_rows.size(); ++f) {
    const auto& rows = fold_rows[f];
    for (std::size_t b0 = 0; b0 < rows.size(); b0 += kBlockRows) {
      const std::size_t R = std::min(kBlockRows, rows.size() - b0);
      const std::uint32_t* rb = rows.data() + b0;
      BlockFeatures(ctx, m, rb, R, Zf.data(), &ws, gamma);
      std::vector<std::vector<double>> part(ctx.threads, std::vector<double>(L, 0.0));
      Parallel(ctx.threads, [&](unsigned t) {
        std::vector<double> out(K);
        for (std::size_t r = t; r < R; r += ctx.threads) {
          const float* z = Zf.data() + r * D;
          const std::size_t row = rb[r];
          for (std::size_t l = 0; l < L; ++l) {
            const Head& h = heads[f][l];
            for (std::uint32_t k = 0; k < K; ++k) out[k] = h.bias[k];
            for (std::uint32_t i = 0; i < D; ++i) {
              const double zi = z[i];
              for (std::uint32_t k = 0; k < K; ++k) out[k] += zi * h.W[std::size_t{i} * K + k];
            }
            part[t][l] += RowLoss(ctx.targets, out.data(), row);
          }
        }
      });
      for (unsigned t = 0; t < ctx.threads; ++t)
        for (std::size_t l = 0; l < L; ++l) err[l] += part[t][l];
      *done += R;
      Progress(ctx, *done, total, what);
    }
  }
  return err;
}

Head ToHead(RidgeSolution&& s) { return Head{std::move(s.W), std::move(s.bias)}; }

// Turns summed errors into the reported metric: error rate, or RMSE relative to rms(y).
double Metric(const Targets& t, double summed, double n, double rms_y) {
  if (t.task != Task::kRegression) return summed / n;
  return rms_y > 0 ? std::sqrt(summed / n) / rms_y : std::sqrt(summed / n);
}

// Data-scale default gamma: 1 / median over sampled training pairs of the kernel's distance
// (squared L2 for Gaussian, L1 for Laplacian, L2 for Cauchy), on standardised inputs.
double DefaultGamma(const Dataset& data, Kernel kernel, const std::vector<float>& mean,
                    const std::vector<float>& inv_scale, std::uint64_t seed) {
  const std::size_t n = data.rows, d = data.cols;
  std::vector<float> row(d);
  std::vector<double> a(d), b(d), dist;
  auto fetch = [&](std::size_t i, std::vector<double>& x) {
    DenseRow(data, i, row.data(), d);
    for (std::size_t c = 0; c < d; ++c)
      x[c] = mean.empty() ? row[c] : (double(row[c]) - mean[c]) * inv_scale[c];
  };
  RandomStream rs(seed, kPairStream);
  for (std::size_t p = 0; p < kGammaPairs && n > 1; ++p) {
    const std::size_t i = rs.Bits() % n, j = rs.Bits() % n;
    if (i == j) continue;
    fetch(i, a);
    fetch(j, b);
    double acc = 0;
    for (std::size_t c = 0; c < d; ++c) {
      const double delta = a[c] - b[c];
      acc += kernel == Kernel::kLaplacian ? std::fabs(delta) : delta * delta;
    }
    if (kernel == Kernel::kCauchy) acc = std::sqrt(acc);
    dist.push_back(acc);
  }
  if (dist.empty()) return 1.0;
  std::sort(dist.begin(), dist.end());
  double med = dist[dist.size() / 2];
  if (!(med > 0)) med = std::accumulate(dist.begin(), dist.end(), 0.0) / static_cast<double>(dist.size());
  return med > 0 ? 1.0 / med : 1.0;
}

// Per-feature mean and 1/std in double, rows in order; 1/std is 0 for features constant in
// training (they carry no information, and unseen values at prediction cannot then push cosine
// arguments or bins out of range).
void Standardization(const Dataset& data, std::vector<float>* mean_out, std::vector<float>* inv_out) {
  const std::size_t d = data.cols;
  std::vector<double> s1(d, 0.0), s2(d, 0.0);
  if (data.sparse) {
    for (std::size_t t = 0; t < data.col_idx.size(); ++t) {
      s1[data.col_idx[t]] += data.values[t];
      s2[data.col_idx[t]] += double(data.values[t]) * data.values[t];
    }
  } else {
    for (std::size_t i = 0; i < data.rows; ++i)
      for (std::size_t c = 0; c < d; ++c) {
        const double v = data.dense[i * d + c];
        s1[c] += v;
        s2[c] += v * v;
      }
  }
  mean_out->resize(d);
  inv_out->resize(d);
  const double n = static_cast<double>(data.rows);
  for (std::size_t c = 0; c < d; ++c) {
    const double mu = s1[c] / n;
    const double var = std::max(0.0, s2[c] / n - mu * mu);
    (*mean_out)[c] = static_cast<float>(mu);
    const bool constant = !(var > 1e-12 * std::max(mu * mu, 1e-300));  // rounding noise only
    (*inv_out)[c] = constant ? 0.0f : static_cast<float>(1.0 / std::sqrt(var));
  }
}

std::string FormatDouble(double v) {
  std::ostringstream o;
  o.precision(9);
  o << v;
  return o.str();
}

// --gamma auto: gamma = base * 2^k over integers |k| <= kGammaSteps. Evaluates k = -2, 0, 2; while
// the best k so far is the smallest (largest) evaluated, the one two steps beyond it; then the
// best k's two neighbours. A best value outside the first coarse bracket is thus still found, at
// about five evaluations instead of a full grid's seventeen. Without a search, k = 0 only.
// eval(k) returns the best held-out error over the lambda grid at that gamma; ties go to the
// smaller k.
constexpr int kGammaSteps = 8;

template <typename Eval>
void SearchGamma(bool search, Eval&& eval) {
  std::map<int, double> seen;
  auto at = [&](int k) {
    if (seen.find(k) == seen.end()) seen.emplace(k, eval(k));
  };
  if (!search) {
    at(0);
    return;
  }
  for (int k : {-2, 0, 2}) at(k);
  auto best = [&] {
    auto b = seen.begin();
    for (auto it = seen.begin(); it != seen.end(); ++it)
      if (it->second < b->second) b = it;
    return b->first;
  };
  for (;;) {
    const int kb = best();
    if (kb == seen.begin()->first && kb - 2 >= -kGammaSteps) {
      at(kb - 2);
    } else if (kb == seen.rbegin()->first && kb + 2 <= kGammaSteps) {
      at(kb + 2);
    } else {
      break;
    }
  }
  const int kb = best();
  if (kb - 1 >= -kGammaSteps) at(kb - 1);
  if (kb + 1 <= kGammaSteps) at(kb + 1);
}

// The searched points in (gamma, lambda) order, for reports.
void SortCv(std::vector<CvPoint>* cv) {
  std::sort(cv->begin(), cv->end(), [](const CvPoint& a, const CvPoint& b) {
    return a.gamma != b.gamma ? a.gamma < b.gamma : a.lambda < b.lambda;
  });
}

// Orders selection points: lower error, then smaller gamma, then smaller lambda.
bool Better(double e, double g, double l, double be, double bg, double bl) {
  if (e != be) return e < be;
  if (g != bg) return g < bg;
  return l < bl;
}

// ---------------------------------------------------------------- random binning

// Grids at unit gamma: delta ~ Gamma(2, 1) = Exp(1) + Exp(1) (p(delta) = delta k''(delta) for the
// Laplacian kernel) and an offset fraction ~ U[0, 1), per grid and dimension; a gamma only
// rescales them (delta / gamma), so one draw serves a whole gamma grid.
struct GridDraws {
  std::vector<double> delta, frac;  // P x d
};

GridDraws DrawGrids(std::uint32_t P, std::uint32_t d, std::uint64_t seed) {
  GridDraws g;
  g.delta.resize(std::size_t{P} * d);
  g.frac.resize(std::size_t{P} * d);
  for (std::uint32_t p = 0; p < P; ++p) {
    RandomStream rs(seed, kGridStream + p);
    for (std::uint32_t m = 0; m < d; ++m) {
      const double e1 = -PortableLog(rs.Uniform()), e2 = -PortableLog(rs.Uniform());
      g.delta[std::size_t{p} * d + m] = e1 + e2;
      g.frac[std::size_t{p} * d + m] = rs.Uniform();
    }
  }
  return g;
}

void GridsAt(const GridDraws& g, double gamma, std::vector<float>* inv_width, std::vector<float>* offset) {
  const double gm = static_cast<float>(gamma);  // the model stores gamma as f32
  inv_width->resize(g.delta.size());
  offset->resize(g.delta.size());
  for (std::size_t i = 0; i < g.delta.size(); ++i) {
    (*inv_width)[i] = static_cast<float>(gm / g.delta[i]);
    (*offset)[i] = static_cast<float>(g.frac[i] * g.delta[i] / gm);
  }
}

// Keys of every row, grid-major (P x n), computed exactly as the device core computes them.
std::vector<std::uint64_t> ComputeKeys(const Dataset& data, const std::vector<float>& mean,
                                       const std::vector<float>& inv_scale,
                                       const std::vector<float>& inv_width,
                                       const std::vector<float>& offset, std::uint32_t P,
                                       std::uint64_t seed, unsigned threads) {
  const std::size_t n = data.rows, d = data.cols;
  std::vector<std::uint64_t> keys(std::size_t{P} * n);
  Parallel(threads, [&](unsigned t) {
    std::vector<float> x(d);
    std::vector<std::uint64_t> k(P);
    for (std::size_t i = t; i < n; i += threads) {
      DenseRow(data, i, x.data(), d);
      if (!mean.empty()) StandardizeRef(x.data(), mean.data(), inv_scale.data(), static_cast<std::uint32_t>(d), x.data());
      BinKeysRef(inv_width.data(), offset.data(), x.data(), P, static_cast<std::uint32_t>(d), seed, k.data());
      for (std::uint32_t p = 0; p < P; ++p) keys[std::size_t{p} * n + i] = k[p];
    }
  });
  return keys;
}

// The binning block of the design for a set of training rows: exact mode keeps the keys those
// rows occupy (sorted per grid); every row of the data then gets its column (or none).
struct BinColumns {
  std::vector<std::uint32_t> grid_start;  // exact: P + 1
  std::vector<std::uint64_t> table;       // exact: sorted keys per grid
  std::vector<std::uint32_t> cols;        // P x n
  std::vector<std::uint32_t> occupied;    // per grid
  std::uint32_t count = 0;                // columns
};

BinColumns BuildColumns(const std::vector<std::uint64_t>& keys, std::size_t n, std::uint32_t P,
                        const std::vector<std::uint32_t>& train_rows, std::uint32_t buckets,
                        unsigned threads) {
  BinColumns bc;
  bc.cols.resize(std::size_t{P} * n);
  bc.occupied.resize(P);
  if (buckets > 0) {
    bc.count = P * buckets;
    Parallel(threads, [&](unsigned t) {
      for (std::uint32_t p = t; p < P; p += threads) {
        std::vector<char> hit(buckets, 0);
        for (std::size_t i = 0; i < n; ++i)
          bc.cols[std::size_t{p} * n + i] = HashedColumn(keys[std::size_t{p} * n + i], p, buckets);
        for (std::uint32_t i : train_rows) hit[bc.cols[std::size_t{p} * n + i] - p * buckets] = 1;
        bc.occupied[p] = static_cast<std::uint32_t>(std::count(hit.begin(), hit.end(), 1));
      }
    });
    return bc;
  }
  std::vector<std::vector<std::uint64_t>> per_grid(P);
  Parallel(threads, [&](unsigned t) {
    for (std::uint32_t p = t; p < P; p += threads) {
      auto& k = per_grid[p];
      k.reserve(train_rows.size());
      for (std::uint32_t i : train_rows) k.push_back(keys[std::size_t{p} * n + i]);
      std::sort(k.begin(), k.end());
      k.erase(std::unique(k.begin(), k.end()), k.end());
    }
  });
  bc.grid_start.push_back(0);
  for (std::uint32_t p = 0; p < P; ++p) {
    if (bc.table.size() + per_grid[p].size() > format::kMaxFeatures)
      throw TrainError("the training data occupy more than 2^24 bins; use --bins-per-grid (hashed mode) or fewer --grids");
    bc.table.insert(bc.table.end(), per_grid[p].begin(), per_grid[p].end());
    bc.grid_start.push_back(static_cast<std::uint32_t>(bc.table.size()));
    bc.occupied[p] = static_cast<std::uint32_t>(per_grid[p].size());
  }
  bc.count = bc.grid_start.back();
  Parallel(threads, [&](unsigned t) {
    for (std::uint32_t p = t; p < P; p += threads) {
      const auto b = bc.table.begin() + bc.grid_start[p], e = bc.table.begin() + bc.grid_start[p + 1];
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t key = keys[std::size_t{p} * n + i];
        const auto it = std::lower_bound(b, e, key);
        bc.cols[std::size_t{p} * n + i] =
            it != e && *it == key ? static_cast<std::uint32_t>(it - bc.table.begin()) : kNoBinColumn;
      }
    }
  });
  return bc;
}

// Summed held-out errors of `heads` on `rows` (as Score does for dense features).
std::vector<double> ScoreDesign(const SparseDesign& Z, const std::vector<std::uint32_t>& rows,
                                const std::vector<Head>& heads, const Targets& targets,
                                unsigned threads) {
  const std::uint32_t K = targets.K;
  std::vector<std::vector<double>> part(threads, std::vector<double>(heads.size(), 0.0));
  Parallel(threads, [&](unsigned t) {
    std::vector<double> out(K);
    for (std::size_t r = t; r < rows.size(); r += threads) {
      const std::size_t i = rows[r];
      for (std::size_t l = 0; l < heads.size(); ++l) {
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
        part[t][l] += RowLoss(targets, out.data(), i);
      }
    }
  });
  std::vector<double> err(heads.size(), 0.0);
  for (unsigned t = 0; t < threads; ++t)
    for (std::size_t l = 0; l < heads.size(); ++l) err[l] += part[t][l];
  return err;
}

// Training with the random binning map, alone or after the Fourier map (one design, one CG solve).
void TrainBinned(const Context& ctx, const std::vector<float>& mean, const std::vector<float>& inv_scale,
                 bool gamma_search, const std::vector<double>& lambdas,
                 double rms_y, TrainResult* result) {
  const Dataset& data = ctx.data;
  const TrainOptions& opt = ctx.opt;
  const Targets& targets = ctx.targets;
  TrainReport& rep = result->report;
  const auto d = static_cast<std::uint32_t>(data.cols);
  const std::size_t n = data.rows;
  const std::uint32_t P = opt.grids, K = targets.K;
  const std::uint32_t Df = opt.fourier ? opt.features : 0;
  const std::uint32_t F = !opt.fourier ? 0 : opt.map == MapKind::kFourier ? Df / 2 : Df;

  rep.bin_gamma_default = DefaultGamma(data, Kernel::kLaplacian, mean, inv_scale, opt.seed);
  const double bin_base = opt.bin_gamma > 0 ? opt.bin_gamma : rep.bin_gamma_default;
  const double fourier_base = opt.gamma > 0 ? opt.gamma : rep.gamma_default;
  const GridDraws grids = DrawGrids(P, d, opt.seed);
  const Draws draws = opt.fourier ? DrawFrequencies(opt.kernel, opt.map, F, d, opt.seed, ctx.threads) : Draws{};
  CgOptions cg;
  cg.threads = ctx.threads;
  // Selection only ranks (gamma, lambda) points by held-out error, which settles long before the
  // final solve's 1e-6: a looser tolerance and an iteration cap bound its cost. The chosen point
  // is then solved to the full tolerance.
  CgOptions cg_cv = cg;
  cg_cv.tolerance = kCvCgTolerance;
  cg_cv.max_iterations = kCvCgIterations;

  std::vector<std::uint32_t> all_rows(n);
  std::iota(all_rows.begin(), all_rows.end(), 0u);
  // The design at one gamma factor: keys (and the dense Fourier block) for every row.
  struct AtGamma {
    std::vector<float> inv_width, offset;
    std::vector<std::uint64_t> keys;
    std::vector<float> Zf;
  };
  auto at_gamma = [&](double factor) {
    AtGamma a;
    GridsAt(grids, bin_base * factor, &a.inv_width, &a.offset);
    a.keys = ComputeKeys(data, mean, inv_scale, a.inv_width, a.offset, P, opt.seed, ctx.threads);
    if (Df > 0) {
      const HostMap m = BuildMap(draws, opt.kernel, opt.map, F, d, fourier_base * factor, mean, inv_scale);
      a.Zf.resize(n * Df);
      std::vector<Workspace> ws(ctx.threads);
      for (std::size_t b0 = 0; b0 < n; b0 += kBlockRows) {
        const std::size_t R = std::min(kBlockRows, n - b0);
        BlockFeatures(ctx, m, all_rows.data() + b0, R, a.Zf.data() + b0 * Df, &ws, fourier_base * factor);
      }
    }
    return a;
  };
  auto design = [&](const AtGamma& a, const BinColumns& bc) {
    SparseDesign z;
    z.n = n;
    z.Df = Df;
    z.Zf = Df ? a.Zf.data() : nullptr;
    z.P = P;
    z.cols = bc.cols.data();
    z.Cb = bc.count;
    z.scale = 1.0 / std::sqrt(static_cast<double>(P));
    return z;
  };

  double best_factor = 1.0;
  std::size_t best_l = 0;
  if (gamma_search || lambdas.size() > 1) {
    std::vector<std::vector<std::uint32_t>> fold_rows(opt.cv_folds), train_rows(opt.cv_folds);
    for (std::uint32_t i = 0; i < n; ++i) {
      const auto f = static_cast<std::uint32_t>(RandomBits(opt.seed, kFoldStream, i) % opt.cv_folds);
      fold_rows[f].push_back(i);
      for (std::uint32_t g = 0; g < opt.cv_folds; ++g)
        if (g != f) train_rows[g].push_back(i);
    }
    double best_err = HUGE_VAL, best_g = 0.0;
    std::uint64_t done = 0;
    const std::uint64_t total = std::uint64_t{opt.cv_folds} * (gamma_search ? 5 : 1) * lambdas.size();
    SearchGamma(gamma_search, [&](int k) {
      const double factor = std::ldexp(1.0, k);
      const AtGamma a = at_gamma(factor);
      std::vector<double> err(lambdas.size(), 0.0);
      for (std::uint32_t f = 0; f < opt.cv_folds; ++f) {
        const BinColumns bc = BuildColumns(a.keys, n, P, train_rows[f], opt.buckets, ctx.threads);
        if (!opt.buckets) CheckMemory(data, opt, K, ctx.threads, bc.count, &rep);
        const SparseDesign z = design(a, bc);
        // The lambda path from the largest lambda down, each solve warm-started from the last:
        // neighbouring solutions are close, and the large-lambda systems converge fastest.
        std::vector<Head> heads(lambdas.size());
        RidgeSolution prev;
        for (std::size_t q = lambdas.size(); q-- > 0;) {
          RidgeSolution sol = SolveRidgeCg(z, train_rows[f], targets.Y.data(), K, lambdas[q], cg_cv,
                                           nullptr, prev.W.empty() ? nullptr : &prev);
          heads[q] = Head{sol.W, sol.bias};
          prev = std::move(sol);
          Progress(ctx, std::min(++done, total), total, "cv bin-gamma " + FormatDouble(bin_base * factor));
        }
        const std::vector<double> e = ScoreDesign(z, fold_rows[f], heads, targets, ctx.threads);
        for (std::size_t l = 0; l < lambdas.size(); ++l) err[l] += e[l];
      }
      double best_here = HUGE_VAL;
      const double g = Df ? fourier_base * factor : bin_base * factor;
      for (std::size_t l = 0; l < lambdas.size(); ++l) {
        const double e = Metric(targets, err[l], static_cast<double>(n), rms_y);
        rep.cv.push_back({g, lambdas[l], e});
        best_here = std::min(best_here, e);
        if (Better(e, g, lambdas[l], best_err, best_g, lambdas[best_l])) {
          best_err = e;
          best_g = g;
          best_factor = factor;
          best_l = l;
        }
      }
      return best_here;
    });
  }
  rep.bin_gamma = bin_base * best_factor;
  rep.gamma = Df ? fourier_base * best_factor : rep.bin_gamma;
  rep.lambda = lambdas[best_l];

  Progress(ctx, 0, 1, "binning features");
  const AtGamma a = at_gamma(best_factor);
  const BinColumns bc = BuildColumns(a.keys, n, P, all_rows, opt.buckets, ctx.threads);
  if (!opt.buckets) CheckMemory(data, opt, K, ctx.threads, bc.count, &rep);
  const SparseDesign z = design(a, bc);
  CgStats stats;
  Progress(ctx, 0, 1, "conjugate gradients");
  RidgeSolution sol = SolveRidgeCg(z, all_rows, targets.Y.data(), K, rep.lambda, cg, &stats);
  rep.cg_iterations = stats.iterations;
  rep.cg_residual = stats.relative_residual;
  rep.occupied_bins = bc.occupied;

  ModelSpec spec;
  spec.input_dim = d;
  spec.seed = opt.seed;
  if (Df > 0) {
    const HostMap m = BuildMap(draws, opt.kernel, opt.map, F, d, rep.gamma, mean, inv_scale);
    spec.map = opt.map;
    spec.kernel = opt.kernel;
    spec.num_frequencies = F;
    spec.gamma = static_cast<float>(rep.gamma);
    spec.feature_scale = m.scale;
    spec.projection = m.W;
    spec.phase = m.phase;
  }
  spec.num_grids = P;
  spec.bin_mode = opt.buckets ? format::BinMode::kHashed : format::BinMode::kExact;
  spec.bin_buckets = opt.buckets;
  spec.bin_gamma = static_cast<float>(rep.bin_gamma);
  spec.bin_scale = static_cast<float>(z.scale);
  spec.bin_seed = opt.seed;
  spec.bin_inv_width = a.inv_width;
  spec.bin_offset = a.offset;
  if (!opt.buckets) {
    spec.bin_grid_start = bc.grid_start;
    spec.bin_keys = bc.table;
  }
  spec.mean = mean;
  spec.inv_scale = inv_scale;
  spec.task = targets.task;
  spec.num_outputs = K;
  const std::uint32_t C = z.Columns();
  spec.head_weights.resize(std::size_t{K} * C);
  spec.head_bias.resize(K);
  Head stored;
  stored.W.resize(sol.W.size());
  stored.bias.resize(K);
  for (std::uint32_t k = 0; k < K; ++k) {
    spec.head_bias[k] = static_cast<float>(sol.bias[k]);
    stored.bias[k] = spec.head_bias[k];
    for (std::uint32_t j = 0; j < C; ++j) {
      const float w = static_cast<float>(sol.W[std::size_t{j} * K + k]);
      spec.head_weights[std::size_t{k} * C + j] = w;
      stored.W[std::size_t{j} * K + k] = w;
    }
  }
  if (targets.task != Task::kRegression) spec.labels = targets.labels;
  {
    std::ostringstream md;
    md << "producer=rfk train\nmap=" << (Df ? std::string(MapName(opt.map)) + "+binning" : "binning")
       << "\ngrids=" << P << "\nbin_mode=" << (opt.buckets ? "hashed" : "exact")
       << "\nbin_gamma=" << FormatDouble(rep.bin_gamma);
    if (Df) md << "\nkernel=" << KernelName(opt.kernel) << "\ngamma=" << FormatDouble(rep.gamma);
    md << "\nlambda=" << FormatDouble(rep.lambda) << "\nseed=" << opt.seed << "\ntrain_rows=" << n
       << "\nstandardized=" << (rep.standardized ? 1 : 0) << "\n";
    spec.metadata = md.str();
  }
  result->model = SerializeModel(spec);
  CheckModelOpens(result->model);

  std::vector<std::uint32_t> sample;
  const std::size_t stride = (n + kTrainErrorRows - 1) / kTrainErrorRows;
  for (std::size_t i = 0; i < n; i += stride) sample.push_back(static_cast<std::uint32_t>(i));
  double rms_sample = 0;
  if (targets.task == Task::kRegression) {
    for (std::uint32_t i : sample) rms_sample += targets.Y[i] * targets.Y[i];
    rms_sample = std::sqrt(rms_sample / static_cast<double>(sample.size()));
  }
  rep.train_error_rows = sample.size();
  rep.train_error = Metric(targets, ScoreDesign(z, sample, {stored}, targets, ctx.threads)[0],
                           static_cast<double>(sample.size()), rms_sample);
}


}  // namespace

ModelSpec RandomFeatureSpec(Kernel kernel, MapKind map, std::uint32_t features,
                            std::uint32_t input_dim, double gamma, std::uint64_t seed) {
  if (features == 0 || (map == MapKind::kFourier && features % 2 != 0) || input_dim == 0 || !(gamma > 0))
    throw TrainError("RandomFeatureSpec: need features > 0 (even for the pair form), input_dim > 0, gamma > 0");
  const std::uint32_t F = map == MapKind::kFourier ? features / 2 : features;
  const HostMap m = BuildMap(DrawFrequencies(kernel, map, F, input_dim, seed, 1), kernel, map, F,
                             input_dim, gamma, {}, {});
  ModelSpec spec;
  spec.map = map;
  spec.kernel = kernel;
  spec.input_dim = input_dim;
  spec.num_frequencies = F;
  spec.gamma = static_cast<float>(gamma);
  spec.feature_scale = m.scale;
  spec.seed = seed;
  spec.projection = m.W;
  spec.phase = m.phase;
  spec.task = Task::kRegression;
  spec.num_outputs = 1;
  spec.head_weights.assign(m.D, 0.0f);
  spec.head_bias.assign(1, 0.0f);
  return spec;
}

namespace {

std::string FormatBytes(double b) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (b >= 1024 && u < 6) {
    b /= 1024;
    ++u;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", b, kUnits[u]);
  return buf;
}

}  // namespace

// The resource guard: throws TrainError if the estimated peak exceeds the limit.
void CheckMemory(const Dataset& data, const TrainOptions& opt, std::uint32_t K, unsigned threads,
                 std::uint32_t exact_bins, TrainReport* rep) {
  const double limit = opt.memory_limit ? static_cast<double>(opt.memory_limit) : PhysicalMemoryBytes();
  const MemoryEstimate need = EstimateTrainingMemory(data, opt, K, threads, exact_bins);
  rep->memory_estimate = std::max(rep->memory_estimate, need.bytes);
  rep->memory_limit = limit;
  if (limit > 0 && need.bytes > limit) {
    throw TrainError("training would need about " + FormatBytes(need.bytes) + " of memory (largest part " +
                     FormatBytes(need.largest_bytes) + ": " + need.largest + "), more than the limit of " +
                     FormatBytes(limit) + (opt.memory_limit ? " (--memory-limit)" : " (physical memory)") +
                     "; use fewer " + need.advice);
  }
}

double PhysicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

// Mirrors the allocations of Train and TrainBinned at their peak: the buffers that grow with
// rows, features, grids or outputs, as many as are alive at once. Fixed and per-thread extras of
// a few MiB are left out; allocator overhead is not modelled.
MemoryEstimate EstimateTrainingMemory(const Dataset& data, const TrainOptions& opt, std::uint32_t K,
                                      unsigned threads, std::uint32_t exact_bins) {
  const double n = static_cast<double>(data.rows), d = static_cast<double>(data.cols);
  const double kK = K, T = threads;
  const bool cv = opt.gamma_auto || opt.lambda_auto;
  const double folds = cv ? opt.cv_folds : 0;
  const double Df = opt.fourier ? opt.features : 0;
  const double F = !opt.fourier ? 0 : opt.map == MapKind::kFourier ? Df / 2 : Df;
  const double P = opt.grids;
  MemoryEstimate e;
  std::vector<std::pair<std::string, double>> parts;
  parts.emplace_back("the loaded data",
                     data.sparse ? 8.0 * (n + 1) + 8.0 * static_cast<double>(data.values.size())
                                 : 4.0 * static_cast<double>(data.dense.size()));
  parts.back().second += 40.0 * n;  // label strings and line numbers
  parts.emplace_back("the targets, rows x outputs doubles", 8.0 * n * (kK + 1) + 4.0 * n);
  // Frequencies: the unit draws (double), the map's W and W' (float), the model's copy and blob.
  parts.emplace_back("the random frequencies, features x inputs", 24.0 * F * d);
  e.advice = "--features";
  if (P == 0) {
    // Ridge statistics: G (D x D doubles) per stat set (the total, or every fold + the total +
    // one training-set copy while selecting, + the best so far); the solve's matrix and its
    // Cholesky factor. (The rare LDLT fallback, when Cholesky fails, needs one D x D more.)
    const double sets = cv ? folds + 3 : 1;
    parts.emplace_back("the ridge statistics and their factorisation, D x D doubles",
                       (sets + 2) * 8.0 * Df * (Df + kK + 1));
    parts.emplace_back("the feature blocks", 512.0 * Df * 16 + T * 512.0 * (F + d) * 4);
  } else {
    // Per grid and row: the bin key (u64) and column (u32); exact mode also sorts a copy of
    // the keys per grid and keeps the distinct ones (at most 2^24).
    const double Pn = P * n;
    const double cb = opt.buckets ? P * opt.buckets : exact_bins;
    parts.emplace_back("the bin keys and columns, grids x rows",
                       12.0 * Pn + (opt.buckets ? 0.0 : 8.0 * Pn + 8.0 * cb) + 32.0 * P * d);
    parts.emplace_back("the dense Fourier block, rows x features floats", 4.0 * n * Df);
    parts.emplace_back("the conjugate-gradient vectors", 8.0 * (Df + cb) * (kK + 9) + 24.0 * n);
    if (cv) parts.emplace_back("the cross-validation row lists", 4.0 * n * folds);
    e.advice = Df > 0 ? "--grids or --features" : "--grids";
  }
  for (const auto& [what, bytes] : parts) {
    e.bytes += bytes;
    if (bytes > e.largest_bytes) {
      e.largest_bytes = bytes;
      e.largest = what;
    }
  }
  return e;
}

TrainResult Train(const Dataset& data, const TrainOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  if (data.rows == 0) throw TrainError(data.source + ": no training rows");
  if (data.cols == 0 || data.cols > format::kMaxInputDim)
    throw TrainError(data.source + ": input dimension " + std::to_string(data.cols) + " out of range");
  if (data.labels.size() != data.rows) throw TrainError(data.source + ": labels missing");
  if (data.rows > 0xFFFFFFFFull) throw TrainError(data.source + ": more than 2^32 rows");
  if (!opt.fourier && opt.grids == 0) throw TrainError("no feature map: need Fourier features or --grids");
  if (opt.grids > format::kMaxOutputs)
    throw TrainError("--grids must be between 1 and " + std::to_string(format::kMaxOutputs));
  if (opt.grids > 0 && opt.buckets > 0 && std::uint64_t{opt.grids} * opt.buckets > format::kMaxFeatures)
    throw TrainError("--grids x --bins-per-grid exceeds the format's 2^24 columns");
  if (opt.fourier && (opt.features == 0 || opt.features > format::kMaxFeatures))
    throw TrainError("--features must be between 1 and " + std::to_string(format::kMaxFeatures));
  if (opt.fourier && opt.map == MapKind::kFourier && opt.features % 2 != 0)
    throw TrainError("--features must be even for --map fourier (cos/sin pairs); got " +
                     std::to_string(opt.features));
  if (!opt.lambda_auto && !(opt.lambda >= 0 && std::isfinite(opt.lambda)))
    throw TrainError("--lambda must be a finite number >= 0");
  if (!opt.gamma_auto && !(std::isfinite(opt.gamma)))
    throw TrainError("--gamma must be a finite positive number");
  // The model stores gammas as floats: a value a float cannot hold as a normal number would be
  // written as 0 or infinity.
  for (const auto& [name, g] : {std::pair<const char*, double>{"--gamma", opt.gamma},
                               {opt.fourier ? "--bin-gamma" : "--gamma", opt.bin_gamma}}) {
    if (g > 0 && !(g >= double(FLT_MIN) && g <= double(FLT_MAX)))
      throw TrainError(std::string(name) + " " + FormatDouble(g) + " is outside the float range the model stores it in (" +
                       FormatDouble(double(FLT_MIN)) + " to " + FormatDouble(double(FLT_MAX)) + ")");
  }
  if ((opt.gamma_auto || opt.lambda_auto) && (opt.cv_folds < 2 || opt.cv_folds > data.rows))
    throw TrainError("cross-validation needs 2 <= folds <= rows");

  const auto d = static_cast<std::uint32_t>(data.cols);
  const std::uint32_t D = opt.features;
  const std::uint32_t F = opt.map == MapKind::kFourier ? D / 2 : D;

  unsigned threads = opt.threads ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, 64u);

  TrainResult result;
  TrainReport& rep = result.report;
  const Targets targets = MakeTargets(data, opt.task, [&](std::uint32_t K) {
    CheckMemory(data, opt, K, threads, 0, &rep);
  });
  rep.task = targets.task;
  rep.task_reason = targets.reason;
  rep.labels = targets.labels;
  rep.rows = data.rows;

  std::vector<float> mean, inv_scale;
  rep.standardized = opt.standardize < 0 ? !data.sparse : opt.standardize > 0;
  if (rep.standardized) Standardization(data, &mean, &inv_scale);

  rep.gamma_default = DefaultGamma(data, opt.kernel, mean, inv_scale, opt.seed);
  std::vector<double> lambdas;
  const double base_gamma = opt.gamma > 0 ? opt.gamma : rep.gamma_default;
  if (opt.lambda_auto) {
    for (int e = -8; e <= -1; ++e) lambdas.push_back(std::pow(10.0, e));
  } else {
    lambdas.push_back(opt.lambda);
  }

  const Context ctx{data, targets, opt, threads};
  double rms_y = 0;
  if (targets.task == Task::kRegression) {
    for (double y : targets.Y) rms_y += y * y;
    rms_y = std::sqrt(rms_y / static_cast<double>(data.rows));
  }
  if (opt.grids > 0) {
    TrainBinned(ctx, mean, inv_scale, opt.gamma_auto, lambdas, rms_y, &result);
    SortCv(&rep.cv);
    rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result;
  }
  const Draws draws = DrawFrequencies(opt.kernel, opt.map, F, d, opt.seed, threads);

  std::vector<std::uint32_t> all_rows(data.rows);
  std::iota(all_rows.begin(), all_rows.end(), 0u);
  RidgeStats best_total;
  double best_gamma = base_gamma;
  std::size_t best_l = 0;
  std::uint64_t done = 0;
  if (!opt.gamma_auto && lambdas.size() == 1) {
    const HostMap m = BuildMap(draws, opt.kernel, opt.map, F, d, base_gamma, mean, inv_scale);
    best_total = Accumulate(ctx, m, all_rows, base_gamma, &done, data.rows, "features + Z'Z");
  } else {
    // Seeded fold assignment, independent of row order in the file.
    std::vector<std::vector<std::uint32_t>> fold_rows(opt.cv_folds);
    for (std::uint32_t i = 0; i < data.rows; ++i)
      fold_rows[RandomBits(opt.seed, kFoldStream, i) % opt.cv_folds].push_back(i);
    double best_err = HUGE_VAL;
    SearchGamma(opt.gamma_auto, [&](int k) {
      const double gamma = base_gamma * std::ldexp(1.0, k);
      const HostMap m = BuildMap(draws, opt.kernel, opt.map, F, d, gamma, mean, inv_scale);
      std::vector<RidgeStats> fold;
      RidgeStats tot(m.D, targets.K);
      const std::string what = "cv gamma " + FormatDouble(gamma);
      const std::uint64_t total = 2ull * data.rows;  // per gamma: accumulate, then score
      done = 0;
      for (std::uint32_t f = 0; f < opt.cv_folds; ++f) {
        fold.push_back(Accumulate(ctx, m, fold_rows[f], gamma, &done, total, what));
        tot.Add(fold.back(), 1.0);
      }
      std::vector<std::vector<Head>> heads(opt.cv_folds);
      for (std::uint32_t f = 0; f < opt.cv_folds; ++f) {
        RidgeStats train = tot;
        train.Add(fold[f], -1.0);
        for (RidgeSolution& sol : SolveRidgePath(train, lambdas, ctx.threads))
          heads[f].push_back(ToHead(std::move(sol)));
      }
      const std::vector<double> err = Score(ctx, m, fold_rows, heads, gamma, &done, total, what);
      double best_here = HUGE_VAL;
      bool improved = false;
      for (std::size_t l = 0; l < lambdas.size(); ++l) {
        const double e = Metric(targets, err[l], static_cast<double>(data.rows), rms_y);
        rep.cv.push_back({gamma, lambdas[l], e});
        best_here = std::min(best_here, e);
        if (Better(e, gamma, lambdas[l], best_err, best_gamma, lambdas[best_l])) {
          best_err = e;
          best_gamma = gamma;
          best_l = l;
          improved = true;
        }
      }
      if (improved) best_total = std::move(tot);  // the full-data statistics at the best gamma
      return best_here;
    });
  }
  rep.gamma = best_gamma;
  rep.lambda = lambdas[best_l];
  SortCv(&rep.cv);

  const HostMap m = BuildMap(draws, opt.kernel, opt.map, F, d, rep.gamma, mean, inv_scale);
  RidgeSolution sol = SolveRidge(best_total, rep.lambda, threads);

  ModelSpec spec;
  spec.map = opt.map;
  spec.kernel = opt.kernel;
  spec.input_dim = d;
  spec.num_frequencies = F;
  spec.gamma = static_cast<float>(rep.gamma);
  spec.feature_scale = m.scale;
  spec.seed = opt.seed;
  spec.projection = m.W;
  spec.phase = m.phase;
  spec.mean = mean;
  spec.inv_scale = inv_scale;
  spec.task = targets.task;
  spec.num_outputs = targets.K;
  spec.head_weights.resize(std::size_t{targets.K} * m.D);
  spec.head_bias.resize(targets.K);
  Head stored;  // the float weights the model will hold, for the training-error pass
  stored.W.resize(sol.W.size());
  stored.bias.resize(targets.K);
  for (std::uint32_t k = 0; k < targets.K; ++k) {
    spec.head_bias[k] = static_cast<float>(sol.bias[k]);
    stored.bias[k] = spec.head_bias[k];
    for (std::uint32_t i = 0; i < m.D; ++i) {
      const float w = static_cast<float>(sol.W[std::size_t{i} * targets.K + k]);
      spec.head_weights[std::size_t{k} * m.D + i] = w;
      stored.W[std::size_t{i} * targets.K + k] = w;
    }
  }
  if (targets.task != Task::kRegression) spec.labels = targets.labels;
  {
    std::ostringstream md;
    md << "producer=rfk train\n"
       << "kernel=" << KernelName(opt.kernel) << "\nmap=" << MapName(opt.map)
       << "\ngamma=" << FormatDouble(rep.gamma) << "\nlambda=" << FormatDouble(rep.lambda)
       << "\nseed=" << opt.seed << "\ntrain_rows=" << data.rows
       << "\nstandardized=" << (rep.standardized ? 1 : 0) << "\n";
    spec.metadata = md.str();
  }
  result.model = SerializeModel(spec);
  CheckModelOpens(result.model);

  // Training error as a fit diagnostic, on an evenly strided sample of at most kTrainErrorRows
  // rows so that it never costs more than a small part of training.
  std::vector<std::uint32_t> sample;
  const std::size_t stride = (data.rows + kTrainErrorRows - 1) / kTrainErrorRows;
  for (std::size_t i = 0; i < data.rows; i += stride) sample.push_back(static_cast<std::uint32_t>(i));
  double rms_sample = 0;
  if (targets.task == Task::kRegression) {
    for (std::uint32_t i : sample) rms_sample += targets.Y[i] * targets.Y[i];
    rms_sample = std::sqrt(rms_sample / static_cast<double>(sample.size()));
  }
  std::uint64_t done_eval = 0;
  const std::vector<double> train_err =
      Score(ctx, m, {sample}, {{stored}}, rep.gamma, &done_eval, sample.size(), "training error");
  rep.train_error_rows = sample.size();
  rep.train_error = Metric(targets, train_err[0], static_cast<double>(sample.size()), rms_sample);
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace rfk::host
