#!/usr/bin/env bash
# The main job (README, first command): installs dependencies and the Fashion-MNIST package,
# builds the libraries and the CLI (preset `main`: Release, no tests or benchmarks), trains a
# Gaussian random-feature model on the 60,000 training images with the rfk CLI, evaluates it on the 10,000 test images, and prints accuracy, model size, training time
# and per-sample prediction latency. Extra arguments go to `rfk train` (e.g. -D 2000).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --data
cmake --preset main >/dev/null
cmake --build --preset main  # the libraries and the rfk CLI only
data=/usr/share/datasets/fashion-mnist
out=build/main/fashion-mnist.rfk
rfk=build/main/bin/rfk

echo "== rfk train: Fashion-MNIST, 60000 training images"
"$rfk" train --train "$data/train-images-idx3-ubyte.gz" -o "$out" \
  --kernel gaussian -D 4000 --lambda 1e-6 "$@" | tee build/main/fashion-mnist.train.txt
echo "== rfk eval: 10000 test images"
"$rfk" eval -m "$out" "$data/t10k-images-idx3-ubyte.gz" | tee build/main/fashion-mnist.eval.txt
echo "== summary"
awk '/^accuracy:/ {printf "accuracy:         %.2f %%\n", 100 * $2}
     /^predict_us_per_sample:/ {printf "predict latency:  %s us per sample (one at a time, device core)\n", $2}
     /^model_bytes:/ {printf "model size:       %.2f MiB (%d bytes)\n", $2 / 1048576, $2}' \
  build/main/fashion-mnist.eval.txt
awk '/^time:/ {print "training time:    " $2 " s (rfk train, wall clock, including reading the data)"}' \
  build/main/fashion-mnist.train.txt
