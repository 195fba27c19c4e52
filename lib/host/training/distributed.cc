#include "training/distributed.h"

#include <string>
#include <vector>

#include "training/gram.h"

namespace rfk::host {

namespace {

// FNV-1a over bytes.
class Hash {
 public:
  template <class T>
  void Add(const std::vector<T>& v) {
    Bytes(v.data(), v.size() * sizeof(T));
  }
  void Add(const std::string& s) { Bytes(s.data(), s.size()); }
  void Add(double v) { Bytes(&v, sizeof v); }
  void Add(std::uint64_t v) { Bytes(&v, sizeof v); }
  std::uint64_t value() const { return h_; }

 private:
  void Bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h_ = (h_ ^ b[i]) * 0x100000001b3ull;
  }
  std::uint64_t h_ = 0xcbf29ce484222325ull;
};

// The options that decide which passes run and what they compute (not threads, progress or the
// memory limit, which change no result and no pass).
std::uint64_t OptionsHash(const TrainOptions& o) {
  Hash h;
  for (const std::uint64_t v :
       {std::uint64_t{o.fourier}, std::uint64_t(o.map), std::uint64_t(o.kernel), std::uint64_t{o.features},
        std::uint64_t{o.grids}, std::uint64_t{o.buckets}, std::uint64_t{o.gamma_auto}, std::uint64_t{o.lambda_auto},
        std::uint64_t(o.task), o.seed, static_cast<std::uint64_t>(o.standardize), std::uint64_t{o.cv_folds},
        std::uint64_t(o.class_weight), std::uint64_t{o.calibrate}, std::uint64_t(o.w_storage),
        std::uint64_t(o.head_storage), std::uint64_t(o.impute_method)})
    h.Add(v);
  h.Add(o.bin_gamma);
  h.Add(o.gamma);
  h.Add(o.lambda);
  h.Add(o.impute);
  return h.value();
}

struct Field {
  const char* name;
  std::uint64_t value;
};

}  // namespace

Ranks* DistributedRanks(const TrainOptions& opt) {
  return opt.ranks != nullptr && opt.ranks->size() > 1 ? opt.ranks : nullptr;
}

void CheckRanksAgree(Ranks& ranks, const Dataset& meta, const TrainOptions& opt, const Targets& targets,
                     const InputScaling& scaling, double gamma_default) {
  Hash t, s;
  t.Add(targets.labels.size());
  t.Add(targets.cls);
  t.Add(targets.Y);
  t.Add(targets.w);
  s.Add(scaling.mean);
  s.Add(scaling.inv_scale);
  s.Add(gamma_default);
  const std::vector<Field> mine = {{"rows", meta.rows},
                                   {"columns", meta.cols},
                                   {"outputs", targets.K},
                                   {"the targets and row weights", t.value()},
                                   {"the standardisation and default gamma", s.value()},
                                   {"the training options", OptionsHash(opt)}};
  std::vector<std::uint64_t> values;
  for (const Field& f : mine) values.push_back(f.value);
  const std::vector<std::uint64_t> all = ranks.AllGather(values);
  const std::size_t F = mine.size();
  for (std::size_t r = 1; r < static_cast<std::size_t>(ranks.size()); ++r)
    for (std::size_t i = 0; i < F; ++i)
      if (all[r * F + i] != all[i]) {
        const bool count = i < 3;
        throw RanksError("rank " + std::to_string(r) + " trains on other data or options than rank 0: " + mine[i].name +
                         (count ? " " + std::to_string(all[r * F + i]) + " against " + std::to_string(all[i]) : " differ") +
                         " (every rank must read the same file with the same options)");
      }
  if (opt.grids > 0)  // the same options on every rank now: every rank refuses alike
    throw RanksError("distributed training (--mpi) takes Fourier-type maps: binning's sparse design holds "
                     "every row in one process; train binning without --mpi");
}

std::unique_ptr<RowSource> RankShare(RowSource& source, const Ranks& ranks) {
  const auto [begin, end] = RankRange(source.meta().rows, ranks.rank(), ranks.size(), kGramWindow);
  return std::make_unique<RankRows>(source, begin, end);
}

}  // namespace rfk::host
