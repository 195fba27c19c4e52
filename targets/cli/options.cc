// The data-reading options the subcommands share.
#include <cstdlib>

#include <CLI/CLI.hpp>

#include "cli.hpp"

namespace rfk::cli {

namespace {

// --sep: one character (not a quote or a line break), or the names tab, space, whitespace.
char ParseSep(const std::string& sep) {
  if (sep.empty()) return 0;
  if (sep == "tab" || sep == "\\t") return '\t';
  if (sep == "space" || sep == "whitespace" || sep == " ") return ' ';
  if (sep.size() == 1 && sep[0] != '"' && sep[0] != '\n' && sep[0] != '\r') return sep[0];
  throw CliError("--sep must be one character, 'tab' or 'space'; got '" + sep + "'");
}

}  // namespace

host::ReadOptions DataArgs::Options() const {
  host::ReadOptions o;
  o.format = host::ParseDataFormat(format);
  if (!label_col.empty()) {
    char* end = nullptr;
    const long v = std::strtol(label_col.c_str(), &end, 10);
    if (end == label_col.c_str() + label_col.size() && v >= -(1L << 24) && v < (1L << 24))
      o.label_col = static_cast<int>(v);
    else
      o.label_name = label_col;
  }
  o.idx_labels = idx_labels;
  o.csv_header = header ? 1 : no_header ? 0 : -1;
  o.csv_sep = ParseSep(sep);
  if (index_col == "auto") o.index_col = host::IndexColumn::kAuto;
  else if (index_col == "keep") o.index_col = host::IndexColumn::kKeep;
  else if (index_col == "drop") o.index_col = host::IndexColumn::kDrop;
  else throw CliError("--index-col must be auto, keep or drop; got '" + index_col + "'");
  o.weight_column = weight_column;
  if (decimal == "." || decimal == ",") o.csv_decimal = decimal[0];
  else if (!decimal.empty()) throw CliError("--decimal must be '.' or ','; got '" + decimal + "'");
  o.drop_cols = drop_cols;
  o.use_cols = use_cols;
  if (!drop_cols.empty() && !use_cols.empty()) throw CliError("--drop-col and --use-cols exclude each other: give one");
  return o;
}

void DataArgs::Add(CLI::App* app) {
  app->add_option("--format", format, "Input format: auto, libsvm, csv or idx")->capture_default_str();
  app->add_option("--label-col", label_col,
                  "CSV label column: a 0-based index (negative from the end) or a header name (default: the last)");
  app->add_option("--idx-labels", idx_labels, "idx labels file (default: derived from the images file name)");
  CLI::Option* h = app->add_flag("--header", header, "CSV: the first line is a header (default: detected)");
  app->add_flag("--no-header", no_header, "CSV: the first line is data (default: detected)")->excludes(h);
  app->add_option("--sep", sep, "CSV field separator: one character, 'tab' or 'space' (runs of blanks); default: detected");
  app->add_option("--index-col", index_col,
                  "CSV leading index column (R row names, pandas index) and identifier columns: auto (drop an "
                  "index column when unnamed or the row numbers, and columns named like identifiers: id, ID, "
                  "row_id, PassengerId, 'Unnamed: 0', ...), keep, drop (the first column)")
      ->capture_default_str();
  app->add_option("--decimal", decimal,
                  "CSV decimal mark: '.' or ',' (default: detected; ',' needs a separator other than ',')");
  app->add_option("--drop-col", drop_cols,
                  "CSV columns to leave out of the features, by header name or 0-based index (repeat, or "
                  "separate with commas)")
      ->delimiter(',');
  app->add_option("--use-cols", use_cols,
                  "CSV: the only feature columns, by header name or 0-based index (repeat, or separate with "
                  "commas); the label and weight columns need not be listed")
      ->delimiter(',');
}

void DataArgs::AddWeightColumn(CLI::App* app, bool fit) {
  app->add_option("--weight-column", weight_column,
                  fit ? "CSV column of row weights (numbers >= 0; a weight of 2 counts a row twice), by header name "
                        "or 0-based index (negative from the end); taken out of the features, skipped in the --test "
                        "file"
                      : "CSV column of row weights (as given to train --weight-column), by header name or 0-based "
                        "index (negative from the end): skipped, the file is read as without it");
}

void AddDecisionOption(CLI::App* cmd, Decision* decision) {
  cmd->add_option("--decision", *decision,
                  "How a classifier's class is decided: 'calibrated' (default: with the model's calibration "
                  "section, the most probable class, the argmax of --proba, as rfk_decide_class decides on a "
                  "device) or 'raw' (the sign / first maximum of the raw outputs, rfk_decide_class_raw)")
      ->transform(CLI::CheckedTransformer(std::map<std::string, Decision>{{"calibrated", Decision::kCalibrated},
                                                                          {"raw", Decision::kRaw}}));
}

}  // namespace rfk::cli
