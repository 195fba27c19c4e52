#!/usr/bin/env bash
# Strong scaling of `rfk train --mpi` on one machine (docs/PERFORMANCE.md, "Training with MPI"):
# Fashion-MNIST, D = 4000, gamma and lambda given (the bench's), calibration on (the default);
# one process at 1 and 2 threads, then P = 1, 2, 4 ranks of one thread each (beyond the cores:
# --oversubscribe). Prints, over REPEATS runs each (default 3), the median and the range of the
# wall time and the median CPU time (user + system of all ranks: /usr/bin/time on mpirun, whose
# children the ranks are on one machine) of whole processes, reading included; the test error;
# and each model's largest output difference from the one-process model's on the 10,000 test
# rows, relative to the largest output.
#
#   [REPEATS=3] [OUT=docs/PERFORMANCE.md] bench/mpi_scaling.sh [RFK] [DATA] [WORK]
# OUT: the lines go into that page's block mpi_scaling.sh (bench/paper/blocks.py) instead.
set -euo pipefail
RFK=${1:-build/release/bin/rfk}
DATA=${2:-/usr/share/datasets/fashion-mnist}
WORK=${3:-/tmp/rfk-mpi-scaling}
mkdir -p "$WORK"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
TRAIN=(train --train "$DATA/train-images-idx3-ubyte.gz" -D 4000 --gamma 0.000734529 --lambda 1e-6 -q)
TEST="$DATA/t10k-images-idx3-ubyte.gz"

REPEATS=${REPEATS:-3}

run() {  # name, label, command...
  local name=$1 label=$2; shift 2
  : > "$WORK/$name.times"
  for _ in $(seq "$REPEATS"); do
    /usr/bin/time -a -o "$WORK/$name.times" -f "%e %U %S" "$@" -o "$WORK/$name.rfk"
  done
  local times
  times=$(python3 - "$WORK/$name.times" <<'EOF'
import statistics, sys
rows = [[float(v) for v in l.split()] for l in open(sys.argv[1]) if l.strip()]
wall = [r[0] for r in rows]
print("%.1f s (%.1f-%.1f) | %.1f s" % (statistics.median(wall), min(wall), max(wall),
                                       statistics.median(r[1] + r[2] for r in rows)))
EOF
)
  "$RFK" predict -q -m "$WORK/$name.rfk" --scores "$TEST" > "$WORK/$name.scores"
  local err
  err=$("$RFK" eval -m "$WORK/$name.rfk" "$TEST" --json | python3 -c 'import json,sys; print("%.2f %%" % (100 * json.load(sys.stdin)["error_rate"]))')
  local diff
  diff=$(python3 - "$WORK/one-t1.scores" "$WORK/$name.scores" <<'EOF'
import sys
def load(p):
    return [[float(v) for v in l.split("\t")[1:]] for l in open(p).read().strip().split("\n")[1:]]
a, b = load(sys.argv[1]), load(sys.argv[2])
scale = max(abs(v) for r in a for v in r)
print("%.3g" % (max(abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb)) / scale))
EOF
)
  local same=no
  cmp -s "$WORK/one-t1.rfk" "$WORK/$name.rfk" && same=yes
  printf '| %s | %s | %s | %s | %s |\n' "$label" "$times" "$err" "$diff" "$same"
}

table() {
  python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import provenance; print(provenance.line(sys.argv[2]))' \
    "$(dirname "$0")" "${OUT:+OUT=$OUT }REPEATS=$REPEATS bench/mpi_scaling.sh $RFK $DATA $WORK"
  echo
  echo "Load average before: $(cut -d' ' -f1-3 /proc/loadavg). Wall: median (range) of $REPEATS runs; CPU: user + system of all ranks (\`/usr/bin/time\` on \`mpirun\`), median."
  echo
  echo "| run | wall | CPU | test error | largest output difference vs one process (relative) | byte-identical |"
  echo "|---|---|---|---|---|---|"
  run one-t1 "one process, 1 thread" "$RFK" "${TRAIN[@]}" --threads 1
  run one-t2 "one process, 2 threads" "$RFK" "${TRAIN[@]}" --threads 2
  for P in 1 2 4; do
    run "mpi-P$P" "\`--mpi\`, P = $P" mpirun --oversubscribe -np "$P" "$RFK" "${TRAIN[@]}" --mpi --threads 1
  done
  echo
  echo "Load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
}
if [ -n "${OUT:-}" ]; then
  table | python3 "$(dirname "$0")/paper/blocks.py" "$OUT" mpi_scaling.sh
else
  table
fi
