# The embedded-model fixtures: real-data models that the device programs (selfcheck.c,
# capi_test.c, the Cortex-M firmware) compile in, each with 32 test vectors and the host's outputs.
# One list for the generator (fixtures/CMakeLists.txt, built on the host) and the consumers.
#   RFK_FIXTURE_<name>: classes?  binning?  then `rfk train` arguments; data paths are relative to
#   ../shared/datasets, and @COVTYPE@ is the Forest Cover split made by bench/covtype_split.sh.
#   gamma and lambda are given: fixtures are fixed models, not rfk's defaults (which may search).
set(RFK_FIXTURES house_pair covtype_phase a9a_hashed a9a_exact house_orf covtype_fastfood house_f16
    house_int8 a9a_f16 covtype_int8 covtype_pair_binary covtype_fastfood_binary house_fastfood
    covtype_fastfood_int8 house_fastfood_f16 house_phase house_impute covtype_small_binary)
# (16, 256): Census house_16H, [cos, sin] pairs, regression.
set(RFK_FIXTURE_house_pair OFF OFF census_house16H/house_16h.csv.gz census_house16H/house_16h.csv.gz
    --map fourier -D 256 --gamma scale --lambda 1e-6)
# (54, 1024): Forest Cover, cos(wx + b), 7 classes one-vs-rest.
set(RFK_FIXTURE_covtype_phase ON OFF @COVTYPE@/covtype.train.csv.gz @COVTYPE@/covtype.test.csv.gz
    --label-col 0 --map fourier-phase -D 1024 --gamma scale --lambda 1e-6)
# Adult a9a, random binning, hashed mode (P = 30 grids x B = 64 buckets), binary.
set(RFK_FIXTURE_a9a_hashed ON ON adult_a9a/a9a.gz adult_a9a/a9a.t.gz --map binning -P 30 -B 64 --gamma scale --lambda 1e-4)
# Adult a9a, random binning, exact mode (sorted keys, binary search), binary.
set(RFK_FIXTURE_a9a_exact ON ON adult_a9a/a9a.gz adult_a9a/a9a.t.gz --map binning -P 10 --gamma scale --lambda 1e-4)
# (16, 256): Census house_16H, orthogonal random features (pairs), regression.
set(RFK_FIXTURE_house_orf OFF OFF census_house16H/house_16h.csv.gz census_house16H/house_16h.csv.gz
    --map orf -D 256 --gamma scale --lambda 1e-6)
# (16, 256): Census house_16H, Fastfood pairs (d' = 16, 8 blocks), regression.
set(RFK_FIXTURE_house_fastfood OFF OFF census_house16H/house_16h.csv.gz census_house16H/house_16h.csv.gz
    --map fastfood -D 256 --gamma scale --lambda 1e-6)
# (54, 1024): Forest Cover, Fastfood pairs (d' = 64, 8 blocks), 7 classes.
set(RFK_FIXTURE_covtype_fastfood ON OFF @COVTYPE@/covtype.train.csv.gz @COVTYPE@/covtype.test.csv.gz
    --label-col 0 --map fastfood -D 1024 --gamma scale --lambda 1e-6)
# Quantized storage (docs/FORMAT.md): W and the head stored as f16 or int8. house_16H's head
# weights exceed f16's range (|w| > 65504), so its f16 head is stored f16-scaled (one power-of-two
# scale per output); a9a's f16 model covers the plain f16 head.
set(RFK_FIXTURE_house_f16 OFF OFF census_house16H/house_16h.csv.gz census_house16H/house_16h.csv.gz
    --map fourier -D 256 --gamma scale --lambda 1e-6 --storage f16)
set(RFK_FIXTURE_a9a_f16 ON OFF adult_a9a/a9a.gz adult_a9a/a9a.t.gz
    --map fourier -D 256 --gamma scale --lambda 1e-4 --storage f16)
set(RFK_FIXTURE_house_int8 OFF OFF census_house16H/house_16h.csv.gz census_house16H/house_16h.csv.gz
    --map fourier -D 256 --gamma scale --lambda 1e-6 --storage int8)
set(RFK_FIXTURE_covtype_int8 ON OFF @COVTYPE@/covtype.train.csv.gz @COVTYPE@/covtype.test.csv.gz
    --label-col 0 --map fourier-phase -D 1024 --gamma scale --lambda 1e-6 --storage int8)
# (54, 1024), binary (Table 1's Forest task, class 2 vs rest): dense pairs and Fastfood pairs side
# by side, the comparison issue 15 sets for a binary model (the 7-class head above is common to
# both maps and hides the map's own cost).
set(RFK_FIXTURE_covtype_pair_binary ON OFF @COVTYPE@/covtype.binary.train.csv.gz
    @COVTYPE@/covtype.binary.test.csv.gz --label-col 0 --map fourier -D 1024 --gamma scale --lambda 1e-6)
set(RFK_FIXTURE_covtype_fastfood_binary ON OFF @COVTYPE@/covtype.binary.train.csv.gz
    @COVTYPE@/covtype.binary.test.csv.gz --label-col 0 --map fastfood -D 1024 --gamma scale --lambda 1e-6)
# Fastfood's diagonals G and S quantized (docs/FORMAT.md, "fastfood"): the binary (54, 1024) model
# all int8 (G, S one scale per block of d' = 64, and the head), and house_16H's with f16 G and S
# and an f16-scaled head (its weights exceed f16's range, as for house_f16).
set(RFK_FIXTURE_covtype_fastfood_int8 ON OFF @COVTYPE@/covtype.binary.train.csv.gz
    @COVTYPE@/covtype.binary.test.csv.gz --label-col 0 --map fastfood -D 1024 --gamma scale --lambda 1e-6
    --storage int8)
set(RFK_FIXTURE_house_fastfood_f16 OFF OFF census_house16H/house_16h.csv.gz census_house16H/house_16h.csv.gz
    --map fastfood -D 256 --gamma scale --lambda 1e-6 --storage f16)
# Small models with one part each that a core configured for house_pair (rfk_core_dense_f32:
# pairs, no impute, no calibration) refuses (tests/embedded/core_variants.c), and every other core
# reads: the cos + phase form; an impute section (--missing mean stores one); a calibration section
# (a classifier's default) and labels. D = 32 keeps them small.
set(RFK_FIXTURE_house_phase OFF OFF census_house16H/house_16h.csv.gz census_house16H/house_16h.csv.gz
    --map fourier-phase -D 32 --gamma scale --lambda 1e-6)
set(RFK_FIXTURE_house_impute OFF OFF census_house16H/house_16h.csv.gz census_house16H/house_16h.csv.gz
    --map fourier -D 32 --gamma scale --lambda 1e-6 --missing mean)
set(RFK_FIXTURE_covtype_small_binary ON OFF @COVTYPE@/covtype.binary.train.csv.gz
    @COVTYPE@/covtype.binary.test.csv.gz --label-col 0 --map fourier -D 32 --gamma scale --lambda 1e-6)
set(RFK_FIXTURE_VECTORS 32)
# Fixtures exported with a pinned core configuration too (`rfk export --config-header <name>_pin.h
# --pin`): the cores pinned to them. house_pair and house_fixed: tests/embedded/core_pinned.c and
# the footprint_pinned tests; the others, one of each kind a pinned core compiles differently
# (Fastfood with int8 weights on the float path, Fastfood on the integer path):
# tests/embedded/pinned_outputs.c and footprint_pinned_<name>.
set(RFK_PINNED_FIXTURES house_pair house_fixed covtype_fastfood_int8 covtype_ff_fixed)
# Fixtures exported with their (unpinned) core configuration too (`rfk export --config-header
# <name>_config.h`), one of each layout of the configured Model (include/rfk/model_layout.h): dense
# f32 (rfk_core_dense_f32 too, lib/CMakeLists.txt, for the footprint and fuzz tests), the integer
# path (dense, Fastfood, binning), Fastfood with int8 weights, float binning.
# tests/embedded/pinned_outputs.c holds each configured core to the host's outputs
# (core_configured_<name>), and bench/firmware_tables.py tabulates their handles and RAM.
set(RFK_CONFIGURED_FIXTURES house_pair house_fixed covtype_fastfood_int8 covtype_ff_fixed a9a_hashed
    a9a_hashed_fixed)
# Those with d <= 64 and D <= 1024: on a board, the RAM one prediction takes with the configured core
# (its handle, the model's scratch and the stack, painted) is held to RFK_CONFIGURED_RAM_BUDGET
# (core_configured_<name>): 1 KiB, and on the Cortex-M55, whose Helium kernels keep more on the
# stack, 1,280 B (covtype_ff_fixed: 1,184 B measured, 2026-12-02). Here rather than in the
# boards' budgets.cmake, which only targets/ sees.
set(RFK_RAM_BOUND_FIXTURES house_pair house_fixed covtype_fastfood_int8 covtype_ff_fixed)
set(RFK_CONFIGURED_RAM_BUDGET 1024)
if(RFK_MCU STREQUAL "cortex-m55")
  set(RFK_CONFIGURED_RAM_BUDGET 1280)
endif()
# The fixtures a board with 16 KiB of RAM and 256 KiB of flash (micro:bit, Cortex-M0) compiles in:
# all but the dense (54, 1024) Forest Cover models, whose 254,816 bytes (f32 phase; 110 KB as
# binary pairs) fill most of that flash and whose int8 copy (62 KB) does not fit beside the others,
# and a9a_f16 (32 KB of weights and 16 KB of test vectors). house_fastfood_f16 (about 4.5 KB with its
# vectors) did not fit beside the others either (flash overflowed by 1,928 B): the M0 runs the int8
# Fastfood model, whose diagonals take the same widening loop (WeightAt) as f16 ones there. With
# Fastfood and binning on the integer path and f16-scaled heads in the core (2026-11-26), selfcheck
# overflowed the flash by 296 B: house_orf left too (an orthogonal W is a dense W to the device:
# the same projection and kernels as house_pair, which stays; every other preset runs it).
set(RFK_SMALL_BOARD_FIXTURES house_pair a9a_hashed a9a_exact covtype_fastfood house_f16
    house_int8 covtype_fastfood_binary house_fastfood covtype_fastfood_int8)
# Fixed-point fixtures (docs/EMBEDDED.md, "The integer path"): a fixture above converted with
# `rfk convert --fixed --calibrate` on its training file; tests/embedded/fixed_check.c checks their
# integers on every target. RFK_FIXED_<name>: the fixture it is converted from, then the convert
# flag. All are fixed-only (no float W or bin grids) but house_both: the (54, 1024) one is 126 KB that
# way, and fits the Cortex-M0's flash beside the small ones in fixed_check and cost_fixed. The a9a
# ones are random binning on the integer path (hashed: P = 30, B = 64; exact: P = 10, the keys
# kept), d = 123. house_both is house_pair with its fixed section (`--fixed`: both paths), which a
# firmware that does not link the integer path opens for rfk_predict (core_variants.c).
set(RFK_FIXED_FIXTURES house_fixed covtype_fixed covtype_ff_fixed a9a_hashed_fixed a9a_exact_fixed house_both)
# The pinned fixtures whose cores are built again for size (RFK_CORE_SMALL: core_pinned_small_<name>,
# footprint_pinned_small_<name>): all of them where the float path's small form differs from the
# default (RFK_CORE_SMALL_FLOAT_DIFFERS, lib/CMakeLists.txt: cores with an FPU), the fixed-point ones alone elsewhere (their computed cosine table is what differs).
set(RFK_PINNED_SMALL_FIXTURES)
foreach(name IN LISTS RFK_PINNED_FIXTURES)
  if(RFK_CORE_SMALL_FLOAT_DIFFERS OR name IN_LIST RFK_FIXED_FIXTURES)
    list(APPEND RFK_PINNED_SMALL_FIXTURES ${name})
  endif()
endforeach()
set(RFK_FIXED_house_fixed house_pair --fixed-only)
set(RFK_FIXED_covtype_fixed covtype_phase --fixed-only)
# The binary (54, 1024) Fastfood model on the integer path (d' = 64, 8 blocks of G, S, Pi, B in
# the section's Fastfood tail): fixed_check's Fastfood fixture, cost_fixed's Fastfood line.
set(RFK_FIXED_covtype_ff_fixed covtype_fastfood_binary --fixed-only)
set(RFK_FIXED_a9a_hashed_fixed a9a_hashed --fixed-only)
set(RFK_FIXED_a9a_exact_fixed a9a_exact --fixed-only)
set(RFK_FIXED_house_both house_pair --fixed)
