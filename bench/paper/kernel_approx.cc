// Claim 1 of Rahimi & Recht (2007), measured on real data: the worst and mean absolute error
// |z(x)'z(y) - k(x, y)| over every pair of m sampled data points, as D (Fourier features, Gaussian
// kernel) and P (random binning grids, Laplacian kernel) grow. The features are rfk's own: the
// Fourier map from RandomFeatureSpec and the bins from a binning model, both evaluated through the
// device core (rfk::ComputeFeatures, rfk::ComputeBins).
//
// usage: rfk_kernel_approx DATA [--format F] [--label-col N] [--points M] [--seeds S]
//                          [--features D1,D2,...] [--grids P1,P2,...]
// Prints one JSON object per line: {"map", "n" (D or P), "seed", "max_err", "mean_err", "pairs",
// "gamma", "d"}. Inputs are standardised (mean 0, variance 1 per feature, over the whole file);
// gamma is rfk's data-scale default for each kernel (1 / median distance over the sampled pairs).
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

std::vector<std::uint32_t> ParseList(const std::string& s) {
  std::vector<std::uint32_t> v;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
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
  std::vector<std::uint8_t> bytes;  // keeps the blob alive
  rfk::host::AlignedBytes aligned;
  rfk::Model model;
};

void Open(const std::vector<std::uint8_t>& blob, Opened* o) {
  o->aligned = rfk::host::AlignedBytes(blob.size());
  std::copy(blob.begin(), blob.end(), o->aligned.data());
  if (rfk::OpenModel(o->aligned.data(), o->aligned.size(), &o->model) != rfk::Status::kOk)
    throw std::runtime_error("could not open a generated model");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2) throw std::runtime_error("usage: rfk_kernel_approx DATA [options] (see the source)");
    rfk::host::ReadOptions ro;
    std::size_t m = 300;
    int seeds = 3;
    std::vector<std::uint32_t> Ds = {16, 64, 256, 1024, 4096}, Ps = {4, 16, 64, 256, 1024};
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (i + 1 >= argc) throw std::runtime_error("option " + a + " needs a value");
      const std::string v = argv[++i];
      if (a == "--format") ro.format = rfk::host::ParseDataFormat(v);
      else if (a == "--label-col") ro.label_col = std::atoi(v.c_str());
      else if (a == "--points") m = std::strtoul(v.c_str(), nullptr, 10);
      else if (a == "--seeds") seeds = std::atoi(v.c_str());
      else if (a == "--features") Ds = ParseList(v);
      else if (a == "--grids") Ps = ParseList(v);
      else throw std::runtime_error("unknown option " + a);
    }
    const rfk::host::Dataset data = rfk::host::ReadDataset(argv[1], ro);
    const std::size_t n = data.rows, d = data.cols;
    if (m < 2 || m > n) throw std::runtime_error("--points must be between 2 and the number of rows");
    // Standardise every column over the whole file (constant columns become 0).
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
    // m rows at an even stride: a fixed, documented sample.
    std::vector<std::vector<float>> X(m, std::vector<float>(d));
    for (std::size_t q = 0; q < m; ++q) {
      rfk::host::DenseRow(data, q * (n / m), row.data(), d);
      for (std::size_t c = 0; c < d; ++c) {
        const double sd = std::sqrt(var[c] / double(n));
        X[q][c] = sd > 0 ? static_cast<float>((row[c] - mean[c]) / sd) : 0.0f;
      }
    }
    std::vector<double> sq, l1;
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = i + 1; j < m; ++j) {
        double s = 0, a = 0;
        for (std::size_t c = 0; c < d; ++c) {
          const double t = double(X[i][c]) - X[j][c];
          s += t * t;
          a += std::fabs(t);
        }
        sq.push_back(s);
        l1.push_back(a);
      }
    const double g_rbf = 1.0 / Median(sq), g_lap = 1.0 / Median(l1);
    const std::size_t pairs = sq.size();

    for (std::uint32_t D : Ds) {
      for (int seed = 1; seed <= seeds; ++seed) {
        Opened o;
        Open(rfk::host::SerializeModel(rfk::host::RandomFeatureSpec(
                 rfk::format::Kernel::kGaussian, rfk::format::MapKind::kFourier, D,
                 static_cast<std::uint32_t>(d), g_rbf, static_cast<std::uint64_t>(seed))), &o);
        rfk::host::AlignedBytes scratch(rfk::ScratchBytes(o.model));
        std::vector<std::vector<float>> Z(m, std::vector<float>(D));
        for (std::size_t q = 0; q < m; ++q)
          if (rfk::ComputeFeatures(o.model, X[q].data(), d, scratch.data(), scratch.size(), Z[q].data(), D) != rfk::Status::kOk)
            throw std::runtime_error("ComputeFeatures failed");
        double worst = 0, sum = 0;
        std::size_t t = 0;
        for (std::size_t i = 0; i < m; ++i)
          for (std::size_t j = i + 1; j < m; ++j, ++t) {
            double dot = 0;
            for (std::uint32_t k = 0; k < D; ++k) dot += double(Z[i][k]) * Z[j][k];
            const double e = std::fabs(dot - std::exp(-g_rbf * sq[t]));
            worst = std::max(worst, e);
            sum += e;
          }
        std::printf("{\"map\": \"fourier\", \"n\": %u, \"seed\": %d, \"max_err\": %.6g, \"mean_err\": %.6g, "
                    "\"pairs\": %zu, \"gamma\": %.6g, \"d\": %zu}\n", D, seed, worst, sum / double(pairs), pairs, g_rbf, d);
        std::fflush(stdout);
      }
    }

    // Binning: a hashed-mode model (one bucket per grid) fitted to the sampled points, only to
    // obtain its P grids; the keys are what matter: z(x)'z(y) = (grids where the keys agree) / P.
    rfk::host::Dataset pts;
    pts.source = "sampled points";
    pts.rows = m;
    pts.cols = d;
    for (std::size_t q = 0; q < m; ++q) {
      pts.dense.insert(pts.dense.end(), X[q].begin(), X[q].end());
      pts.labels.push_back(q % 2 ? "1" : "-1");
      pts.lines.push_back(q + 1);
    }
    for (std::uint32_t P : Ps) {
      for (int seed = 1; seed <= seeds; ++seed) {
        rfk::host::TrainOptions opt;
        opt.fourier = false;
        opt.grids = P;
        opt.buckets = 1;
        opt.bin_gamma = g_lap;
        opt.lambda = 1e-3;
        opt.standardize = 0;
        opt.seed = static_cast<std::uint64_t>(seed);
        opt.threads = 1;
        Opened o;
        Open(rfk::host::Train(pts, opt).model, &o);
        rfk::host::AlignedBytes scratch(rfk::ScratchBytes(o.model));
        std::vector<std::vector<std::uint64_t>> keys(m, std::vector<std::uint64_t>(P));
        std::vector<std::uint32_t> cols(P);
        for (std::size_t q = 0; q < m; ++q)
          if (rfk::ComputeBins(o.model, X[q].data(), d, scratch.data(), scratch.size(), keys[q].data(), cols.data(), P) != rfk::Status::kOk)
            throw std::runtime_error("ComputeBins failed");
        double worst = 0, sum = 0;
        std::size_t t = 0;
        for (std::size_t i = 0; i < m; ++i)
          for (std::size_t j = i + 1; j < m; ++j, ++t) {
            std::uint32_t shared = 0;
            for (std::uint32_t p = 0; p < P; ++p) shared += keys[i][p] == keys[j][p];
            const double e = std::fabs(double(shared) / P - std::exp(-g_lap * l1[t]));
            worst = std::max(worst, e);
            sum += e;
          }
        std::printf("{\"map\": \"binning\", \"n\": %u, \"seed\": %d, \"max_err\": %.6g, \"mean_err\": %.6g, "
                    "\"pairs\": %zu, \"gamma\": %.6g, \"d\": %zu}\n", P, seed, worst, sum / double(pairs), pairs, g_lap, d);
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rfk_kernel_approx: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
