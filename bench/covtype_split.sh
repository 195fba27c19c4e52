#!/usr/bin/env bash
# Forest Cover (mlpack's 100,000-row covertype-small, ../shared/datasets/covtype) as rfk CSV files:
# the class (1..7) becomes the first column, and a fixed 80/20 split puts every fifth row
# (0-based row index = 4 mod 5) in the test file. The subset is itself a uniform random sample of
# UCI covtype, so a stride split is a random split that anyone can reproduce with awk.
#
# usage: bench/covtype_split.sh OUTDIR   -> OUTDIR/covtype.train.csv.gz (80,000), .test.csv.gz (20,000)
# Train with: rfk train --train OUTDIR/covtype.train.csv.gz --label-col 0 ...
set -euo pipefail
out=${1:?usage: covtype_split.sh OUTDIR}
src="$(cd "$(dirname "$0")/../.." && pwd)/shared/datasets/covtype"
mkdir -p "$out"
paste -d, <(zcat "$src/covertype-small.labels.csv.gz") <(zcat "$src/covertype-small.data.csv.gz") |
  awk -v train="$out/covtype.train.csv" -v test="$out/covtype.test.csv" \
      '{ print > ((NR - 1) % 5 == 4 ? test : train) }'
gzip -nf "$out/covtype.train.csv" "$out/covtype.test.csv"
echo "$out/covtype.train.csv.gz: $(zcat "$out/covtype.train.csv.gz" | wc -l) rows; $out/covtype.test.csv.gz: $(zcat "$out/covtype.test.csv.gz" | wc -l) rows"
