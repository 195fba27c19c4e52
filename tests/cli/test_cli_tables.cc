// Tables as they come (issue 48): the label and the features matched by name wherever a header
// exists (--label-col NAME in eval, predict and train --test, with the test file's columns in
// another order), identifier columns left out, --drop-col / --use-cols, decimal commas, boolean
// columns, and a note for missing values filled in at prediction. Each case on a fixture the
// test writes; each failed (a wrong answer, a misleading message or no note) before issue 48.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "cli_fixture.h"
#include "test_util.h"

using namespace rfk_test::cli_fixture;

namespace {

// The model's feature names as inspect --json lists them: "[\"x1\", \"x3\"]".
std::string FeatureNames(const std::string& model) {
  const auto r = rfk_test::Run(Cli() + " inspect --json " + model);
  const auto at = r.out.find("\"feature_names\": [");
  if (at == std::string::npos) return "";
  return r.out.substr(at + 17, r.out.find(']', at) - at - 16);
}

std::string LabelFirst(std::size_t, const Row& r) { return r.label + "," + r.x1 + "," + r.x2 + "," + r.x3; }
std::string Reordered(std::size_t, const Row& r) { return r.x3 + "," + r.x1 + "," + r.label + "," + r.x2; }

}  // namespace

TEST_CASE("--label-col NAME matches the label and the features by name in eval, predict and train --test") {
  Fixture f;
  const std::string train = f.Write("train.csv", Csv("y,x1,x2,x3", LabelFirst));
  const std::string re = f.Write("re.csv", Csv("x3,x1,y,x2", Reordered));
  REQUIRE(f.Train(train, "m", "--label-col y").status == 0);
  const auto same = rfk_test::Run(Cli() + " eval --json -m " + f.Model("m") + " --label-col y " + train);
  const auto named = rfk_test::Run(Cli() + " eval --json -m " + f.Model("m") + " --label-col y " + re);
  const auto plain = rfk_test::Run(Cli() + " eval --json -m " + f.Model("m") + " " + re);
  REQUIRE_MESSAGE(named.status == 0, named.err);
  CHECK(JsonNumber(same.out, "accuracy") > 0.8);
  // Before issue 48 the named label sent eval down the positional path: x3, x1, x2 were read as
  // x1, x2, x3 (accuracy near chance) under a false "duplicate column names" warning.
  CHECK(JsonNumber(named.out, "accuracy") == JsonNumber(same.out, "accuracy"));
  CHECK(JsonNumber(plain.out, "accuracy") == JsonNumber(same.out, "accuracy"));
  CHECK_FALSE(Has(named.err, "duplicate column names"));
  CHECK(Has(named.err, "columns matched to the model's features by name"));
  // predict: the same labels with and without the reorder.
  const auto p1 = rfk_test::Run(Cli() + " predict -m " + f.Model("m") + " --label-col y " + train);
  const auto p2 = rfk_test::Run(Cli() + " predict -m " + f.Model("m") + " --label-col y " + re);
  REQUIRE(p2.status == 0);
  CHECK(p1.out == p2.out);
  // train --test: the test file read by name too.
  const auto t = f.Train(train, "t", "--label-col y --test " + re + " --json");
  REQUIRE_MESSAGE(t.status == 0, t.err);
  REQUIRE(Has(t.out, "\"test\": {"));
  CHECK(JsonNumber(t.out.substr(t.out.find("\"test\": {")), "accuracy") == JsonNumber(same.out, "accuracy"));
  // A name that is no column is an error naming it.
  const auto bad = rfk_test::Run(Cli() + " eval -m " + f.Model("m") + " --label-col Species " + re);
  CHECK(bad.status == 1);
  CHECK(Has(bad.err, "no column named 'Species' in the header"));
}

TEST_CASE("columns named like row identifiers are left out with a note, and skipped at prediction") {
  Fixture f;
  // A shuffled identifier: 1000 + (37 i mod 150), different on every row.
  const auto with_id = [](const std::string& name) {
    return Csv(name + ",x1,x2,x3,y", [](std::size_t i, const Row& r) {
      return std::to_string(1000 + (37 * i) % 150) + "," + Plain(i, r);
    });
  };
  for (const std::string name : {"Id", "ID", "row_id", "Unnamed: 0", "PassengerId", "patient.id"}) {
    CAPTURE(name);
    const std::string file = f.Write("id.csv", with_id(name));
    const auto r = f.Train(file, "id");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(Has(r.err, "named like a row identifier, not a feature: left out (--index-col keep keeps it)"));
    CHECK(FeatureNames(f.Model("id")) == "[\"x1\", \"x2\", \"x3\"]");
    const auto e = rfk_test::Run(Cli() + " eval --json -m " + f.Model("id") + " " + file);
    REQUIRE_MESSAGE(e.status == 0, e.err);
    CHECK(Has(e.err, "named like a row identifier, not a feature: skipped"));
    CHECK(JsonNumber(e.out, "accuracy") > 0.8);
  }
  // --index-col keep keeps it, and then the model takes it by name.
  const std::string file = f.Write("keep.csv", with_id("Id"));
  REQUIRE(f.Train(file, "keep", "--index-col keep").status == 0);
  CHECK(FeatureNames(f.Model("keep")) == "[\"Id\", \"x1\", \"x2\", \"x3\"]");
  CHECK(rfk_test::Run(Cli() + " eval -m " + f.Model("keep") + " " + file).status == 0);
  // Names that only end in "id" are features.
  const std::string lipid = f.Write("lipid.csv", Csv("lipid,Acid,x3,y", Plain));
  REQUIRE(f.Train(lipid, "lipid").status == 0);
  CHECK(FeatureNames(f.Model("lipid")) == "[\"lipid\", \"Acid\", \"x3\"]");
  // A column of distinct whole numbers under another name: kept, with a warning naming the option.
  const std::string code = f.Write("code.csv", Csv("code,x1,x2,x3,y", [](std::size_t i, const Row& r) {
    return std::to_string(1000 + (37 * i) % 150) + "," + Plain(i, r);
  }));
  const auto c = f.Train(code, "code");
  REQUIRE(c.status == 0);
  CHECK(Has(c.err, "warning: " + code + ": 'code' holds a different whole number on each of its 150 rows, as a row "
                   "identifier would; if it is one, --drop-col code leaves it out of the features"));
  CHECK(FeatureNames(f.Model("code")) == "[\"code\", \"x1\", \"x2\", \"x3\"]");
}

TEST_CASE("--drop-col and --use-cols choose the features by name or index, and the label cannot be dropped") {
  Fixture f;
  const std::string file = f.Write("h.csv", Csv("x1,x2,x3,y", Plain));
  REQUIRE(f.Train(file, "drop", "--drop-col x2").status == 0);
  CHECK(FeatureNames(f.Model("drop")) == "[\"x1\", \"x3\"]");
  REQUIRE(f.Train(file, "drop1", "--drop-col 1").status == 0);
  CHECK(rfk_test::ReadText(f.Model("drop1")) == rfk_test::ReadText(f.Model("drop")));
  REQUIRE(f.Train(file, "use", "--use-cols x3,x1").status == 0);
  CHECK(FeatureNames(f.Model("use")) == "[\"x1\", \"x3\"]");
  // The file with the dropped column: eval skips it when told, and the error says how.
  const auto miss = rfk_test::Run(Cli() + " eval -m " + f.Model("drop") + " " + file);
  CHECK(miss.status == 1);
  CHECK(Has(miss.err, "not among the model's features 'x2'"));
  CHECK(Has(miss.err, "--drop-col x2 skips it"));
  const auto e = rfk_test::Run(Cli() + " eval --json -m " + f.Model("drop") + " --drop-col x2 " + file);
  REQUIRE_MESSAGE(e.status == 0, e.err);
  CHECK(JsonNumber(e.out, "accuracy") > 0.8);
  // A positional label counts the columns as the file has them.
  const std::string first = f.Write("first.csv", Csv("y,x1,x2,x3", LabelFirst));
  REQUIRE(f.Train(first, "pos", "--label-col 0 --drop-col 2").status == 0);
  CHECK(FeatureNames(f.Model("pos")) == "[\"x1\", \"x3\"]");
  // Refusals name what is wrong.
  const auto label = f.Train(file, "x", "--drop-col y");
  CHECK(label.status == 1);
  CHECK(Has(label.err, "--drop-col y is the label column (the last; --label-col names another)"));
  const auto none = f.Train(file, "x", "--drop-col z");
  CHECK(none.status == 1);
  CHECK(Has(none.err, "--drop-col: no column named 'z' in the header (columns: 'x1', 'x2', 'x3', 'y')"));
  const auto both = f.Train(file, "x", "--drop-col x1 --use-cols x2");
  CHECK(both.status == 1);
  CHECK(Has(both.err, "--drop-col and --use-cols exclude each other"));
}

TEST_CASE("decimal commas are detected in semicolon-separated files, with or without a header, or --decimal") {
  Fixture f;
  const auto comma = [](const std::string& sep) {
    return [sep](std::size_t i, const Row& r) {
      std::string s = Plain(i, r);
      for (char& c : s) c = c == '.' ? '#' : c;
      std::string out;
      for (char c : s) out += c == ',' ? sep : c == '#' ? std::string(",") : std::string(1, c);
      return out;
    };
  };
  const std::string point = f.Write("point.csv", Csv("", Plain));
  REQUIRE(f.Train(point, "point").status == 0);
  for (const std::string header : {"", "x1;x2;x3;y"}) {
    CAPTURE(header);
    const std::string file = f.Write("eu.csv", Csv(header, comma(";")));
    const auto r = f.Train(file, "eu");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(Has(r.err, "numbers are written with a decimal comma ('2,5' is 2.5), fields separated by ';'"));
    if (header.empty()) CHECK(rfk_test::ReadText(f.Model("eu")) == rfk_test::ReadText(f.Model("point")));
    const auto e = rfk_test::Run(Cli() + " eval --json -m " + f.Model("point") + " " + file);
    REQUIRE_MESSAGE(e.status == 0, e.err);
    CHECK(JsonNumber(e.out, "accuracy") > 0.8);
  }
  const std::string tab = f.Write("tab.tsv", Csv("", comma("\t")));
  REQUIRE(f.Train(tab, "tab", "--decimal ,").status == 0);
  CHECK(rfk_test::ReadText(f.Model("tab")) == rfk_test::ReadText(f.Model("point")));
  // --decimal . refuses them with the hint.
  const std::string eu = f.Write("eu2.csv", Csv("x1;x2;x3;y", comma(";")));
  const auto no = f.Train(eu, "x", "--decimal .");
  CHECK(no.status == 1);
  CHECK(Has(no.err, "(a decimal comma? --decimal , reads 2,5 as 2.5)"));
}

TEST_CASE("boolean columns are 0/1 features, and TRUE in a header-less first row is data") {
  Fixture f;
  const auto flag = [](std::size_t i, const Row& r) {
    return std::string(r.label == "a" ? (i % 2 ? "TRUE" : "True") : (i % 2 ? "FALSE" : "false")) + "," + Plain(i, r);
  };
  const auto numeric = [](std::size_t i, const Row& r) {
    return std::string(r.label == "a" ? "1" : "0") + "," + Plain(i, r);
  };
  const std::string b = f.Write("b.csv", Csv("", flag));
  const std::string n = f.Write("n.csv", Csv("", numeric));
  const auto r = f.Train(b, "b");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  REQUIRE(f.Train(n, "n").status == 0);
  CHECK(rfk_test::ReadText(f.Model("b")) == rfk_test::ReadText(f.Model("n")));
}

TEST_CASE("missing values filled in at prediction are counted in a note") {
  Fixture f;
  const std::string file = f.Write("h.csv", Csv("x1,x2,x3,y", Plain));
  REQUIRE(f.Train(file, "m", "--missing median").status == 0);
  const std::string na = f.Write("na.csv", Csv("x1,x2,x3,y", [](std::size_t i, const Row& r) {
    return (i == 3 ? std::string("NA") : r.x1) + "," + (i == 7 ? std::string("") : r.x2) + "," + r.x3 + "," + r.label;
  }));
  const auto e = rfk_test::Run(Cli() + " eval -m " + f.Model("m") + " " + na);
  REQUIRE_MESSAGE(e.status == 0, e.err);
  CHECK(Has(e.err, "rfk: note: " + na + ": 2 missing values filled in with the model's stored median of each column"));
}

TEST_CASE("a table of fewer rows than features selects in the dual, with the model the primal selection gives") {
  Fixture f;
  const std::string file = f.Write("h.csv", Csv("x1,x2,x3,y", Plain));
  // D = 300 features for 150 rows (the primal selection's D x D solves kept short for the debug and
  // sanitizer builds), gamma and lambda cross-validated as by default.
  const auto dual = rfk_test::Run(Cli() + " train --train " + file + " -D 300 --json -o " + f.Model("dual"));
  REQUIRE_MESSAGE(dual.status == 0, dual.err);
  CHECK(Has(dual.out, "\"selection_dual\": true"));
  // A memory limit that leaves no room for the rows' features and kernel matrix (150 x (12 D + 24
  // n) bytes, which the estimate counts) keeps the selection in the primal: the same point, the
  // same model bytes.
  const double dual_bytes = 150.0 * (12.0 * 300 + 24.0 * 150), estimate = JsonNumber(dual.out, "memory_estimate");
  REQUIRE(estimate > dual_bytes);
  const long limit = static_cast<long>(estimate - dual_bytes / 2);
  const auto primal = rfk_test::Run(Cli() + " train --train " + file + " -D 300 --json --memory-limit " +
                                    std::to_string(limit) + " -o " + f.Model("primal"));
  REQUIRE_MESSAGE(primal.status == 0, primal.err);
  CHECK(Has(primal.out, "\"selection_dual\": false"));
  CHECK(JsonNumber(primal.out, "gamma") == JsonNumber(dual.out, "gamma"));
  CHECK(JsonNumber(primal.out, "lambda") == JsonNumber(dual.out, "lambda"));
  CHECK(rfk_test::ReadText(f.Model("primal")) == rfk_test::ReadText(f.Model("dual")));
}

TEST_CASE("a decimal-comma file with an identifier column streams to the model read whole gives") {
  Fixture f;
  // Header-less too: later chunks take the separator and the decimal mark the first one found.
  for (const std::string header : {"", "Id;x1;x2;x3;y"}) {
    CAPTURE(header);
    const std::string file = f.Write("eu.csv", Csv(header, [&header](std::size_t i, const Row& r) {
      std::string s = (header.empty() ? "" : std::to_string(1000 + (37 * i) % 150) + ";") + r.x1 + ";" + r.x2 +
                      ";" + r.x3 + ";" + r.label;
      for (char& c : s) c = c == '.' ? ',' : c;
      return s;
    }));
    REQUIRE(f.Train(file, "whole").status == 0);
    const auto st = f.Train(file, "streamed", "--stream --chunk 512");
    REQUIRE_MESSAGE(st.status == 0, st.err);
    CHECK(rfk_test::ReadText(f.Model("streamed")) == rfk_test::ReadText(f.Model("whole")));
    if (!header.empty()) CHECK(FeatureNames(f.Model("streamed")) == "[\"x1\", \"x2\", \"x3\"]");
  }
}

TEST_CASE("a text column is one-hot encoded by name in training, and read back by those names at prediction") {
  Fixture f;
  static const char* const kColors[] = {"red", "green", "blue"};
  // The colour tells the class apart on two rows in three; x1 and x3 do the rest.
  const auto colour = [](std::size_t i, const Row& r) {
    return std::string(kColors[i % 3 == 0 ? (i / 3) % 3 : static_cast<std::size_t>(r.label[0] - 'a')]);
  };
  const std::string file = f.Write("c.csv", Csv("x1,colour,x2,x3,y", [&](std::size_t i, const Row& r) {
    return r.x1 + "," + colour(i, r) + "," + r.x2 + "," + r.x3 + "," + r.label;
  }));
  const auto t = f.Train(file, "c");
  REQUIRE_MESSAGE(t.status == 0, t.err);
  CHECK(Has(t.err, "column 'colour' holds text: one-hot encoded as 3 features ('blue', 'green', 'red')"));
  CHECK(FeatureNames(f.Model("c")) == "[\"x1\", \"colour=blue\", \"colour=green\", \"colour=red\", \"x2\", \"x3\"]");
  // Another order, a colour never seen in training, and a missing one (filled: --missing).
  const std::string re = f.Write("re.csv", Csv("y,x3,colour,x2,x1", [&](std::size_t i, const Row& r) {
    return r.label + "," + r.x3 + "," + (i == 4 ? std::string("purple") : colour(i, r)) + "," + r.x2 + "," + r.x1;
  }));
  const auto same = rfk_test::Run(Cli() + " eval --json -m " + f.Model("c") + " " + file);
  const auto e = rfk_test::Run(Cli() + " eval --json -m " + f.Model("c") + " " + re);
  REQUIRE_MESSAGE(e.status == 0, e.err);
  CHECK(JsonNumber(same.out, "accuracy") > 0.8);
  CHECK(std::fabs(JsonNumber(e.out, "accuracy") - JsonNumber(same.out, "accuracy")) <= 1.0 / 150);
  CHECK(Has(e.err, "1 row of column 'colour' held a category no training row held: all its features 0"));
  const std::string na = f.Write("na.csv", Csv("x1,colour,x2,x3,y", [&](std::size_t i, const Row& r) {
    return r.x1 + "," + (i == 2 ? std::string("NA") : colour(i, r)) + "," + r.x2 + "," + r.x3 + "," + r.label;
  }));
  REQUIRE(f.Train(na, "na", "--missing median").status == 0);
  CHECK(rfk_test::Run(Cli() + " eval -m " + f.Model("na") + " " + na).status == 0);
  // Refusals: text in a column named like the label, too many texts, no header, --stream.
  const std::string sp = f.Write("sp.csv", Csv("Species,x1,x2,x3", [](std::size_t, const Row& r) {
    return r.label + "," + r.x1 + "," + r.x2 + "," + r.x3;
  }));
  const auto s = f.Train(sp, "x");
  CHECK(s.status == 1);
  CHECK(Has(s.err, "in a column named like a label, while the label is the last column: --label-col Species"));
  const std::string many = f.Write("many.csv", Csv("name,x1,x2,x3,y", [](std::size_t i, const Row& r) {
    return "n" + std::to_string(i) + "," + Plain(i, r);
  }));
  const auto m = f.Train(many, "x");
  CHECK(m.status == 1);
  CHECK(Has(m.err, "column 'name' holds 150 different texts, more than the 100 a categorical column may have"));
  CHECK(Has(m.err, "--drop-col name leaves it out"));
  const std::string bare = f.Write("bare.csv", Csv("", [&](std::size_t i, const Row& r) {
    return r.x1 + "," + r.x2 + ",z" + std::to_string(i % 2) + "," + r.label;
  }));
  const auto b = f.Train(bare, "x", "--no-header");
  CHECK(b.status == 1);
  CHECK(Has(b.err, "a column of categories holds text from its first data row on, in a file with a header read "
                   "whole, not with --stream"));
  const auto st = f.Train(file, "x", "--stream");
  CHECK(st.status == 1);
  CHECK(Has(st.err, "a column of categories holds text from its first data row on"));
}
