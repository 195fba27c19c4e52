#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_targets.h) with clang-14
# (-fsanitize=fuzzer,address,undefined; the core's and the host library's objects compiled once,
# on every core, and shared), then runs them as many at once as there are cores (each fuzzer on
# one core) for a bounded time on a seed corpus of real inputs, and prints executions and coverage
# per target.
#   scripts/fuzz.sh [seconds per target, default 60] [target ...]
#   targets: model model_dense model_fixed model_pinned model_configured capi libsvm csv idx train
#   convert (default: all). CI's short run: scripts/fuzz.sh 15. model_dense is fuzz_model on the
#   core `rfk export --config-header` configures for a dense f32 model
#   (tests/embedded/house_pair_config.h: pairs, f32, no Fastfood, binning, integer path, impute or
#   calibration): every other kind must be refused at open, never misread. model_fixed is
#   fuzz_model on a core configured for the integer path alone (tests/fuzz/fixed_only_config.h),
#   whose Model has none of the float path's members. model_pinned is fuzz_model on a core pinned
#   to one seed model (`--pin`): it must open that model alone and refuse every other input.
#   model_configured is fuzz_model on seven configured cores in one binary
#   (tests/fuzz/configured_cores.cc), each configured from a seed model of another kind: Fastfood
#   int8, hashed binning, Fastfood f16 beside binning, and on the integer path dense, Fastfood,
#   exact binning and Fourier beside hashed binning. Each must open its own seed (checked before
#   fuzzing) and refuse the kinds it was not built for. Its findings, committed under
#   tests/fuzz/regressions/model_configured/, are replayed as seeds by every run of the target.
# Seeds: models trained by the rfk CLI, small slices of ../shared/datasets (when present; nothing
# is copied into the repository), hand-made inputs for every format and element type, and the
# committed regression inputs. Corpora grow in build/fuzz/corpus/<target> across runs.
# Exit status: non-zero if any target found a crash, leak, timeout or invariant violation; the
# input is in build/fuzz/artifacts/<target>/ -- fix the library, then commit the input under
# tests/fuzz/regressions/<target>/ (tests/core/test_fuzz_regressions.cc replays it).
set -euo pipefail
# The whole script is one brace group, parsed before it runs: editing the file during a long run
# cannot change what the running shell executes.
{
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(model model_dense model_fixed model_pinned model_configured capi libsvm csv idx train convert)
case "$secs" in '' | *[!0-9]*) echo "fuzz.sh: seconds must be a positive integer" >&2; exit 2 ;; esac

scripts/install-deps.sh --fuzz

out=build/fuzz
shared=../shared/datasets
mkdir -p "$out/logs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Line tables only (-gline-tables-only): a finding's stack trace keeps its files, lines and inlined
# frames, and the objects compile about a quarter faster than with -g (add -g here to debug one).
cxx=(clang++-14 -std=c++17 -O1 -gline-tables-only -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
     -ffp-contract=off -Iinclude -Itests/fuzz)
core=(lib/core/*.cc)  # the device core is every source in lib/core (scalar table only)

# Writes stdin to seeds/<target>/<name> (skipped when empty).
seed() {
  local f="$tmp/seeds/$1/$2"
  mkdir -p "$tmp/seeds/$1"
  cat > "$f"
  [ -s "$f" ] || rm -f "$f"
}
# Lines [from, to] of a gzip'd dataset in ../shared, if it is there.
slice() {
  [ -f "$shared/$1" ] || return 0
  { gzip -dc "$shared/$1" 2>/dev/null || true; } | sed -n "$2,$3p"
}
# Big-endian 32-bit integer as raw bytes.
be32() { printf "\\x$(printf %02x $(($1 >> 24 & 255)))\\x$(printf %02x $(($1 >> 16 & 255)))\\x$(printf %02x $(($1 >> 8 & 255)))\\x$(printf %02x $(($1 & 255)))"; }

seeds_model() {
  [ -f "$tmp/seeds/model.done" ] && return 0  # once per run: the model-reading targets share them
  cmake --preset release >/dev/null && cmake --build --preset release --target rfk >/dev/null
  local rfk=build/release/bin/rfk i=0 args data
  awk 'BEGIN { srand(7); for (i = 0; i < 120; i++) { a = rand() * 4; b = rand() * 4;
    printf "%.4f,%.4f,%s\n", a, b, (int(a) + int(b)) % 2 ? "odd" : "even" } }' > "$tmp/c.csv"
  awk 'BEGIN { srand(8); for (i = 0; i < 120; i++) { a = rand(); printf "%.4f,%.4f,%d\n", a, rand(), i % 3 } }' > "$tmp/m.csv"
  awk 'BEGIN { srand(9); for (i = 0; i < 120; i++) { a = rand(); printf "%.4f,%.4f\n", a, a * a } }' > "$tmp/r.csv"
  mkdir -p "$tmp/seeds/model"
  for args in "-D 16" "-D 16 --map fourier-phase" "--map binning -P 4" "--map binning -P 4 -B 8" \
              "--map fourier+binning -D 8 -P 3" "-D 8 --kernel laplacian --no-standardize" \
              "-D 16 --map orf" "-D 16 --map qmc-phase" "-D 24 --map fastfood" \
              "--map fastfood-phase+binning -D 5 -P 3"; do
    for data in c m r; do
      # shellcheck disable=SC2086
      "$rfk" train --train "$tmp/$data.csv" $args -o "$tmp/seeds/model/seed$i.rfk" >/dev/null
      i=$((i + 1))
    done
  done
  # The classifiers above with Fourier-type maps carry a calibration section (train's default);
  # one binary model without it, beside them.
  "$rfk" train --train "$tmp/c.csv" -D 16 --no-calibration -o "$tmp/seeds/model/seed-no-calibration.rfk" >/dev/null
  # The optional input sections: feature_names (a header) and impute (--missing), in both forms.
  { echo 'p q,r,label'; sed '2s/^[^,]*/NA/' "$tmp/c.csv"; } > "$tmp/h.csv"
  "$rfk" train --train "$tmp/h.csv" -D 16 --missing median -o "$tmp/seeds/model/seed-names-impute.rfk" >/dev/null
  "$rfk" train --train "$tmp/h.csv" --map binning -P 4 --missing mean --no-standardize \
    -o "$tmp/seeds/model/seed-names-impute-binning.rfk" >/dev/null
  # Quantized storage (f16, int8 W and head, with scales), in both forms, with binning, row by row;
  # the Fourier-only ones carry an f16 standardize section (the table entry's storage word).
  "$rfk" train --train "$tmp/m.csv" -D 16 --storage int8 -o "$tmp/seeds/model/seed-int8.rfk" >/dev/null
  "$rfk" train --train "$tmp/c.csv" -D 16 --map fourier-phase --storage f16 -o "$tmp/seeds/model/seed-f16.rfk" >/dev/null
  "$rfk" train --train "$tmp/r.csv" --map orf+binning -D 8 -P 3 --storage f16 --head-storage int8 \
    -o "$tmp/seeds/model/seed-f16-int8-binning.rfk" >/dev/null
  # Fastfood's G and S quantized too (int8: one scale per block of d'), and f16 beside binning.
  "$rfk" train --train "$tmp/c.csv" -D 24 --map fastfood --storage int8 -o "$tmp/seeds/model/seed-fastfood-int8.rfk" >/dev/null
  "$rfk" train --train "$tmp/m.csv" --map fastfood-phase+binning -D 5 -P 3 --storage f16 \
    -o "$tmp/seeds/model/seed-fastfood-f16-binning.rfk" >/dev/null
  # f16-scaled heads (an f16 head whose weights pass 65504: one f32 scale per output), Fourier
  # alone and with binning (whose bin columns widen their weights one by one), the first trained
  # without its metadata section (train --no-metadata).
  awk 'BEGIN { srand(10); for (i = 0; i < 120; i++) { a = rand(); printf "%.4f,%.4f,%.1f\n", a, rand(), 1e7 * a * a } }' \
    > "$tmp/big.csv"
  "$rfk" train --train "$tmp/big.csv" -D 16 --lambda 1e-9 --storage f16 --no-metadata -q \
    -o "$tmp/seeds/model/seed-f16-scaled.rfk"
  "$rfk" train --train "$tmp/big.csv" --map fourier+binning -D 8 -P 3 --lambda 1e-9 --storage f16 -q \
    -o "$tmp/seeds/model/seed-f16-scaled-binning.rfk"
  # Fixed-point models (a fixed section): phase form binary, pair form multiclass, from int8 W.
  "$rfk" convert -m "$tmp/seeds/model/seed-f16.rfk" --fixed --calibrate "$tmp/c.csv" -q \
    -o "$tmp/seeds/model/seed-fixed-phase.rfk" 2>/dev/null
  "$rfk" convert -m "$tmp/seeds/model/seed-int8.rfk" --fixed --calibrate "$tmp/m.csv" -q \
    -o "$tmp/seeds/model/seed-fixed-int8.rfk" 2>/dev/null
  # Fastfood on the integer path (the fixed section's Fastfood tail): pairs fixed-only (no fastfood
  # section), int8 G and S beside their integers, and the phase form multiclass.
  "$rfk" convert -m "$tmp/seeds/model/seed-fastfood-int8.rfk" --fixed-only --calibrate "$tmp/c.csv" -q \
    -o "$tmp/seeds/model/seed-fixed-fastfood-only.rfk" 2>/dev/null
  "$rfk" convert -m "$tmp/seeds/model/seed-fastfood-int8.rfk" --fixed --calibrate "$tmp/c.csv" -q \
    -o "$tmp/seeds/model/seed-fixed-fastfood-int8.rfk" 2>/dev/null
  "$rfk" train --train "$tmp/m.csv" -D 12 --map fastfood-phase -o "$tmp/fastfood-phase.rfk" >/dev/null
  "$rfk" convert -m "$tmp/fastfood-phase.rfk" --fixed-only --calibrate "$tmp/m.csv" -q \
    -o "$tmp/seeds/model/seed-fixed-fastfood-phase.rfk" 2>/dev/null
  # Binning on the integer path (the fixed section's binning tail): exact mode alone, fixed-only
  # (no bin_grids); hashed mode beside a Fourier map, with the float sections kept.
  "$rfk" convert -m "$tmp/seeds/model/seed6.rfk" --fixed-only --calibrate "$tmp/c.csv" -q \
    -o "$tmp/seeds/model/seed-fixed-binning-exact.rfk" 2>/dev/null
  "$rfk" train --train "$tmp/m.csv" --map fourier+binning -D 8 -P 3 -B 8 -o "$tmp/binned.rfk" >/dev/null
  "$rfk" convert -m "$tmp/binned.rfk" --fixed --calibrate "$tmp/m.csv" -q \
    -o "$tmp/seeds/model/seed-fixed-fourier-binning-hashed.rfk" 2>/dev/null
  # Without the optional metadata section (rfk convert --no-metadata).
  "$rfk" convert -m "$tmp/seeds/model/seed-fastfood-int8.rfk" --no-metadata -q \
    -o "$tmp/seeds/model/seed-fastfood-int8-no-metadata.rfk" 2>/dev/null
  touch "$tmp/seeds/model.done"
}

# The C API reads the same models; bytes after a model become the inputs it predicts.
seeds_model_dense() {
  seeds_model
  mkdir -p "$tmp/seeds/model_dense"
  cp "$tmp/seeds/model/"* "$tmp/seeds/model_dense/" 2>/dev/null || true
}

seeds_model_fixed() {
  seeds_model
  mkdir -p "$tmp/seeds/model_fixed"
  cp "$tmp/seeds/model/"* "$tmp/seeds/model_fixed/" 2>/dev/null || true
}

seeds_model_configured() {
  seeds_model
  mkdir -p "$tmp/seeds/model_configured"
  cp "$tmp/seeds/model/"* "$tmp/seeds/model_configured/" 2>/dev/null || true
}

seeds_model_pinned() {
  seeds_model
  mkdir -p "$tmp/seeds/model_pinned"
  cp "$tmp/seeds/model/"* "$tmp/seeds/model_pinned/" 2>/dev/null || true
}

seeds_capi() {
  seeds_model
  mkdir -p "$tmp/seeds/capi"
  local f
  for f in "$tmp"/seeds/model/*.rfk; do
    cp "$f" "$tmp/seeds/capi/"
    { cat "$f"; printf '\x00\x00\xc0\x7f\x00\x00\x80\x7f\xff\xff\x7f\x7f'; } > "$tmp/seeds/capi/$(basename "$f" .rfk)-nan-inf-max"
  done
}

seeds_libsvm() {
  slice adult_a9a/a9a.gz 1 20 | seed libsvm a9a-head
  slice adult_a9a/a9a.gz 20000 20030 | seed libsvm a9a-mid
  slice adult_a9a/a9a.t.gz 1 20 | seed libsvm a9a-t-head
  printf '# comment\n+1 1:0.5 3:-2e-3 7:1e30 # tail\n\n-1 qid:3 2:1 4:.25\r\n0.5\n' | seed libsvm handmade
  printf '1 1:1 2:2\n2 3:3\n-1.5e2 10:-0\n+1 4294967295:1\n' | seed libsvm indices
}

seeds_csv() {
  slice census_house16H/house_16h.csv.gz 1 12 | seed csv house16h-head
  slice covtype/covertype-small.data.csv.gz 1 8 | seed csv covtype-head
  slice kddcup99/kddcup.data_10_percent.gz 1 8 | seed csv kddcup-head
  slice adult_uci/adult.data.gz 1 10 | seed csv adult-head
  slice adult_uci/adult.test.gz 1 10 | seed csv adult-test-head
  slice cpu_act/cpu_small.arff.gz 1 60 | seed csv cpu-small-arff
  printf '\xef\xbb\xbfa;b;"c d";y\r\n1;2,5;3;x\r\n"4";" 5 ";6;"q ""r"""\r\n\n7;8;9;x\n' | seed csv semicolons
  printf 'x1\tx2\tlabel\n1e-40\t-3.4e38\tA\n0x10\tinf\tB\n1\t2\n' | seed csv tabs
  printf '1,2,3,4,5\n1.5,2.5,3.5,4.5,y\n' | seed csv numeric-header
  printf '"","a","b","y"\n"1",NA,2,x\n"2",3,?,y\n' | seed csv r-row-names-na
  printf 'y,a,w,b\nx,1,2,3\nz,4,0.5,NA\nx,7,-1,9\n' | seed csv weights-label-first
  printf '0,1,2\n5,6,x\n7,8,y\n' | seed csv pandas-header
  printf 'a b  y\n1 2 x\n 3   4 y\n' | seed csv blanks
}

seeds_idx() {
  # MNIST-shaped: 3 images of 2x3 unsigned bytes, then their 3 labels.
  { printf '\x00\x00\x08\x03'; be32 3; be32 2; be32 3; printf '\x00\x01\x02\x03\x04\xff\x10\x20\x30\x40\x50\x60\x07\x07\x07\x07\x07\x07'
    printf '\x00\x00\x08\x01'; be32 3; printf '\x09\x00\x03'; } | seed idx ubyte
  { printf '\x00\x00\x0b\x02'; be32 2; be32 2; printf '\x00\x01\xff\xff\x80\x00\x7f\xff'
    printf '\x00\x00\x0c\x01'; be32 2; be32 7; be32 4294967295; } | seed idx int16-int32
  { printf '\x00\x00\x0d\x02'; be32 1; be32 2; printf '\x3f\x80\x00\x00\xc0\x00\x00\x00'
    printf '\x00\x00\x0e\x01'; be32 1; printf '\x3f\xf0\x00\x00\x00\x00\x00\x00'; } | seed idx float-double
  { printf '\x00\x00\x09\x04'; be32 2; be32 1; be32 2; be32 1; printf '\x01\x80\x7f\x00'
    printf '\x00\x00\x0d\x01'; be32 2; printf '\x40\x00\x00\x00\xbf\x80\x00\x00'; } | seed idx int8-4d
}

# rfk convert without data: the model seeds (those of Fourier-type maps scaled without centring
# carry the host's input_stats section), built again if the model target did not run first.
seeds_convert() {
  [ -d "$tmp/seeds/model" ] || seeds_model
  mkdir -p "$tmp/seeds/convert"
  cp "$tmp/seeds/model"/* "$tmp/seeds/convert/"
}

# Training: one options byte (see tests/fuzz/fuzz_train.cc) + small data, for several options.
seeds_train() {
  local sel
  for sel in 0 1 2 3 6 9 18 35 64 131; do
    { printf "\\x$(printf %02x $sel)"; slice census_house16H/house_16h.csv.gz 1 40 | cut -d, -f1-3,17; } | seed train "house-$sel"
    { printf "\\x$(printf %02x $sel)"; slice adult_a9a/a9a.gz 1 30; } | seed train "a9a-$sel"
    { printf "\\x$(printf %02x $sel)"; printf 'x,y,c\n1,2,a\n2,1,b\n3,3,a\n0,1,c\n1e30,0,b\n-2,5,c\n'; } | seed train "tiny-$sel"
  done
}

# Objects shared by the targets, each compiled once and on every core: the core (model, capi,
# train, convert) and the host library (train, convert; its data readers for libsvm, csv, idx).
host_flags=(-DEIGEN_DONT_VECTORIZE -isystem /usr/include/eigen3 -Ilib/host -Ilib)
obj_flags=()  # objects()'s extra compiler flags (a configured core's), empty unless a target sets them
objects() {  # NAME SOURCE...: compiles the sources into $out/obj/NAME (once), listing the objects in objs
  local name=$1 src pending=0
  shift
  objs=()
  for src in "$@"; do objs+=("$out/obj/$name/$(basename "$src" .cc).o"); done
  [ -f "$out/obj/$name.done" ] && return 0
  rm -rf "$out/obj/$name"
  mkdir -p "$out/obj/$name"
  for src in "$@"; do
    "${cxx[@]}" "${host_flags[@]}" "${obj_flags[@]}" -c "$src" -o "$out/obj/$name/$(basename "$src" .cc).o" &
    pending=$((pending + 1))
    if [ "$pending" -ge "$(nproc)" ]; then wait -n; pending=$((pending - 1)); fi
  done
  while [ "$pending" -gt 0 ]; do wait -n; pending=$((pending - 1)); done
  touch "$out/obj/$name.done"
}
rm -rf "$out/obj"  # objects of an earlier run may be of other sources

build_target() {
  local t=$1 entry core_objs
  objects core "${core[@]}"
  core_objs=("${objs[@]}")
  case $t in
    model) "${cxx[@]}" -DRFK_FUZZ_ENTRY=Model tests/fuzz/fuzz_model.cc "${core_objs[@]}" -o "$out/fuzz_$t" ;;
    model_dense | model_fixed)  # a configured core: its own objects of the core's sources
      local config=tests/embedded/house_pair_config.h
      [ "$t" = model_fixed ] && config=tests/fuzz/fixed_only_config.h
      obj_flags=("-DRFK_CONFIG_HEADER=\"$PWD/$config\"")
      objects "core_$t" "${core[@]}"
      "${cxx[@]}" -DRFK_FUZZ_ENTRY=Model "${obj_flags[@]}" tests/fuzz/fuzz_model.cc "${objs[@]}" -o "$out/fuzz_$t"
      obj_flags=() ;;
    model_pinned)  # a core pinned to the first seed model (rfk export --pin), its own objects
      seeds_model
      build/release/bin/rfk export -m "$tmp/seeds/model/seed0.rfk" --c-header "$tmp/pinned.h" --name pinned \
        --config-header "$tmp/pin.h" --pin 2>/dev/null
      printf '#include "%s"\n' "$tmp/pinned.h" > "$tmp/pinned_array.cc"  # the array the pinned core reads
      obj_flags=("-DRFK_CONFIG_HEADER=\"$tmp/pin.h\"")
      objects core_pinned "${core[@]}"
      "${cxx[@]}" -DRFK_FUZZ_ENTRY=Model "${obj_flags[@]}" tests/fuzz/fuzz_model.cc "$tmp/pinned_array.cc" \
        "${objs[@]}" -o "$out/fuzz_$t"
      obj_flags=() ;;
    model_configured)  # the cores `rfk export --config-header` configures for seed models of other kinds
      seeds_model
      local n=0 seed cfg_objs=() list="" paths=""
      for seed in seed-fastfood-int8 seed9 seed-fastfood-f16-binning seed-fixed-int8 seed-fixed-fastfood-only \
                  seed-fixed-binning-exact seed-fixed-fourier-binning-hashed; do
        n=$((n + 1))
        build/release/bin/rfk export -m "$tmp/seeds/model/$seed.rfk" --c-header "$tmp/cfg$n-model.h" --name "cfg$n" \
          --config-header "$tmp/cfg$n.h" 2>/dev/null
        # Renamed namespaces: the cores link side by side (tests/fuzz/configured_cores.cc); the C
        # API's sources stay out (their names are C's). With the core's warnings as errors: GCC
        # builds the configured cores everywhere else, and Clang warns where it does not.
        obj_flags=("-DRFK_CONFIG_HEADER=\"$tmp/cfg$n.h\"" -Drfk=rfk_cfg$n -Drfk_fuzz=rfk_fuzz_cfg$n
                   -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror)
        objects "core_cfg$n" $(printf '%s\n' "${core[@]}" | grep -v -e capi.cc -e fixed_codes.cc) tests/fuzz/fuzz_model.cc
        cfg_objs+=("${objs[@]}")
        list+=" X($n)"
        paths+="${paths:+:}$tmp/seeds/model/$seed.rfk"
      done
      export RFK_FUZZ_CONFIG_SEEDS=$paths  # each core must open its own (configured_cores.cc)
      obj_flags=()
      "${cxx[@]}" "-DRFK_FUZZ_CONFIGS(X)=$list" tests/fuzz/configured_cores.cc "${cfg_objs[@]}" -o "$out/fuzz_$t" ;;
    capi) "${cxx[@]}" -DRFK_FUZZ_ENTRY=CApi tests/fuzz/fuzz_capi.cc "${core_objs[@]}" -o "$out/fuzz_$t" ;;
    libsvm | csv | idx)
      entry=$(printf '%s' "${t:0:1}" | tr a-z A-Z)${t:1}
      objects host lib/host/*/*.cc
      "${cxx[@]}" -DRFK_FUZZ_ENTRY=$entry tests/fuzz/fuzz_data.cc $(printf '%s\n' "${objs[@]}" | grep '/data[^/]*\.o$') \
        -lz -o "$out/fuzz_$t" ;;
    train | convert)  # the whole host library, scalar kernels only; Eigen's scalar path as in the CMake build
      entry=$(printf '%s' "${t:0:1}" | tr a-z A-Z)${t:1}
      objects host lib/host/*/*.cc
      "${cxx[@]}" "${host_flags[@]}" -DRFK_FUZZ_ENTRY=$entry "tests/fuzz/fuzz_$t.cc" "${objs[@]}" "${core_objs[@]}" \
        -lopenblas -lz -pthread -o "$out/fuzz_$t" ;;
    *) echo "fuzz.sh: unknown target '$t' (model, model_dense, model_fixed, model_pinned, model_configured, capi, libsvm, csv, idx, train, convert)" >&2; exit 2 ;;
  esac
}

declare -A max_len=([model]=65536 [model_dense]=65536 [model_fixed]=65536 [model_pinned]=65536 [model_configured]=65536 [capi]=65536 [libsvm]=8192 [csv]=8192 [idx]=16384 [train]=4096 [convert]=65536)
for t in "${targets[@]}"; do
  echo "== $t: building" >&2
  build_target "$t"
  "seeds_$t"
  mkdir -p "$out/corpus/$t" "$out/artifacts/$t" "$tmp/seeds/$t"
  [ -d "tests/fuzz/regressions/$t" ] && cp tests/fuzz/regressions/"$t"/* "$tmp/seeds/$t/" 2>/dev/null || true
done

# TARGET: one bounded run; its exit status goes to $tmp/rc.TARGET, its output to its log.
fuzz_one() {
  local t=$1 rc=0
  echo "== $t: fuzzing for ${secs}s" >&2
  "$out/fuzz_$t" -max_total_time="$secs" -max_len="${max_len[$t]}" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$out/artifacts/$t/" \
    "$out/corpus/$t" "$tmp/seeds/$t" > "$out/logs/$t.log" 2>&1 || rc=$?
  echo "$rc" > "$tmp/rc.$t"
}
running=0
for t in "${targets[@]}"; do
  fuzz_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$(nproc)" ]; then wait -n || true; running=$((running - 1)); fi
done
wait

status=0
report=()
for t in "${targets[@]}"; do
  log="$out/logs/$t.log"
  rc=$(cat "$tmp/rc.$t" 2>/dev/null || echo missing)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$done_line")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$done_line")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<< "$done_line")
  if [ "$rc" != 0 ]; then
    status=1
    grep -E "ERROR|SUMMARY|invariant|Test unit written|uncaught" "$log" | head -20 >&2 || true
    result="FAILED (exit $rc; log $log)"
  else
    result=ok
  fi
  report+=("$(printf '%-7s %6ss %12s %8s %8s %8s  %s' "$t" "$secs" "${execs:--}" "${cov:--}" "${ft:--}" "${corp:--}" "$result")")
done
printf '%-7s %7s %12s %8s %8s %8s  %s\n' target time execs cov ft corpus result
printf '%s\n' "${report[@]}"
exit $status
}
