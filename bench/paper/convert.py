#!/usr/bin/python3
"""Turns the paper's datasets (../shared/datasets, or $RFK_DATASETS) into rfk training/test files, with fixed splits.

Standard library only (the CI test runs it on a machine without numpy). Output files are written
to OUT (never into the repository) and atomically (temporary name, then rename).

| name   | source                                   | task                         | split (train / test)          | format |
|--------|------------------------------------------|------------------------------|-------------------------------|--------|
| cpu    | cpu_act/cpu_act.arff.gz (8192 x 21)      | regression, target `usr`     | 6,500 / 1,692, hash order     | CSV, target last |
| census | census_house16H/house_16h.csv.gz (22784 x 16) | regression, target `y`  | 18,000 / 4,784, hash order    | CSV, target last |
| adult  | adult_a9a/a9a.gz, a9a.t.gz (123 binary)  | binary, -1 / +1              | LIBSVM's own 32,561 / 16,281  | LIBSVM (copied only when subsampled) |
| forest | covtype/covertype-small (100000 x 54)    | binary: class 2 (+1) vs rest (-1) | 80,000 / 20,000: row index = 4 mod 5 is test (as bench/covtype_split.sh) | CSV, label last |
| kdd    | kddcup99/kddcup.data_10_percent.gz (494021 x 41) | binary: normal. (-1) vs any attack (+1) | 395,216 / 98,805 (80/20), hash order | LIBSVM, 118 columns: 38 numeric + one-hot protocol (3), service (66), flag (11) |

"Hash order": rows are sorted by sha256("<name>:<seed>:<row index>") and the first n_train of that
order are the training rows; both files keep the source's row order. The seed is 2007 unless
--seed says otherwise. --max-train/--max-test keep the first rows of the same hash order (of each
split), a uniform random subsample, for the fast CI subset.

usage: convert.py --out DIR [--max-train N] [--max-test N] [--seed S] [name ...]
Prints one JSON object: per dataset its files, rows, columns, task and split.
"""
import argparse
import gzip
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# $RFK_DATASETS, else ../shared/datasets beside the checkout (a worktree elsewhere sets the variable).
DATASETS = os.environ.get("RFK_DATASETS") or os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "datasets"))
NAMES = ["cpu", "census", "adult", "forest", "kdd"]


class ConvertError(Exception):
    pass


def hash_order(name, seed, n):
    key = lambda i: hashlib.sha256(f"{name}:{seed}:{i}".encode()).digest()
    return sorted(range(n), key=key)


def write_atomic(path, lines):
    tmp = path + ".tmp"
    with gzip.open(tmp, "wt", compresslevel=3, newline="\n") as f:
        for line in lines:
            f.write(line)
            f.write("\n")
    os.replace(tmp, path)


def read_arff(path):
    """Numeric ARFF rows (lists of field strings); checks the field count against @attribute."""
    rows, attrs, in_data = [], 0, False
    with gzip.open(path, "rt") as f:
        for no, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("%"):
                continue
            low = s.lower()
            if not in_data:
                if low.startswith("@attribute"):
                    attrs += 1
                elif low.startswith("@data"):
                    in_data = True
                continue
            fields = [x.strip() for x in s.split(",")]
            if len(fields) != attrs:
                raise ConvertError(f"{path}:{no}: {len(fields)} fields, the header declares {attrs}")
            for x in fields:
                try:
                    float(x)
                except ValueError:
                    raise ConvertError(f"{path}:{no}: field '{x}' is not a number")
            rows.append(fields)
    return rows


def read_csv(path, header):
    rows, width = [], None
    with gzip.open(path, "rt") as f:
        for no, line in enumerate(f, 1):
            if header and no == 1:
                continue
            s = line.strip()
            if not s:
                continue
            fields = s.split(",")
            if width is None:
                width = len(fields)
            if len(fields) != width:
                raise ConvertError(f"{path}:{no}: {len(fields)} fields, expected {width}")
            rows.append(fields)
    return rows


def split_rows(name, seed, n, n_train, max_train, max_test, test_of=None):
    """(train indices, test indices), each in source order after subsampling in hash order."""
    order = hash_order(name, seed, n)
    if test_of is not None:  # a fixed rule decides the split; hash order only subsamples
        train = [i for i in order if not test_of(i)]
        test = [i for i in order if test_of(i)]
    else:
        train, test = order[:n_train], order[n_train:]
    if max_train:
        train = train[:max_train]
    if max_test:
        test = test[:max_test]
    return sorted(train), sorted(test)


def convert_dense(name, rows, n_train, label_of, out, seed, max_train, max_test, test_of=None):
    tr, te = split_rows(name, seed, len(rows), n_train, max_train, max_test, test_of)
    files = {}
    for part, idx in (("train", tr), ("test", te)):
        path = os.path.join(out, f"{name}.{part}.csv.gz")
        write_atomic(path, (",".join(rows[i][:-1] + [label_of(rows[i][-1])]) for i in idx))
        files[part] = path
    return files, len(tr), len(te), len(rows[0]) - 1


def cpu(out, seed, mt, ms):
    rows = read_arff(os.path.join(DATASETS, "cpu_act", "cpu_act.arff.gz"))
    if len(rows) != 8192:
        raise ConvertError(f"cpu_act: {len(rows)} rows, expected 8192")
    f, a, b, d = convert_dense("cpu", rows, 6500, lambda y: y, out, seed, mt, ms)
    return dict(files=f, train_rows=a, test_rows=b, dims=d, task="regression",
                split="6,500 / 1,692, hash order")


def census(out, seed, mt, ms):
    rows = read_csv(os.path.join(DATASETS, "census_house16H", "house_16h.csv.gz"), header=True)
    if len(rows) != 22784:
        raise ConvertError(f"house_16h: {len(rows)} rows, expected 22784")
    f, a, b, d = convert_dense("census", rows, 18000, lambda y: y, out, seed, mt, ms)
    return dict(files=f, train_rows=a, test_rows=b, dims=d, task="regression",
                split="18,000 / 4,784, hash order")


def forest(out, seed, mt, ms):
    src = os.path.join(DATASETS, "covtype")
    data = read_csv(os.path.join(src, "covertype-small.data.csv.gz"), header=False)
    labels = read_csv(os.path.join(src, "covertype-small.labels.csv.gz"), header=False)
    if len(data) != 100000 or len(labels) != len(data):
        raise ConvertError(f"covtype: {len(data)} data rows and {len(labels)} labels, expected 100000")
    rows = [x + l for x, l in zip(data, labels)]
    f, a, b, d = convert_dense("forest", rows, None, lambda y: "1" if y == "2" else "-1", out, seed,
                               mt, ms, test_of=lambda i: i % 5 == 4)
    return dict(files=f, train_rows=a, test_rows=b, dims=d, task="binary: class 2 (+1) vs rest (-1)",
                split="80,000 / 20,000: every fifth row (index 4 mod 5) is a test row")


def adult(out, seed, mt, ms):
    src = os.path.join(DATASETS, "adult_a9a")
    files = {"train": os.path.join(src, "a9a.gz"), "test": os.path.join(src, "a9a.t.gz")}
    counts = {}
    for part, cap in (("train", mt), ("test", ms)):
        with gzip.open(files[part], "rt") as f:
            lines = [l.rstrip("\n") for l in f if l.strip()]
        counts[part] = len(lines)
        if cap and cap < len(lines):
            order = hash_order("adult-" + part, seed, len(lines))
            keep = sorted(order[:cap])
            path = os.path.join(out, f"adult.{part}.svm.gz")
            write_atomic(path, (lines[i] for i in keep))
            files[part] = path
            counts[part] = cap
    return dict(files=files, train_rows=counts["train"], test_rows=counts["test"], dims=123,
                task="binary (-1 / +1)", split="LIBSVM's a9a / a9a.t (32,561 / 16,281)")


KDD_CATEGORICAL = (1, 2, 3)  # protocol_type, service, flag (0-based field index)


def kdd(out, seed, mt, ms):
    path = os.path.join(DATASETS, "kddcup99", "kddcup.data_10_percent.gz")
    rows = read_csv(path, header=False)
    if len(rows) != 494021 or len(rows[0]) != 42:
        raise ConvertError(f"{path}: {len(rows)} rows x {len(rows[0])} fields, expected 494021 x 42")
    values = {c: sorted({r[c] for r in rows}) for c in KDD_CATEGORICAL}
    numeric = [c for c in range(41) if c not in KDD_CATEGORICAL]
    # Columns (1-based LIBSVM indices): the 38 numeric fields in file order, then each categorical
    # field's values in sorted order.
    col = {}
    nxt = len(numeric) + 1
    for c in KDD_CATEGORICAL:
        for v in values[c]:
            col[(c, v)] = nxt
            nxt += 1
    dims = nxt - 1

    def line(r):
        feats = []
        for k, c in enumerate(numeric, 1):
            x = r[c]
            if float(x) != 0.0:
                feats.append((k, x))
        feats += sorted((col[(c, r[c])], "1") for c in KDD_CATEGORICAL)
        feats.sort()
        if feats[-1][0] != dims:  # name the last column on every row: every file then has d = 118
            feats.append((dims, "0"))
        lab = "-1" if r[41] == "normal." else "1"
        return lab + " " + " ".join(f"{k}:{v}" for k, v in feats)

    n_train = 395216  # floor(0.8 * 494021)
    tr, te = split_rows("kdd", seed, len(rows), n_train, mt, ms)
    files = {}
    for part, idx in (("train", tr), ("test", te)):
        p = os.path.join(out, f"kdd.{part}.svm.gz")
        write_atomic(p, (line(rows[i]) for i in idx))
        files[part] = p
    return dict(files=files, train_rows=len(tr), test_rows=len(te), dims=dims,
                task="binary: normal (-1) vs attack (+1)", split="395,216 / 98,805 (80 / 20), hash order")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=2007)
    ap.add_argument("--max-train", type=int, default=0)
    ap.add_argument("--max-test", type=int, default=0)
    ap.add_argument("names", nargs="*", default=NAMES)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    fns = dict(cpu=cpu, census=census, adult=adult, forest=forest, kdd=kdd)
    result = {}
    try:
        for name in a.names:
            if name not in fns:
                raise ConvertError(f"unknown dataset '{name}' (expected {', '.join(NAMES)})")
            result[name] = fns[name](a.out, a.seed, a.max_train, a.max_test)
    except (ConvertError, OSError) as e:
        print(f"convert.py: error: {e}", file=sys.stderr)
        return 1
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
