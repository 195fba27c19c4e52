// Claim 1 of Rahimi & Recht (2007), measured on real data: the worst, mean absolute and mean
// squared error of z(x)'z(y) against k(x, y) over every pair of m sampled data points, as D
// (Fourier-type maps, Gaussian kernel) and P (random binning grids, Laplacian kernel) grow. The
// features are rfk's own: each Fourier-type map from RandomFeatureSpec and the bins from a binning
// model, all evaluated through the device core (rfk::ComputeFeatures, rfk::ComputeBins).
//
// usage: rfk_kernel_approx DATA [--format F] [--label-col N] [--points M] [--seeds S]
//                          [--features D1,D2,...] [--grids P1,P2,...|none]
//                          [--maps fourier,fourier-phase,orf,orf-phase,qmc,qmc-phase,fastfood,fastfood-phase]
//                          [--gamma G]
// Prints one JSON object per line: {"map", "n" (D or P), "seed", "max_err", "mean_err", "mse",
// "pairs", "gamma", "d", "model_bytes"} (model_bytes: the map's model with a one-output head).
// Inputs are standardised (mean 0, variance 1 per feature, over the whole file). gamma is rfk's
// data-scale default for each kernel (1 / median distance over the sampled pairs) unless --gamma
// sets the Gaussian one. --maps (Fourier-type maps, any subset) defaults to fourier; --grids none
// skips binning.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "rfk/host/data.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/train.hpp"
#include "rfk/model.hpp"

namespace {

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) v.push_back(item);
  return v;
}

std::vector<std::uint32_t> ParseList(const std::string& s) {
  std::vector<std::uint32_t> v;
  for (const std::string& item : Split(s)) {
    char* end = nullptr;
    const unsigned long x = std::strtoul(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || x == 0 || x > (1u << 24))
      throw std::runtime_error("bad list entry '" + item + "' (positive integers, comma-separated)");
    v.push_back(static_cast<std::uint32_t>(x));
  }
  return v;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Opened {
  rfk::host::AlignedBytes aligned;
  rfk::Model model;
};

void Open(const std::vector<std::uint8_t>& blob, Opened* o) {
  o->aligned = rfk::host::AlignedBytes(blob.size());
  std::copy(blob.begin(), blob.end(), o->aligned.data());
  if (rfk::OpenModel(o->aligned.data(), o->aligned.size(), &o->model) != rfk::Status::kOk)
    throw std::runtime_error("could not open a generated model");
}

// m rows at an even stride, standardised over the whole file, and the distances of every pair.
struct Points {
  std::size_t d = 0;
  std::vector<std::vector<float>> X;
  std::vector<double> sq, l1;  // squared L2 and L1 distance of pair t (i < j, row-major order)
};

Points Sample(const rfk::host::Dataset& data, std::size_t m) {
  const std::size_t n = data.rows, d = data.cols;
  std::vector<double> mean(d, 0.0), var(d, 0.0);
  std::vector<float> row(d);
  for (std::size_t i = 0; i < n; ++i) {
    rfk::host::DenseRow(data, i, row.data(), d);
    for (std::size_t c = 0; c < d; ++c) mean[c] += row[c];
  }
  for (double& x : mean) x /= double(n);
  for (std::size_t i = 0; i < n; ++i) {
    rfk::host::DenseRow(data, i, row.data(), d);
    for (std::size_t c = 0; c < d; ++c) var[c] += (row[c] - mean[c]) * (row[c] - mean[c]);
  }
  Points p;
  p.d = d;
  p.X.assign(m, std::vector<float>(d));
  for (std::size_t q = 0; q < m; ++q) {
    rfk::host::DenseRow(data, q * (n / m), row.data(), d);
    for (std::size_t c = 0; c < d; ++c) {
      const double sd = std::sqrt(var[c] / double(n));
      p.X[q][c] = sd > 0 ? static_cast<float>((row[c] - mean[c]) / sd) : 0.0f;
    }
  }
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = i + 1; j < m; ++j) {
      double s = 0, a = 0;
      for (std::size_t c = 0; c < d; ++c) {
        const double t = double(p.X[i][c]) - p.X[j][c];
        s += t * t;
        a += std::fabs(t);
      }
      p.sq.push_back(s);
      p.l1.push_back(a);
    }
  return p;
}

// Accumulates the errors of every pair.
struct Errors {
  double worst = 0, abs = 0, sq = 0;
  void Add(double e) {
    worst = std::max(worst, std::fabs(e));
    abs += std::fabs(e);
    sq += e * e;
  }
  void Print(const char* map, std::uint32_t n, int seed, std::size_t pairs, double gamma, std::size_t d,
             std::size_t bytes) const {
    std::printf("{\"map\": \"%s\", \"n\": %u, \"seed\": %d, \"max_err\": %.6g, \"mean_err\": %.6g, \"mse\": %.6g, "
                "\"pairs\": %zu, \"gamma\": %.6g, \"d\": %zu, \"model_bytes\": %zu}\n",
                map, n, seed, worst, abs / double(pairs), sq / double(pairs), pairs, gamma, d, bytes);
    std::fflush(stdout);
  }
};

void FourierRun(const Points& p, rfk::format::MapKind map, std::uint32_t D, int seed, double gamma) {
  const auto d = static_cast<std::uint32_t>(p.d);
  rfk::host::ModelSpec spec = rfk::host::RandomFeatureSpec(rfk::format::Kernel::kGaussian, map, D, d, gamma,
                                                           static_cast<std::uint64_t>(seed));
  const std::vector<std::uint8_t> blob = rfk::host::SerializeModel(spec);
  Opened o;
  Open(blob, &o);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(o.model));
  const std::size_t m = p.X.size();
  std::vector<std::vector<float>> Z(m, std::vector<float>(D));
  for (std::size_t q = 0; q < m; ++q)
    if (rfk::ComputeFeatures(o.model, p.X[q].data(), d, scratch.data(), scratch.size(), Z[q].data(), D) != rfk::Status::kOk)
      throw std::runtime_error("ComputeFeatures failed");
  Errors e;
  std::size_t t = 0;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = i + 1; j < m; ++j, ++t) {
      double dot = 0;
      for (std::uint32_t k = 0; k < D; ++k) dot += double(Z[i][k]) * Z[j][k];
      e.Add(dot - std::exp(-gamma * p.sq[t]));
    }
  e.Print(rfk::host::MapName(map), D, seed, p.sq.size(), gamma, p.d, blob.size());
}

// Binning: a hashed-mode model (one bucket per grid) fitted to the sampled points, only to obtain
// its P grids; the keys are what matter: z(x)'z(y) = (grids where the keys agree) / P.
void BinningRun(const Points& p, std::uint32_t P, int seed, double gamma) {
  const std::size_t m = p.X.size(), d = p.d;
  rfk::host::Dataset pts;
  pts.source = "sampled points";
  pts.rows = m;
  pts.cols = d;
  for (std::size_t q = 0; q < m; ++q) {
    pts.dense.insert(pts.dense.end(), p.X[q].begin(), p.X[q].end());
    pts.labels.push_back(q % 2 ? "1" : "-1");
    pts.lines.push_back(q + 1);
  }
  rfk::host::TrainOptions opt;
  opt.fourier = false;
  opt.grids = P;
  opt.buckets = 1;
  opt.bin_gamma = gamma;
  opt.lambda = 1e-3;
  opt.standardize = 0;
  opt.seed = static_cast<std::uint64_t>(seed);
  opt.threads = 1;
  const std::vector<std::uint8_t> blob = rfk::host::Train(pts, opt).model;
  Opened o;
  Open(blob, &o);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(o.model));
  std::vector<std::vector<std::uint64_t>> keys(m, std::vector<std::uint64_t>(P));
  std::vector<std::uint32_t> cols(P);
  for (std::size_t q = 0; q < m; ++q)
    if (rfk::ComputeBins(o.model, p.X[q].data(), d, scratch.data(), scratch.size(), keys[q].data(), cols.data(), P) != rfk::Status::kOk)
      throw std::runtime_error("ComputeBins failed");
  Errors e;
  std::size_t t = 0;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = i + 1; j < m; ++j, ++t) {
      std::uint32_t shared = 0;
      for (std::uint32_t g = 0; g < P; ++g) shared += keys[i][g] == keys[j][g];
      e.Add(double(shared) / P - std::exp(-gamma * p.l1[t]));
    }
  e.Print("binning", P, seed, p.l1.size(), gamma, d, blob.size());
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2) throw std::runtime_error("usage: rfk_kernel_approx DATA [options] (see the source)");
    rfk::host::ReadOptions ro;
    std::size_t m = 300;
    int seeds = 3;
    double gamma = 0;  // 0: the data-scale default
    std::vector<std::uint32_t> Ds = {16, 64, 256, 1024, 4096}, Ps = {4, 16, 64, 256, 1024};
    std::vector<rfk::format::MapKind> maps = {rfk::format::MapKind::kFourier};
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (i + 1 >= argc) throw std::runtime_error("option " + a + " needs a value");
      const std::string v = argv[++i];
      if (a == "--format") ro.format = rfk::host::ParseDataFormat(v);
      else if (a == "--label-col") ro.label_col = std::atoi(v.c_str());
      else if (a == "--points") m = std::strtoul(v.c_str(), nullptr, 10);
      else if (a == "--seeds") seeds = std::atoi(v.c_str());
      else if (a == "--features") Ds = ParseList(v);
      else if (a == "--grids") Ps = v == "none" ? std::vector<std::uint32_t>{} : ParseList(v);
      else if (a == "--gamma") gamma = std::strtod(v.c_str(), nullptr);
      else if (a == "--maps") {
        maps.clear();
        for (const std::string& name : Split(v)) maps.push_back(rfk::host::ParseMap(name));
      } else throw std::runtime_error("unknown option " + a);
    }
    const rfk::host::Dataset data = rfk::host::ReadDataset(argv[1], ro);
    if (m < 2 || m > data.rows) throw std::runtime_error("--points must be between 2 and the number of rows");
    const Points p = Sample(data, m);
    const double g_rbf = gamma > 0 ? gamma : 1.0 / Median(p.sq), g_lap = 1.0 / Median(p.l1);
    for (rfk::format::MapKind map : maps)
      for (std::uint32_t D : Ds)
        for (int seed = 1; seed <= seeds; ++seed) FourierRun(p, map, D, seed, g_rbf);
    for (std::uint32_t P : Ps)
      for (int seed = 1; seed <= seeds; ++seed) BinningRun(p, P, seed, g_lap);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rfk_kernel_approx: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
