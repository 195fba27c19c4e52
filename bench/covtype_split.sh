#!/usr/bin/env bash
# Forest Cover (mlpack's 100,000-row covertype-small, ../shared/datasets/covtype) as rfk CSV files:
# the class (1..7) becomes the first column, and a fixed 80/20 split puts every fifth row
# (0-based row index = 4 mod 5) in the test file. The subset is itself a uniform random sample of
# UCI covtype, so a stride split is a random split that anyone can reproduce with awk.
# The same rows again as the binary task of Table 1 (LIBSVM's covtype.binary: class 2 is +1, every
# other class -1; bench/paper/convert.py's split) in covtype.binary.{train,test}.csv.gz.
#
# usage: bench/covtype_split.sh OUTDIR   -> OUTDIR/covtype.train.csv.gz (80,000), .test.csv.gz (20,000),
#                                           OUTDIR/covtype.binary.train.csv.gz, .binary.test.csv.gz
# Train with: rfk train --train OUTDIR/covtype.train.csv.gz --label-col 0 ...
set -euo pipefail
out=${1:?usage: covtype_split.sh OUTDIR}
src="$(cd "$(dirname "$0")/../.." && pwd)/shared/datasets/covtype"
mkdir -p "$out"
paste -d, <(zcat "$src/covertype-small.labels.csv.gz") <(zcat "$src/covertype-small.data.csv.gz") |
  awk -F, -v OFS=, -v train="$out/covtype.train.csv" -v test="$out/covtype.test.csv" \
      -v btrain="$out/covtype.binary.train.csv" -v btest="$out/covtype.binary.test.csv" \
      '{ t = (NR - 1) % 5 == 4; print > (t ? test : train)
         $1 = ($1 == 2 ? 1 : -1); print > (t ? btest : btrain) }'
gzip -nf "$out/covtype.train.csv" "$out/covtype.test.csv" "$out/covtype.binary.train.csv" \
  "$out/covtype.binary.test.csv"
echo "$out/covtype.train.csv.gz: $(zcat "$out/covtype.train.csv.gz" | wc -l) rows; $out/covtype.test.csv.gz: $(zcat "$out/covtype.test.csv.gz" | wc -l) rows (and .binary)"
