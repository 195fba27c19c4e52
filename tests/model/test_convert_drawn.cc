// Conversions without data (issue 20 onward): EstimateOutputShift's figure against real moves,
// `rfk convert`'s warning and drawn refit where a classifier's outputs moved far, and the
// input_stats section those draws come from. (Conversions with data, and quantization-aware
// training, are in test_quantize_aware.cc.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "rfk/host/data.hpp"
#include "rfk/host/model_writer.hpp"
#include "rfk/host/quantize.hpp"
#include "rfk/host/train.hpp"
#include "maps/random.h"
#include "rfk/model.hpp"
#include "test_util.h"

namespace f = rfk::format;
using rfk::Status;

namespace {

// n rows of 5 independent normal columns with unlike means and deviations (so standardisation is
// what makes them unit normals; each mean within 8 deviations, so an f16 W or int8 W takes the
// standardisation to f16) and a constant sixth column, labelled by a smooth boundary with 10 % of
// the labels flipped, or (regression) given that boundary's value: rows like those
// EstimateOutputShift draws. `stream` picks the rows.
rfk::host::Dataset ShiftRows(int n, std::uint64_t stream, bool regression = false) {
  static const double mean[5] = {30, -1, 0.5, 2000, 0.05}, dev[5] = {5, 0.2, 1, 300, 0.01};
  rfk::host::Dataset ds;
  ds.source = "t";
  ds.cols = 6;
  rfk::host::RandomStream rs(11, stream);
  for (int i = 0; i < n; ++i) {
    double u[5];
    for (int c = 0; c < 5; ++c) {
      u[c] = rs.Normal();
      ds.dense.push_back(static_cast<float>(mean[c] + dev[c] * u[c]));
    }
    ds.dense.push_back(7.0f);
    const double f = std::sin(2 * u[0]) + u[1] * u[2] - 0.5 * u[3];
    const bool flip = rs.Uniform() < 0.1;
    ds.labels.push_back(regression ? std::to_string(10 * f) : ((f > 0) != flip) ? "1" : "0");
    ds.lines.push_back(std::size_t(i) + 1);
    ++ds.rows;
  }
  return ds;
}

// On `data`: the root mean square over rows and outputs of b's outputs minus a's, and the standard
// deviation of a's outputs (the root mean square over outputs of each one's).
struct Moved {
  double rms, sd;
};
Moved MovedOn(const rfk::Model& a, const rfk::Model& b, const rfk::host::Dataset& data) {
  rfk::host::AlignedBytes scratch(std::max(rfk::ScratchBytes(a), rfk::ScratchBytes(b)));
  const std::size_t K = a.num_outputs;
  std::vector<float> x(a.input_dim), oa(K), ob(K);
  std::vector<double> s(K, 0.0), s2(K, 0.0);
  double diff2 = 0;
  for (std::size_t i = 0; i < data.rows; ++i) {
    rfk::host::DenseRow(data, i, x.data(), a.input_dim);
    REQUIRE(rfk::Predict(a, x.data(), x.size(), scratch.data(), scratch.size(), oa.data(), K) == Status::kOk);
    REQUIRE(rfk::Predict(b, x.data(), x.size(), scratch.data(), scratch.size(), ob.data(), K) == Status::kOk);
    for (std::size_t k = 0; k < K; ++k) {
      diff2 += (double(ob[k]) - oa[k]) * (double(ob[k]) - oa[k]);
      s[k] += oa[k];
      s2[k] += double(oa[k]) * oa[k];
    }
  }
  const double n = double(data.rows);
  double var = 0;
  for (std::size_t k = 0; k < K; ++k) var += s2[k] / n - (s[k] / n) * (s[k] / n);
  return {std::sqrt(diff2 / (n * double(K))), std::sqrt(var / double(K))};
}

}  // namespace

TEST_CASE("EstimateOutputShift: on rows like the ones it draws, the outputs move as it says, and no figure where it "
          "cannot know the inputs' scale") {
  const rfk::host::Dataset train = ShiftRows(600, 1), held = ShiftRows(3000, 2);
  rfk::host::TrainOptions o;
  o.features = 200;
  o.gamma = 0.2;
  o.lambda = 1e-6;
  o.calibrate = false;
  o.threads = 1;
  rfk_test::Blob blob(rfk::host::Train(train, o).model);
  rfk::Model m;
  REQUIRE(blob.Open(&m) == Status::kOk);
  REQUIRE(rfk::IsStandardized(m));
  REQUIRE(rfk::StandardizeF16Values(m) == nullptr);

  rfk::host::OutputShift same;
  REQUIRE(rfk::host::EstimateOutputShift(m, m, &same));
  CHECK(same.rms == 0);
  CHECK(same.max == 0);
  CHECK(same.inputs == rfk::host::kShiftInputs);
  const double source_sd = MovedOn(m, m, held).sd;
  CAPTURE(source_sd);
  CHECK(same.source_sd > 0.8 * source_sd);
  CHECK(same.source_sd < 1.25 * source_sd);

  // Each estimate against the move on held-out rows drawn like the estimate's inputs: from the f32
  // model to f16 and int8, and from the f16 model (whose standardisation is f16: the other way of
  // reading mean and inv_scale) to int8.
  rfk_test::Blob half(rfk::host::RequantizeModel(m, f::Storage::kF16, f::Storage::kF16));
  rfk::Model m16;
  REQUIRE(half.Open(&m16) == Status::kOk);
  REQUIRE(rfk::StandardizeF16Values(m16) != nullptr);
  struct Case {
    const rfk::Model* source;
    f::Storage storage;
    double rms = 0;
  } cases[] = {{&m, f::Storage::kF16}, {&m, f::Storage::kInt8}, {&m16, f::Storage::kInt8}};
  for (Case& t : cases) {
    CAPTURE(int(t.storage));
    CAPTURE(t.source == &m16);
    rfk_test::Blob cb(rfk::host::RequantizeModel(*t.source, t.storage, t.storage));
    rfk::Model c;
    REQUIRE(cb.Open(&c) == Status::kOk);
    rfk::host::OutputShift shift, again;
    REQUIRE(rfk::host::EstimateOutputShift(*t.source, c, &shift));
    REQUIRE(rfk::host::EstimateOutputShift(*t.source, c, &again));
    CHECK(again.rms == shift.rms);  // the draws are fixed
    CHECK(shift.max >= shift.rms);
    const double held_rms = MovedOn(*t.source, c, held).rms;
    MESSAGE("estimated " << shift.rms << ", on 3,000 held-out rows " << held_rms);
    CHECK(shift.rms > 0.8 * held_rms);
    CHECK(shift.rms < 1.25 * held_rms);
    t.rms = shift.rms;
  }
  CHECK(cases[0].rms > 0);
  CHECK(cases[1].rms > 10 * cases[0].rms);  // int8 moves them far more than f16

  // Without standardisation the draws come from the input_stats section train writes beside the
  // metadata; without either the inputs' scale is unknown; with random binning, drawn inputs fall
  // in cells training never saw: no figure for those two.
  o.standardize = 0;
  rfk_test::Blob stats(rfk::host::Train(train, o).model);
  rfk::Model ms;
  REQUIRE(stats.Open(&ms) == Status::kOk);
  REQUIRE_FALSE(rfk::IsStandardized(ms));
  rfk::host::OutputShift from_stats;
  REQUIRE(rfk::host::EstimateOutputShift(ms, ms, &from_stats));
  CHECK(from_stats.source == rfk::host::InputDistribution::kInputStats);
  CHECK(from_stats.source_sd > 0.8 * source_sd);  // the same rows' outputs, drawn from the data's moments
  CHECK(from_stats.source_sd < 1.25 * source_sd);
  o.metadata = false;
  rfk_test::Blob raw(rfk::host::Train(train, o).model);
  o.metadata = true;
  o.standardize = -1;
  o.fourier = false;
  o.grids = 8;
  rfk_test::Blob binned(rfk::host::Train(train, o).model);
  for (rfk_test::Blob* b : {&raw, &binned}) {
    rfk::Model u;
    REQUIRE(b->Open(&u) == Status::kOk);
    CAPTURE(rfk::IsStandardized(u));
    CAPTURE(u.num_grids);
    rfk::host::OutputShift shift;
    shift.rms = 1;
    CHECK_FALSE(rfk::host::EstimateOutputShift(u, u, &shift));
    CHECK(shift.rms == 0);
  }
}

TEST_CASE("rfk convert without data: a classifier whose outputs moved far gets a warning and the way to a closer "
          "model, a close one a note") {
  rfk_test::TempDir tmp;
  const std::string cli = RFK_CLI, data = tmp.Path("d.csv");
  const auto write = [&](const std::string& path, const rfk::host::Dataset& rows) {
    std::string csv = "a,b,c,d,e,f,y\n";
    for (std::size_t i = 0; i < rows.rows; ++i) {
      for (int c = 0; c < 6; ++c) csv += std::to_string(rows.dense[i * 6 + c]) + ",";
      csv += rows.labels[i] + "\n";
    }
    rfk_test::WriteText(path, csv);
  };
  write(data, ShiftRows(600, 1));
  write(tmp.Path("r.csv"), ShiftRows(600, 1, true));
  const auto convert = [&](const std::string& lambda, const std::string& opts, const std::string& train_opts = "") {
    const std::string f32 = tmp.Path("f32.rfk");
    auto r = rfk_test::Run(cli + " train --train " + (train_opts.empty() ? data : tmp.Path("r.csv") + " " + train_opts) +
                           " -D 400 --gamma 0.2 --no-calibration -q --lambda " + lambda + " -o " + f32);
    REQUIRE_MESSAGE(r.status == 0, r.err);
    r = rfk_test::Run(cli + " convert -m " + f32 + " -o " + tmp.Path("out.rfk") + " " + opts);
    REQUIRE_MESSAGE(r.status == 0, r.err);
    return r.err;
  };
  // Weakly regularised: the head's weights are large and cancel each other; their rounding does
  // not. The int8 head is refitted on drawn inputs; on this toy (600 rows, D = 400, lambda 1e-9)
  // the refit leaves the outputs far still, so the warning and the way to real rows follow.
  std::string err = convert("1e-9", "--storage int8");
  MESSAGE(err);
  CHECK(err.find("head int8 (refitted on drawn inputs)") != std::string::npos);
  CHECK(err.find("rfk: warning: plain rounding moved the outputs by ") != std::string::npos);
  CHECK(err.find("each class is coded +-1) on 1024 inputs drawn from the model's standardisation") != std::string::npos);
  CHECK(err.find("so the int8 head was refitted on 8192 other drawn inputs") != std::string::npos);
  CHECK(err.find("rfk: warning: --calibrate FILE") != std::string::npos);
  CHECK(convert("1e-9", "--storage int8 -q").find("rfk: warning: plain rounding moved") != std::string::npos);
  // --no-refit: plain rounding, warned as before.
  err = convert("1e-9", "--storage int8 --no-refit");
  MESSAGE(err);
  CHECK(err.find("head int8, ") != std::string::npos);
  CHECK(err.find("rfk: warning: re-storing moved the outputs by ") != std::string::npos);
  CHECK(err.find("rfk: warning: --no-refit: plainly rounded; --calibrate FILE") != std::string::npos);
  // A refit past --memory-limit (D = 400: 24 D^2 bytes, 3.7 MiB): plain rounding, and why.
  err = convert("1e-9", "--storage int8 --memory-limit 1M");
  MESSAGE(err);
  CHECK(err.find("head int8, ") != std::string::npos);
  CHECK(err.find("rfk: warning: re-storing moved the outputs by ") != std::string::npos);
  CHECK(err.find("rfk: warning: not refitted: the refit would need about 3.") != std::string::npos);
  CHECK(err.find("(three D x D matrices of doubles, D = 400), more than the limit of 1.00 MiB (--memory-limit)") !=
        std::string::npos);
  CHECK(convert("1e-9", "--storage int8 --memory-limit 8M").find("(refitted on drawn inputs)") != std::string::npos);
  err = convert("1e-9", "--storage int8 --head-storage f32");
  CHECK(err.find("rfk: warning: train with this storage") != std::string::npos);
  // Well regularised: a note, silenced by -q.
  err = convert("1e-2", "--storage int8");
  MESSAGE(err);
  CHECK(err.find("rfk: note: re-storing moved the outputs by ") != std::string::npos);
  CHECK(err.find("warning") == std::string::npos);
  CHECK(convert("1e-2", "--storage int8 -q").find("note") == std::string::npos);
  // Regression: the move beside the outputs' own deviation, never a warning (no scale to judge it
  // by), and the way to a closer int8 head.
  err = convert("1e-9", "--storage int8", "--task regression");
  MESSAGE(err);
  CHECK(err.find("rfk: note: re-storing moved the outputs by ") != std::string::npos);
  CHECK(err.find("the outputs' own deviation there ") != std::string::npos);
  CHECK(err.find("rfk: note: --calibrate FILE") != std::string::npos);
  CHECK(err.find("warning") == std::string::npos);
  // A model with the integer path keeps it as it was (eval and predict use it): said.
  const std::string fixed = tmp.Path("fixed.rfk");
  auto r = rfk_test::Run(cli + " convert -m " + tmp.Path("f32.rfk") + " --fixed --calibrate " + tmp.Path("r.csv") +
                         " -q -o " + fixed);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  r = rfk_test::Run(cli + " convert -m " + fixed + " --storage int8 -o " + tmp.Path("out.rfk"));
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(r.err.find("rfk: note: the integer (fixed) section is copied as it was") != std::string::npos);
}

// The host's input_stats section (format::input_stats): what train stores, what the reader
// refuses (field and offset), that a device predicts the same with any bytes there, and the
// drawn refit it makes possible.
TEST_CASE("input_stats: the data's moments where the standardisation lacks them, refused with field and offset "
          "when malformed, never read by the device, and a drawn refit that brings an int8 head back") {
  const rfk::host::Dataset train = ShiftRows(600, 1), held = ShiftRows(3000, 2);
  const auto input_stats = static_cast<f::SectionType>(f::kInputStatsSection);
  rfk::host::TrainOptions o;
  o.features = 400;
  o.gamma = 0.2;
  o.lambda = 1e-9;
  o.calibrate = false;
  o.threads = 1;
  // Centred (dense data, the default): the standardisation holds the moments; no section.
  rfk_test::Blob centred(rfk::host::Train(train, o).model);
  rfk::Model mc;
  REQUIRE(centred.Open(&mc) == Status::kOk);
  rfk::host::InputStats st;
  CHECK_FALSE(rfk::host::ReadInputStats(mc, &st));
  CHECK(centred.Entry(input_stats) == 0);
  // Without standardisation: the section, with each column's mean and population deviation.
  o.standardize = 0;
  rfk_test::Blob blob(rfk::host::Train(train, o).model);
  rfk::Model m;
  REQUIRE(blob.Open(&m) == Status::kOk);
  REQUIRE(rfk::host::ReadInputStats(m, &st));
  REQUIRE(st.mean.size() == 6);
  for (std::size_t c = 0; c < 6; ++c) {
    double s1 = 0, s2 = 0;
    for (std::size_t i = 0; i < train.rows; ++i) s1 += train.dense[i * 6 + c];
    const double mu = s1 / double(train.rows);
    for (std::size_t i = 0; i < train.rows; ++i) s2 += (train.dense[i * 6 + c] - mu) * (train.dense[i * 6 + c] - mu);
    CAPTURE(c);
    CHECK(st.mean[c] == doctest::Approx(mu).epsilon(1e-5));
    CHECK(st.sd[c] == doctest::Approx(std::sqrt(s2 / double(train.rows))).epsilon(1e-4).scale(1e-3));
  }
  CHECK(st.sd[5] < 1e-3);  // the constant column

  // The drawn refit: plain rounding against CalibratedInt8Model on DrawnCalibrationRows, both
  // measured on held-out rows like the training rows (which the draws only resemble).
  rfk::host::Dataset drawn;
  REQUIRE(rfk::host::DrawnCalibrationRows(m, &drawn));
  CHECK(drawn.rows == std::max<std::size_t>(rfk::host::kRefitMinInputs, 2 * m.num_features));
  rfk::host::Dataset again;
  REQUIRE(rfk::host::DrawnCalibrationRows(m, &again));
  CHECK(again.dense == drawn.dense);  // fixed draws
  rfk_test::Blob plain(rfk::host::RequantizeModel(m, f::Storage::kInt8, f::Storage::kInt8));
  rfk_test::Blob refit(rfk::host::CalibratedInt8Model(m, f::Storage::kInt8, drawn, 1e-9, 1));
  rfk::Model mp, mr;
  REQUIRE(plain.Open(&mp) == Status::kOk);
  REQUIRE(refit.Open(&mr) == Status::kOk);
  const double moved_plain = MovedOn(m, mp, held).rms, moved_refit = MovedOn(m, mr, held).rms;
  MESSAGE("held-out rows: plain rounding moved the outputs " << moved_plain << ", the drawn refit " << moved_refit);
  CHECK(moved_refit < 0.5 * moved_plain);
  // A centred model draws from its standardisation; one scaled without centring and without the
  // section (trained before it, or --no-metadata) has no rows to refit on.
  CHECK(rfk::host::DrawnCalibrationRows(mc, &again));
  o.standardize = 1;
  o.metadata = false;
  rfk_test::Blob bare(rfk::host::Train(train, o).model);
  rfk::Model mb;
  REQUIRE(bare.Open(&mb) == Status::kOk);
  CHECK_FALSE(rfk::host::ReadInputStats(mb, &st));

  // Malformed sections: the device core opens the model and predicts as before; the reader names
  // the field and its offset in the model.
  const std::size_t e = blob.Entry(input_stats);
  REQUIRE(e != 0);
  const std::uint32_t off = blob.U32(e + f::entry::kOffset);
  std::vector<float> x(6, 0.5f), ref(1), out(1);
  rfk::host::AlignedBytes scratch(rfk::ScratchBytes(m));
  REQUIRE(rfk::Predict(m, x.data(), 6, scratch.data(), scratch.size(), ref.data(), 1) == Status::kOk);
  const auto refused = [&](rfk_test::Blob& b, const std::string& field, std::size_t at) {
    b.FixCrc();
    rfk::Model bm;
    REQUIRE(b.Open(&bm) == Status::kOk);
    REQUIRE(rfk::Predict(bm, x.data(), 6, scratch.data(), scratch.size(), out.data(), 1) == Status::kOk);
    CHECK(out[0] == ref[0]);
    const std::string want = field + " (offset " + std::to_string(at) + "): ";
    CAPTURE(want);
    bool threw = false;
    try {
      rfk::host::ReadInputStats(bm, &st);
    } catch (const rfk::host::QuantizeError& err) {
      threw = true;
      CHECK(std::string(err.what()).rfind(want, 0) == 0);
    }
    CHECK(threw);
    rfk::host::OutputShift shift;
    CHECK_THROWS_AS(rfk::host::EstimateOutputShift(bm, bm, &shift), rfk::host::QuantizeError);
  };
  const auto copy = [&] { return rfk_test::Blob(std::vector<std::uint8_t>(blob.data(), blob.data() + blob.size())); };
  {
    auto b = copy();
    b.SetU32(off + f::input_stats::kCount, 7);
    refused(b, "input_stats.count", off + f::input_stats::kCount);
  }
  {
    auto b = copy();
    b.SetU32(off + f::input_stats::kReserved + 8, 1);
    refused(b, "input_stats.reserved", off + f::input_stats::kReserved + 8);
  }
  {
    auto b = copy();
    b.SetU32(e + f::entry::kSize, blob.U32(e + f::entry::kSize) - 4);
    refused(b, "input_stats.size", e + f::entry::kSize);
  }
  const std::uint32_t nan = 0x7FC00000u, inf = 0x7F800000u, minus_one = 0xBF800000u;
  {
    auto b = copy();
    b.SetU32(off + 16 + 4 * 2, nan);
    refused(b, "input_stats.mean", off + 16 + 4 * 2);
  }
  for (const std::uint32_t bad : {nan, inf, minus_one}) {
    auto b = copy();
    b.SetU32(off + 16 + 4 * (6 + 3), bad);
    refused(b, "input_stats.sd", off + 16 + 4 * (6 + 3));
  }
  // Every byte of the section flipped, one at a time: the device predicts the same; the reader
  // returns finite moments with deviations >= 0, or refuses.
  const std::uint32_t size = blob.U32(e + f::entry::kSize);
  for (std::uint32_t i = 0; i < size; ++i) {
    auto b = copy();
    b.data()[off + i] ^= 0xFF;
    b.FixCrc();
    rfk::Model bm;
    REQUIRE(b.Open(&bm) == Status::kOk);
    REQUIRE(rfk::Predict(bm, x.data(), 6, scratch.data(), scratch.size(), out.data(), 1) == Status::kOk);
    CHECK(out[0] == ref[0]);
    try {
      if (rfk::host::ReadInputStats(bm, &st))
        for (std::size_t c = 0; c < 6; ++c) CHECK((std::isfinite(st.mean[c]) && std::isfinite(st.sd[c]) && st.sd[c] >= 0));
    } catch (const rfk::host::QuantizeError&) {
    }
  }

  // The CLI: a malformed section stops convert with the field; --no-metadata leaves the section out.
  rfk_test::TempDir tmp;
  const std::string cli = RFK_CLI;
  {
    auto b = copy();
    b.SetU32(off + 16 + 4 * (6 + 3), minus_one);
    b.FixCrc();
    rfk_test::WriteText(tmp.Path("bad.rfk"), std::string(reinterpret_cast<const char*>(b.data()), b.size()));
    const auto r = rfk_test::Run(cli + " convert -m " + tmp.Path("bad.rfk") + " --storage int8 -o " + tmp.Path("o.rfk"));
    CHECK(r.status != 0);
    CHECK(r.err.find("input_stats.sd (offset " + std::to_string(off + 16 + 4 * 9) + "): not a finite number >= 0") !=
          std::string::npos);
    CHECK_FALSE(std::filesystem::exists(tmp.Path("o.rfk")));
  }
  rfk_test::WriteText(tmp.Path("m.rfk"), std::string(reinterpret_cast<const char*>(blob.data()), blob.size()));
  auto r = rfk_test::Run(cli + " convert -m " + tmp.Path("m.rfk") + " --no-metadata -o " + tmp.Path("n.rfk"));
  REQUIRE_MESSAGE(r.status == 0, r.err);
  const std::string written = rfk_test::ReadText(tmp.Path("n.rfk"));
  rfk_test::Blob none(std::vector<std::uint8_t>(written.begin(), written.end()));
  CHECK(none.Entry(input_stats) == 0);
  CHECK(none.Entry(f::SectionType::kMetadata) == 0);
  CHECK(none.Open() == Status::kOk);
  // --fixed-only leaves no float map to re-store or refit: the section goes; --fixed keeps it.
  std::string csv;
  for (std::size_t i = 0; i < train.rows; ++i) {
    for (int c = 0; c < 6; ++c) csv += std::to_string(train.dense[i * 6 + c]) + ",";
    csv += train.labels[i] + "\n";
  }
  rfk_test::WriteText(tmp.Path("t.csv"), csv);
  for (const char* mode : {"--fixed-only", "--fixed"}) {
    CAPTURE(mode);
    r = rfk_test::Run(cli + " convert -m " + tmp.Path("m.rfk") + " " + mode + " --calibrate " + tmp.Path("t.csv") +
                      " -q -o " + tmp.Path("f.rfk"));
    REQUIRE_MESSAGE(r.status == 0, r.err);
    const std::string fixed_bytes = rfk_test::ReadText(tmp.Path("f.rfk"));
    rfk_test::Blob fixed(std::vector<std::uint8_t>(fixed_bytes.begin(), fixed_bytes.end()));
    CHECK(fixed.Open() == Status::kOk);
    CHECK((fixed.Entry(input_stats) == 0) == (std::string(mode) == "--fixed-only"));
  }
}
