// Users' files read right or refused (issue 21): each silent wrong result a user met -- R's row
// names, pandas' numeric header, NA labels, an NA in a header-less first row, test columns in
// another order, count targets -- on a fixture the test writes; features-only prediction, missing
// values, eval's metrics, train's --json and --quiet, CLI11's errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli_fixture.h"
#include "test_util.h"

using namespace rfk_test::cli_fixture;

TEST_CASE("R's write.csv row names are dropped with a note, not used as a feature") {
  Fixture f;
  const std::string r = f.Write("r.csv", Csv("\"\",\"x1\",\"x2\",\"x3\",\"Species\"", [](std::size_t i, const Row& w) {
    return "\"" + std::to_string(i + 1) + "\"," + w.x1 + "," + w.x2 + "," + w.x3 + ",\"" + w.label + "\"";
  }));
  const auto t = f.Train(r, "r");
  REQUIRE_MESSAGE(t.status == 0, t.err);
  CHECK(Has(t.out, "150 rows x 3 features"));
  CHECK(Has(t.err, "rfk: note: " + r + ": column 1 has no name in the header: read as row names"));
  const auto keep = f.Train(r, "k", "--index-col keep");
  CHECK(Has(keep.out, "150 rows x 4 features"));
  // Header-less row numbers 1, 2, 3, ... are dropped too.
  const std::string n = f.Write("n.csv", Csv("", [](std::size_t i, const Row& w) { return std::to_string(i + 1) + "," + Plain(i, w); }));
  const auto tn = f.Train(n, "n");
  CHECK(Has(tn.out, "150 rows x 3 features"));
  CHECK(Has(tn.err, "column 1 holds the row numbers 1, 2, 3, ..."));
}

TEST_CASE("pandas' numeric header 0,1,2,... is a header, not a data row and a class") {
  Fixture f;
  const std::string num = f.Write("num.csv", Csv("0,1,2,3", [](std::size_t, const Row& w) {
    return w.x1 + "," + w.x2 + "," + w.x3 + "," + std::to_string(w.label[0] - 'a');
  }));
  const auto t = f.Train(num, "num");
  REQUIRE_MESSAGE(t.status == 0, t.err);
  CHECK(Has(t.out, "150 rows x 3 features"));
  CHECK(Has(t.out, "3 classes"));
  CHECK(Has(t.err, "line 1 holds the column numbers 0, 1, ..., 3"));
  const auto data = f.Train(num, "d", "--no-header");  // asked for: line 1 is data
  CHECK(Has(data.out, "151 rows x 3 features"));
}

TEST_CASE("NA as a label is an error naming file:line, never a class") {
  Fixture f;
  const std::string p = f.Write("na.csv", Csv("x1,x2,x3,y", [](std::size_t i, const Row& w) {
    return w.x1 + "," + w.x2 + "," + w.x3 + "," + (i == 5 ? "NA" : w.label);
  }));
  const auto t = f.Train(p, "na");
  CHECK(t.status == 1);
  CHECK(Has(t.err, "rfk: error: " + p + ":7: column 4 ('y'): missing label 'NA'"));
}

TEST_CASE("an NA in a header-less first row is a missing value, not a header, --missing fills it") {
  Fixture f;
  const std::string p = f.Write("na1.csv", Csv("", [](std::size_t i, const Row& w) {
    return (i == 0 ? std::string("NA") : w.x1) + "," + w.x2 + "," + w.x3 + "," + w.label;
  }));
  const auto refused = f.Train(p, "r");
  CHECK(refused.status == 1);
  CHECK(Has(refused.err, p + ":1: column 1: missing value 'NA' (rfk train --missing mean or median"));
  const auto t = f.Train(p, "m", "--missing median");
  REQUIRE_MESSAGE(t.status == 0, t.err);
  CHECK(Has(t.out, "150 rows x 3 features"));
  CHECK(Has(t.out, "missing:     1 values filled with their column's median"));
  // The model imputes at prediction: the row with NA gets a prediction; a model without the
  // impute section refuses the same file with file:line.
  const auto pr = rfk_test::Run(Cli() + " predict -m " + f.Model("m") + " " + p);
  REQUIRE_MESSAGE(pr.status == 0, pr.err);
  CHECK(std::count(pr.out.begin(), pr.out.end(), '\n') == 150);
  REQUIRE(f.Train(f.Write("full.csv", Csv("", Plain)), "full").status == 0);
  const auto no = rfk_test::Run(Cli() + " predict -m " + f.Model("full") + " " + p);
  CHECK(no.status == 1);
  CHECK(Has(no.err, p + ":1: column 1: missing value 'NA'"));
}

TEST_CASE("a test file with columns in another order is matched by name, a mismatch names the columns") {
  Fixture f;
  const std::string h = f.Write("h.csv", Csv("x1,x2,x3,y", Plain));
  REQUIRE(f.Train(h, "h").status == 0);
  const std::string re = f.Write("re.csv", Csv("x3,y,x1,x2", [](std::size_t, const Row& w) {
    return w.x3 + "," + w.label + "," + w.x1 + "," + w.x2;
  }));
  const auto a = rfk_test::Run(Cli() + " eval --json -m " + f.Model("h") + " " + h);
  const auto b = rfk_test::Run(Cli() + " eval --json -m " + f.Model("h") + " " + re);
  REQUIRE_MESSAGE(b.status == 0, b.err);
  CHECK(JsonNumber(a.out, "accuracy") > 0.8);
  CHECK(JsonNumber(b.out, "accuracy") == JsonNumber(a.out, "accuracy"));
  CHECK(Has(b.err, "columns matched to the model's features by name"));
  const std::string bad = f.Write("bad.csv", Csv("x1,z,x3,y", Plain));
  const auto e = rfk_test::Run(Cli() + " eval -m " + f.Model("h") + " " + bad);
  CHECK(e.status == 1);
  CHECK(Has(e.err, bad + ":1: the header does not match the model's features: missing 'x2'; not among the model's "
                         "features 'z' (the model takes 'x1', 'x2', 'x3')"));
}

TEST_CASE("integer count targets with few rows per value are regression, and the report says why") {
  Fixture f;
  std::string csv = "x,y\n";
  for (int i = 0; i < 54; ++i) csv += std::to_string(i / 54.0) + "," + std::to_string(i / 2 + i % 3) + "\n";
  const auto t = f.Train(f.Write("cnt.csv", csv), "cnt");
  REQUIRE_MESSAGE(t.status == 0, t.err);
  CHECK(Has(t.out, "task:        regression (auto: "));
  CHECK(Has(t.out, "fewer than 5 rows per value: a count or score, not classes"));
  const auto c = f.Train(f.tmp.Path("cnt.csv"), "cls", "--task classification");
  CHECK(Has(c.out, "multi-class classification"));
}

TEST_CASE("rfk predict scores files of features only: with a header, without, and --no-label") {
  Fixture f;
  const std::string h = f.Write("h.csv", Csv("x1,x2,x3,y", Plain));
  REQUIRE(f.Train(h, "h").status == 0);
  const auto want = rfk_test::Run(Cli() + " predict -m " + f.Model("h") + " " + h);
  REQUIRE(want.status == 0);
  const std::string feat = f.Write("f.csv", Csv("x1,x2,x3", [](std::size_t, const Row& w) { return w.x1 + "," + w.x2 + "," + w.x3; }));
  const std::string bare = f.Write("b.csv", Csv("", [](std::size_t, const Row& w) { return w.x1 + "," + w.x2 + "," + w.x3; }));
  for (const std::string& cmd : {" " + feat, " " + bare, " --no-label " + bare}) {
    CAPTURE(cmd);
    const auto p = rfk_test::Run(Cli() + " predict -m " + f.Model("h") + cmd);
    INFO(p.err);
    CHECK(p.status == 0);
    CHECK(p.out == want.out);
  }
  // --no-label on a file whose header still holds the training label column "y" (first here, so
  // the features are matched by name too): that column is skipped with a note, not refused.
  const std::string with_y = f.Write("y.csv", Csv("y,x3,x1,x2", [](std::size_t, const Row& w) {
    return w.label + "," + w.x3 + "," + w.x1 + "," + w.x2;
  }));
  const auto skip = rfk_test::Run(Cli() + " predict --no-label -m " + f.Model("h") + " " + with_y);
  INFO(skip.err);
  CHECK(skip.status == 0);
  CHECK(skip.out == want.out);
  CHECK(Has(skip.err, "column 'y' is the model's label column (--no-label): skipped"));
  // A column that is neither a feature nor the label is still refused.
  const std::string with_z = f.Write("z.csv", Csv("x1,x2,x3,z", Plain));
  const auto z = rfk_test::Run(Cli() + " predict --no-label -m " + f.Model("h") + " " + with_z);
  CHECK(z.status == 1);
  CHECK(Has(z.err, "not among the model's features 'z'"));
  const auto scores = rfk_test::Run(Cli() + " predict --scores -m " + f.Model("h") + " " + feat);
  CHECK(scores.status == 0);
  CHECK(Has(scores.out, "prediction\t"));
  const auto ev = rfk_test::Run(Cli() + " eval -m " + f.Model("h") + " " + bare);  // eval needs labels
  CHECK(ev.status == 1);
  CHECK(Has(ev.err, "there is no label column to evaluate against"));
}

TEST_CASE("eval reports the confusion matrix, per-class metrics, balanced accuracy, ROC AUC, R^2 and MAE") {
  Fixture f;
  const std::string h = f.Write("h.csv", Csv("x1,x2,x3,y", Plain));
  REQUIRE(f.Train(h, "h").status == 0);
  const auto j = rfk_test::Run(Cli() + " eval --json -m " + f.Model("h") + " " + h);
  REQUIRE(j.status == 0);
  INFO(j.out);
  CHECK(Has(j.out, "\"classes\": [\"a\", \"b\", \"c\"], \"confusion\": [["));
  CHECK(Has(j.out, "\"per_class\": [{\"label\": \"a\", \"precision\": "));
  CHECK(JsonNumber(j.out, "majority_rate") == doctest::Approx(1.0 / 3));
  CHECK(JsonNumber(j.out, "balanced_accuracy") == doctest::Approx(JsonNumber(j.out, "accuracy")));  // balanced classes
  const auto text = rfk_test::Run(Cli() + " eval -m " + f.Model("h") + " " + h);
  CHECK(Has(text.out, "confusion (rows: true class, columns: predicted):"));
  CHECK(Has(text.out, "balanced_accuracy:"));
  // Binary: ROC AUC of the decision value.
  const std::string bin = f.Write("bin.csv", Csv("x1,x2,x3,y", [](std::size_t, const Row& w) {
    return w.x1 + "," + w.x2 + "," + w.x3 + "," + (w.label == "a" ? "neg" : "pos");
  }));
  REQUIRE(f.Train(bin, "bin").status == 0);
  const auto jb = rfk_test::Run(Cli() + " eval --json -m " + f.Model("bin") + " " + bin);
  CHECK(JsonNumber(jb.out, "roc_auc") > 0.9);
  CHECK(JsonNumber(jb.out, "roc_auc") <= 1.0);
  // Regression: R^2 and MAE.
  const std::string reg = f.Write("reg.csv", Csv("x1,x2,x3,y", [](std::size_t, const Row& w) {
    return w.x1 + "," + w.x2 + "," + w.x3 + "," + std::to_string(2 * std::atof(w.x1.c_str()) + std::atof(w.x3.c_str()));
  }));
  REQUIRE(f.Train(reg, "reg").status == 0);
  const auto jr = rfk_test::Run(Cli() + " eval --json -m " + f.Model("reg") + " " + reg);
  CHECK(JsonNumber(jr.out, "r2") > 0.9);
  CHECK(JsonNumber(jr.out, "mae") > 0);
  CHECK(JsonNumber(jr.out, "mae") <= JsonNumber(jr.out, "rmse"));
}

TEST_CASE("train --json prints one object, --quiet nothing, CLI11's errors carry rfk's prefix and a hint") {
  Fixture f;
  const std::string h = f.Write("h.csv", Csv("x1,x2,x3,y", Plain));
  const auto j = f.Train(h, "j", "--json --test " + h);
  REQUIRE_MESSAGE(j.status == 0, j.err);
  CHECK(j.out.front() == '{');
  CHECK(j.out.find('\n') == j.out.size() - 1);
  CHECK(Has(j.out, "\"feature_names\": [\"x1\", \"x2\", \"x3\"]"));
  CHECK(Has(j.out, "\"test\": {"));
  CHECK(JsonNumber(j.out, "train_error") < 0.2);
  const auto q = f.Train(h, "q", "--quiet");
  CHECK(q.status == 0);
  CHECK(q.out.empty());
  const auto v = rfk_test::Run(Cli() + " train --train " + h + " -D 64 --gamma auto -o " + f.Model("v"));
  CHECK(Has(v.out, "(--verbose: the grid)"));
  CHECK_FALSE(Has(v.out, "<- chosen"));
  const auto vv = rfk_test::Run(Cli() + " train --train " + h + " -D 64 --gamma auto --verbose -o " + f.Model("v"));
  CHECK(Has(vv.out, "<- chosen"));
  const auto twice = rfk_test::Run(Cli() + " train --train " + h + " --train " + h + " -o " + f.Model("x"));
  CHECK(twice.status == 2);
  CHECK(Has(twice.err, "rfk: error: --train takes one value but was given 2; give it once"));
  CHECK(Has(twice.err, "Run 'rfk train --help' for the options."));
}

TEST_CASE("--class-weight balanced lifts balanced accuracy on an imbalanced set above the majority rule") {
  Fixture f;
  // Class c of the fixture, one row in eight of it kept (7 of 107 rows): the positives.
  std::string text = "x1,x2,x3,y\n";
  const std::vector<Row> rows = Rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const bool pos = rows[i].label == "c";
    if (pos && i % 24 != 2) continue;
    text += rows[i].x1 + "," + rows[i].x2 + "," + rows[i].x3 + "," + (pos ? "pos" : "neg") + "\n";
  }
  const std::string file = f.Write("imbalanced.csv", text);
  const std::string fit = " -D 64 --gamma 0.5 --lambda 1e-1 ";
  // Without calibration the ridge decision is the majority rule here; the calibration's bias
  // (the default) already moves the decision toward the rare class.
  const auto plain = rfk_test::Run(Cli() + " train --train " + file + fit + "--no-calibration -o " + f.Model("plain"));
  REQUIRE(plain.status == 0);
  CHECK(Has(plain.err, "no better than always predicting 'neg'"));  // the warning points at the cure
  CHECK(Has(plain.err, "--class-weight balanced"));
  const auto weighted =
      rfk_test::Run(Cli() + " train --train " + file + fit + "--class-weight balanced -o " + f.Model("weighted"));
  REQUIRE(weighted.status == 0);
  CHECK_FALSE(Has(weighted.err, "no better than always predicting"));
  const auto ep = rfk_test::Run(Cli() + " eval --json -m " + f.Model("plain") + " " + file);
  const auto ew = rfk_test::Run(Cli() + " eval --json -m " + f.Model("weighted") + " " + file);
  INFO(ep.out);
  INFO(ew.out);
  CHECK(JsonNumber(ep.out, "balanced_accuracy") == doctest::Approx(0.5));  // the majority rule
  CHECK(JsonNumber(ew.out, "balanced_accuracy") > 0.8);
  const auto cal = rfk_test::Run(Cli() + " train --train " + file + fit + "-o " + f.Model("calibrated"));
  REQUIRE(cal.status == 0);
  CHECK_FALSE(Has(cal.err, "no better than always predicting"));  // the training error is the decision's
  const auto ec = rfk_test::Run(Cli() + " eval --json -m " + f.Model("calibrated") + " " + file);
  INFO(ec.out);
  CHECK(JsonNumber(ec.out, "balanced_accuracy") > 0.8);
  const auto er = rfk_test::Run(Cli() + " eval --json --decision raw -m " + f.Model("calibrated") + " " + file);
  CHECK(JsonNumber(er.out, "balanced_accuracy") == doctest::Approx(0.5));
  const auto bad = rfk_test::Run(Cli() + " train --train " + file + " --class-weight even -o " + f.Model("x"));
  CHECK(bad.status != 0);
  CHECK(Has(bad.err, "--class-weight must be none or balanced"));
}

namespace {

// The numbers of a --scores table (header dropped), row by row.
std::vector<std::vector<double>> ScoreTable(const std::string& out) {
  std::vector<std::vector<double>> rows;
  std::size_t at = out.find('\n');
  while (at != std::string::npos && at + 1 < out.size()) {
    const std::size_t end = out.find('\n', at + 1);
    const std::string line = out.substr(at + 1, end - at - 1);
    std::vector<double> row;
    for (std::size_t p = line.find('\t'); p != std::string::npos; p = line.find('\t', p + 1))
      row.push_back(std::strtod(line.c_str() + p + 1, nullptr));
    rows.push_back(row);
    at = end;
  }
  return rows;
}

double MaxDiff(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b) {
  double m = a.size() == b.size() ? 0.0 : INFINITY;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    for (std::size_t k = 0; k < a[i].size() && k < b[i].size(); ++k) m = std::max(m, std::fabs(a[i][k] - b[i][k]));
  return m;
}

}  // namespace

TEST_CASE("train --weight-column: a weight of 2 fits as a repeated row, and the column is no feature") {
  Fixture f;
  // Every third row weighs 2 in w.csv and appears twice in dup.csv; one.csv has all weights 1.
  const auto weight = [](std::size_t i) { return i % 3 == 0 ? "2" : "1"; };
  const std::string w = f.Write("w.csv", Csv("x1,x2,w,x3,y", [&](std::size_t i, const Row& r) {
    return r.x1 + "," + r.x2 + "," + weight(i) + "," + r.x3 + "," + r.label;
  }));
  const std::string one = f.Write("one.csv", Csv("x1,x2,w,x3,y", [](std::size_t, const Row& r) {
    return r.x1 + "," + r.x2 + ",1," + r.x3 + "," + r.label;
  }));
  const std::string dup = f.Write("dup.csv", Csv("x1,x2,x3,y", [](std::size_t i, const Row& r) {
    return Plain(i, r) + (i % 3 == 0 ? "\n" + Plain(i, r) : "");
  }));
  const std::string plain = f.Write("plain.csv", Csv("x1,x2,x3,y", Plain));
  const std::string fixed = "--no-standardize --weight-column ";
  const auto tw = f.Train(w, "w", fixed + "w");
  REQUIRE_MESSAGE(tw.status == 0, tw.err);
  CHECK(Has(tw.out, "150 rows x 3 features"));
  CHECK(Has(tw.out, "weights:     from the weight column: sum 200, min 1, max 2\n"));
  REQUIRE(f.Train(w, "wi", fixed + "2").status == 0);   // by index
  REQUIRE(f.Train(w, "wn", fixed + "-3").status == 0);  // from the end
  REQUIRE(f.Train(one, "one", fixed + "w").status == 0);
  REQUIRE(f.Train(dup, "dup", "--no-standardize").status == 0);
  REQUIRE(f.Train(plain, "plain", "--no-standardize").status == 0);
  const auto scores = [&](const std::string& model) {
    const auto p = rfk_test::Run(Cli() + " predict --scores -m " + f.Model(model) + " " + plain);
    REQUIRE_MESSAGE(p.status == 0, p.err);
    return ScoreTable(p.out);
  };
  const auto sw = scores("w"), sdup = scores("dup"), splain = scores("plain");
  REQUIRE(sw.size() == 150);
  REQUIRE(sw[0].size() == 3);
  CHECK(MaxDiff(sw, sdup) < 1e-3);       // weight 2 == the row twice (float32 sums: a tolerance)
  CHECK(MaxDiff(sw, splain) > 1e-2);     // and the weights did change the fit
  CHECK(MaxDiff(scores("one"), splain) < 1e-4);  // weights of 1 change nothing
  CHECK(MaxDiff(scores("wi"), sw) == 0);
  CHECK(MaxDiff(scores("wn"), sw) == 0);
  // --test with the same layout: the weight column is skipped there too.
  const auto tt = f.Train(w, "wt", fixed + "w --test " + w);
  CHECK_MESSAGE(tt.status == 0, tt.err);
  // predict and eval on the training layout: --weight-column skips the column; without it, the
  // column is refused with the hint.
  const auto pw = rfk_test::Run(Cli() + " predict --scores --weight-column w -m " + f.Model("w") + " " + w);
  REQUIRE_MESSAGE(pw.status == 0, pw.err);
  CHECK(MaxDiff(ScoreTable(pw.out), sw) == 0);
  const auto ew = rfk_test::Run(Cli() + " eval --json --weight-column 2 -m " + f.Model("w") + " " + w);
  CHECK_MESSAGE(ew.status == 0, ew.err);
  CHECK(Has(ew.out, "\"n\": 150"));
  const auto pn = rfk_test::Run(Cli() + " predict -m " + f.Model("w") + " " + w);
  CHECK(pn.status != 0);
  CHECK(Has(pn.err, "not among the model's features 'w'"));
  CHECK(Has(pn.err, "--drop-col w skips it (or --weight-column w, if it holds row weights)"));
}

TEST_CASE("train --weight-column refuses bad weights with file:line, and formats without columns") {
  Fixture f;
  const auto with = [&](const std::string& name, const std::string& bad) {
    return f.Write(name, Csv("x1,x2,x3,w,y", [&](std::size_t i, const Row& r) {
      return r.x1 + "," + r.x2 + "," + r.x3 + "," + (i == 7 ? bad : "1") + "," + r.label;
    }));
  };
  for (const auto& [bad, want] : std::vector<std::pair<std::string, std::string>>{
           {"-1", "negative weight '-1'"}, {"NA", "missing weight 'NA'"}, {"", "empty weight"},
           {"inf", "non-finite weight 'inf'"}, {"heavy", "expected a weight (a number >= 0), got 'heavy'"}}) {
    CAPTURE(bad);
    const std::string file = with("bad.csv", bad);
    const auto t = f.Train(file, "bad", "--weight-column w --missing mean");
    CHECK(t.status == 1);
    CHECK(Has(t.err, file + ":9: column 4 ('w'): " + want));
  }
  const std::string ok = with("ok.csv", "1");
  const auto none = f.Train(ok, "x", "--weight-column v");
  CHECK(none.status == 1);
  CHECK(Has(none.err, "no column named 'v' in the header"));
  const auto range = f.Train(ok, "x", "--weight-column 5");
  CHECK(range.status == 1);
  CHECK(Has(range.err, "weight column 5 is out of range for 5 columns"));
  const auto same = f.Train(ok, "x", "--weight-column y --label-col y");
  CHECK(same.status == 1);
  CHECK(Has(same.err, "the weight column is the label column 'y'"));
  const auto same_index = f.Train(ok, "x", "--weight-column 3 --label-col -2");
  CHECK(same_index.status == 1);
  CHECK(Has(same_index.err, "the weight column is the label column"));
  const auto bare = f.Train(f.Write("bare.csv", Csv("", Plain)), "x", "--weight-column w");
  CHECK(bare.status == 1);
  CHECK(Has(bare.err, "names a column, but the file has no header"));
  const std::string svm = f.Write("s.svm", "1 1:0.5 2:1\n-1 1:-0.5 2:0.2\n1 1:0.7\n-1 2:-1\n");
  const auto libsvm = f.Train(svm, "x", "--weight-column 0");
  CHECK(libsvm.status == 1);
  CHECK(Has(libsvm.err, "a weight column (--weight-column) needs a CSV file; this is libsvm"));
}

TEST_CASE("inspect shows the feature names and the impute section, in text (a summary for many columns) and JSON") {
  Fixture f;
  const std::string h = f.Write("h.csv", Csv("x1,x2,x3,y", [](std::size_t i, const Row& w) {
    return (i == 4 ? "NA" : w.x1) + "," + w.x2 + "," + w.x3 + "," + w.label;
  }));
  REQUIRE(f.Train(h, "h", "--missing median").status == 0);
  const auto text = rfk_test::Run(Cli() + " inspect " + f.Model("h"));
  REQUIRE(text.status == 0);
  CHECK(Has(text.out, "feature names:   'x1', 'x2', 'x3'; label column 'y'\n"));
  CHECK(Has(text.out, "impute:          median: x1 = "));
  CHECK(Has(text.out, ", x3 = "));
  const auto json = rfk_test::Run(Cli() + " inspect --json " + f.Model("h"));
  REQUIRE(json.status == 0);
  CHECK(Has(json.out, "\"feature_names\": [\"x1\", \"x2\", \"x3\"], \"label_name\": \"y\""));
  CHECK(Has(json.out, "\"impute\": {\"method\": \"median\", \"values\": ["));
  // The model's x2 value is the median of the column (150 values, x2 never missing).
  std::vector<double> x2;
  for (const Row& r : Rows()) x2.push_back(std::strtod(r.x2.c_str(), nullptr));
  std::sort(x2.begin(), x2.end());
  const std::size_t at = json.out.find("\"values\": [");
  REQUIRE(at != std::string::npos);
  const char* p = json.out.c_str() + at + 11;
  char* end = nullptr;
  std::strtod(p, &end);
  CHECK(std::strtod(end + 2, nullptr) == doctest::Approx((x2[74] + x2[75]) / 2).epsilon(1e-6));
  // Fifteen columns: the first twelve, then how many more (and the range of all impute values:
  // column j holds 10 j + i % 7 for rows i = 0..39 but 3, mean 10 j + 112 / 39).
  std::string wide = "c0";
  for (int j = 1; j < 15; ++j) wide += ",c" + std::to_string(j);
  wide += ",y\n";
  for (int i = 0; i < 40; ++i) {
    for (int j = 0; j < 15; ++j) wide += (i == 3 ? std::string("?") : std::to_string(j * 10 + i % 7)) + ",";
    wide += i % 2 ? "p\n" : "q\n";
  }
  REQUIRE(f.Train(f.Write("wide.csv", wide), "wide", "--missing mean").status == 0);
  const auto w = rfk_test::Run(Cli() + " inspect " + f.Model("wide"));
  CHECK(Has(w.out, "'c10', 'c11' and 3 more; label column 'y'\n"));
  CHECK(Has(w.out, "c11 = 112.871796 and 3 more (all values in [2.87179494, 142.871796])\n"));
  const auto wj = rfk_test::Run(Cli() + " inspect --json " + f.Model("wide"));
  CHECK(Has(wj.out, "\"c12\", \"c13\", \"c14\"]"));
  // A model without names or impute values prints neither.
  const std::string bare = f.Write("bare.csv", Csv("", Plain));
  REQUIRE(f.Train(bare, "bare").status == 0);
  const auto b = rfk_test::Run(Cli() + " inspect " + f.Model("bare"));
  CHECK(!Has(b.out, "feature names:"));
  CHECK(!Has(b.out, "impute:"));
  CHECK(!Has(rfk_test::Run(Cli() + " inspect --json " + f.Model("bare")).out, "\"impute\""));
}
