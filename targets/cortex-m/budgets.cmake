# Recorded footprint budgets of the inference core per Cortex-M target (docs/EMBEDDED.md has the
# measurements they come from). The `footprint` test fails when the core outgrows them: raise a
# budget only with a reason in the commit message.
#   FLASH: bytes of code + read-only data the core adds to an image (libm excluded, libgcc included)
#   STACK: bytes, worst case over the call graph from rfk_open and rfk_predict (static analysis)
# Measured 2026-11-23 with Debian 12's arm-none-eabi-gcc 12.2, MinSizeRel (-Os), every map and
# section (before quantized storage): M4F and M7 9,112 B flash, M3 (soft float) 10,668 B
# including libgcc's float emulation; worst-case stack 432 B (rfk_predict), M3 556 B. Before this wave's maps and input sections the
# core was 7,420 B (M4F), inside the 8 KiB design goal; the impute and feature_names sections
# (their validators and the NaN substitution) added about 500 B, Fastfood about 1.2 KB (its
# section's validator with the permutation check ~0.6 KB, FastfoodFeatures 364 B, FwhtRef 84 B).
# Quantized storage (f16/int8 W and head: weight validator, QuantDot, head paths) then added about
# 1.6 KB: M4F 10,692 B, M7 10,756 B, M3 12,280 B; stack 448 B, M3 564 B.
# The calibration section (issue 21) then added its validator to OpenModel: M4F 10,992 B (+300),
# M7 11,056 B (+300), M3 12,884 B (+604, more of libgcc's float emulation); rfk_open's static stack
# bound read 624 B (M3 616 B). rfk_probabilities itself (Platt/softmax and a polynomial exp, no
# libm) is linked only by firmware that calls it: about 572 B more on the M4F (symbol sizes).
# The calibration's monotone methods (2026-11-24: platt-cubic, softmax-vector; the section's size
# now follows its method and K, and each parameter's sign is checked) added 248 B on the M4F and
# M7 (11,240 B), 208 B on the M3 (13,092 B); rfk_open's stack bound fell back to 400 B (M3 392 B).
# The hard-float cores' scalar table then took register-blocked loops (2026-11-26, issue 15): the
# Walsh-Hadamard transform three stages per pass, Fastfood's sign flips a byte of B at a time and
# the head's dot products four terms per iteration -- Fastfood (54, 1024) 145,740 -> 109,745
# instructions on the M4F, the dense 7-class model 256,662 -> 245,980 -- for 384 B: M4F and M7
# 11,624 B, M33 11,636 B. The soft-float cores keep the plain loops (RFK_CORE_PLAIN_LOOPS), unchanged.
# Fastfood's diagonals G and S in f16 or int8 (issue 16, 2026-11-26) then added: the validator's
# storage-dependent sizes and the diagonals' checks (OpenModel +120 B net on the M4F), WeightAt out
# of line (+140 B, Predict -92 B) and, on the cores with an FPU, one widening loop per storage
# (an out-of-line WeightAt per entry made the all-int8 (54, 1024) binary model 118,025 instead of
# 97,530 instructions on the M4F, for 128 B): M4F 12,200 B (+568), M7 12,136 B (+504), M33
# 12,200 B (+560); the soft-float cores share one WeightAt loop for every storage: M3 and M33
# without FPU 13,392 B (+296), M0 16,236 B (+356). Stack: M4F 480 B, M3 556 B, M0 632 B.
# Budgets: those plus about 150 B. Getting a minimal build back under 8 KiB means leaving unused
# maps and sections out at compile time (not done yet).
# f16 standardisation and Fastfood's packed permutation indices (issue 16, 2026-11-26, footprint
# test of each preset): the standardize section's storage word and checks (CheckStandardize
# 116 B, its finite check 76 B on the M4F), the StandardizeF16 scalar kernel (68 B) and its
# dispatch, FastfoodScale out of line (the f32 gather no longer fuses G: the indices are unpacked
# first, 210 B), the validators' shared checks moved to model_open_arrays.cc (about +100 B:
# no cross-file inlining) and, on the cores with an FPU, HalfToFloat always inlined (+256 B: with
# a fifth caller GCC had stopped inlining it, and the f16 models became 8-10 % dearer):
# M4F 12,740 B (+540), M7 12,676 B (+540), M33 12,732 B (+532); soft float (HalfToFloat out of
# line): M3 and M33 without FPU 13,800 B (+408), M0 16,604 B (+368). Stack bounds (rfk_predict,
# rfk_open): M4F 488 B, 448 B; M3 572 B; M0 648 B, 504 B (a pointer for the f16 vectors in Model
# had taken it past 256 B on 32-bit cores and OpenModel's frame from 304 to 544 B: Model holds
# their offset instead).
# Both (merge of issues 16 and 17, measured 2026-11-26 16:00 UTC, `ctest -R footprint -V`): the
# whole core holds the fixed validator and the f16 standardisation: M4F and M7 13,920 B, M33
# 13,944 B, M3 and M33 without FPU 15,020 B, M0 18,100 B; stack 488 B (M4F, M7, M33), 572 B (M3,
# M33 without FPU), 648 B (M0). Float-only: M4F, M7, M33 12,744 B; M3, M33 without FPU 13,828 B;
# M0 16,632 B. Fixed-only: M4F 7,168 B, M7 7,104 B, M3 7,144 B, M33 7,156 B, M33 without FPU
# 7,160 B, M0 8,208 B. Budgets: about 100 B over.
# 2026-11-26 18:03 UTC, Fastfood on the integer path (RFK_FIXED_FASTFOOD) in the whole core:
# M4F 15,068 B (+1,148 B), M7 15,004 B (+1,084), M3 and M33 without FPU 16,120 B (+1,100), M33
# 15,052 B (+1,108); the M0's below. The fixed-only core is built without it (unchanged).
set(RFK_STACK_BUDGET_cortex-m4 768)
set(RFK_STACK_BUDGET_cortex-m7 768)

# Binning on the integer path (issue 17, 2026-11-26 18:23-18:30 UTC, `ctest -R footprint -V`, 2-core
# AMD EPYC VM shared with two other builds; fixed_predict_binning.cc, fixed_open_binning.cc): whole core
# M4F 14,464 B (+544), M7 14,400 B (+480), M33 14,440 B (+496), M3 and M33 without FPU 15,508 B
# (+488), M0 18,964 B (+864); stack 496 B (M4F, M7, M33), 572 B (M3, M33 without FPU), 648 B (M0).
# The fixed-only core now reads binning models (their validators, the bin hash, the exact-mode
# search and the integer bins): M4F and M7 9,608 B, M33 9,612 B, M3 9,600 B, M33 without FPU
# 9,592 B, M0 11,396 B (+2.4 to +3.2 KB); stack 408-412 B, M0 544 B. The 16 KB M0 image links
# rfk_core_fixed_min (RFK_FIXED_BINNING=0) instead: 16,296 B. Budgets: about 100 B over.
set(RFK_STACK_BUDGET_cortex-m4 768)
set(RFK_STACK_BUDGET_cortex-m7 768)

# Merged (2026-11-26 19:25 UTC, `ctest -R footprint -V` per preset, this VM): the whole core has
# Fastfood and binning on the integer path and f16-scaled heads; rfk_core_fixed_only (footprint_fixed)
# has both integer maps; rfk_core_fixed_min (the 16 KiB image) neither. The set() lines below say the figures.
# f16-scaled heads (issue 16, measured 2026-11-26 18:11 UTC, `ctest -R footprint -V` in each
# preset's build; before: the merge's figures above): the storage's refusal in map_params, its
# scales in CheckHead/CheckWeights, QuantDot's scale (+24 B on the M4F), WeightAt's case (one
# HalfToFloat for f16 and f16-scaled) and QuantMatrixBytes no longer inlined into ReadModel (+8 B
# net): whole core M4F and M7 13,988 B (+68), M33 14,004 B (+60), M3 and M33 without FPU 15,080 B
# (+60), M0 18,164 B (+64); float-only M4F 12,816 B, M7 12,752 B, M33 12,808 B, M3 and M33 without
# FPU 13,880 B, M0 16,684 B (M4F +72 B); fixed-only M4F 7,176 B (+8: CheckHead is shared). Stack: rfk_open 496 -> 512 B on the M4F
# (ReadModel's frame 312 -> 320 B), worst case 512 B (M4F, M7, M33), 572 B (M3), 648 B (M0).
# Whole-core budgets raised to about 100 B over again.
# 2026-11-29, issue 48: rfk_decide_class decides by the calibration's logits (binary
# A s + B + C s^3 < 0, multi-class the first maximum of a_k s_k + b_k: no exp, no division), so a
# device picks the most probable class as `rfk predict` does: +256 B on the M4F (DecideClass 126 B,
# BinaryLogit 66 B, Logit 60 B beside the raw rule), +256 B M7, +252 B M3, +308 B M0, +248 B M33,
# +252 B M33 without FPU; the float-only cores the same. Budgets: measured plus about 105 B.
set(RFK_FLASH_BUDGET_cortex-m4 15980)  # with the calibrated decision (issue 48): 15,872 B measured
set(RFK_STACK_BUDGET_cortex-m4 768)
set(RFK_FLASH_BUDGET_cortex-m7 15910)  # with the calibrated decision (issue 48): 15,808 B measured
set(RFK_STACK_BUDGET_cortex-m7 768)
set(RFK_FLASH_BUDGET_cortex-m3 17030)  # with the calibrated decision (issue 48): 16,920 B measured
set(RFK_STACK_BUDGET_cortex-m3 768)
# Cortex-M0 (Armv6-M, soft float; micro:bit) and Cortex-M33 with and without FPU (MPS2 AN505),
# first measured 2026-11-23 with the same core: M0 15,228 B flash (3,272 B of it libgcc's float
# and 64-bit emulation; Thumb-1 code is larger), stack 616 B.
# The calibration validator then added 356 B on the M0 (15,584 B; rfk_open's stack bound 664 B),
# 292 B on the M33 (11,020 B) and 604 B without FPU (12,884 B); the monotone calibration methods
# 188 B on the M0 (15,772 B; stack bound 616 B), 208 B on the M33 (11,228 B) and without FPU
# (13,092 B).
# 2026-11-26 17:55 UTC, Fastfood on the integer path (RFK_FIXED_FASTFOOD: its validator and
# transform) in the whole core: M0 19,324 B (+1,224 B on 18,100: the same sources before it,
# linked alike); the fixed-only core (built without it) and the 16 KiB image are unchanged.
set(RFK_FLASH_BUDGET_cortex-m0 20690)  # with the calibrated decision (issue 48): 20,584 B measured
set(RFK_STACK_BUDGET_cortex-m0 768)
# Cortex-M33 with FPU 10,728 B, stack 448 B (the M4F's core within 36 B); without FPU 12,280 B
# (1,212 B libgcc), stack 564 B, the M3's figures. Budgets: the M4F's and the M3's.
set(RFK_FLASH_BUDGET_cortex-m33 15960)  # with the calibrated decision (issue 48): 15,856 B measured
set(RFK_STACK_BUDGET_cortex-m33 768)
set(RFK_FLASH_BUDGET_cortex-m33+nofp 17030)  # with the calibrated decision (issue 48): 16,920 B measured
set(RFK_STACK_BUDGET_cortex-m33+nofp 768)
# The issue's M0 line (issue 17): a whole firmware with the fixed-only core and the (16, 256) fixed
# model within 16 KiB of flash and 2 KiB of RAM, stack included (fixed_image_limits).
set(RFK_IMAGE_LIMITS_cortex-m0 16384 2048)
# The reduced cores (lib/core/core_config.h; measured 2026-11-26, `ctest -R footprint -V`): the
# float-only core (footprint_float: RFK_CORE_FIXED=0, no fixed validator) is back within the budgets
# above as they were before the fixed section, but for the M0 (16,292 B, 12 B over its old 16,280);
# the fixed-only core (footprint_fixed: RFK_CORE_FLOAT=0) gets its own, measured plus about 150 B.
#   float-only: M4F, M7, M33 12,272 B; M3, M33 without FPU 13,468 B; M0 16,292 B (stack as the whole core's)
#   fixed-only: M4F, M7 7,016 B; M33 7,040 B; M3 7,028 B; M33 without FPU 7,044 B; M0 8,084 B
#               (worst-case stack 400 B, M0 472 B: rfk_open)
# The dense f32 configured core (rfk_core_dense_f32, built with tests/embedded/house_pair_config.h:
# what `rfk export --config-header` writes for house_pair; footprint_dense), `ctest -R footprint -V`:
# M4F and M7 6,128 B, M33 6,136 B, M3 and M33 without FPU 7,568 B, M0 10,132 B; worst-case stack
# 392 B (M3 404 B, M0 456 B). Budgets: measured plus about 100 B.
set(RFK_DENSE_FLASH_BUDGET_cortex-m4 5910)
set(RFK_DENSE_FLASH_BUDGET_cortex-m7 5910)
set(RFK_DENSE_FLASH_BUDGET_cortex-m3 7330)
set(RFK_DENSE_FLASH_BUDGET_cortex-m0 9870)
set(RFK_DENSE_FLASH_BUDGET_cortex-m33 5920)
set(RFK_DENSE_FLASH_BUDGET_cortex-m33+nofp 7330)
set(RFK_FLOAT_FLASH_BUDGET_cortex-m4 13180)  # 13,072 B measured
set(RFK_FLOAT_FLASH_BUDGET_cortex-m7 13110)  # 13,008 B measured
set(RFK_FLOAT_FLASH_BUDGET_cortex-m3 14240)  # 14,132 B measured
set(RFK_FLOAT_FLASH_BUDGET_cortex-m0 17100)  # 16,992 B measured
set(RFK_FLOAT_FLASH_BUDGET_cortex-m33 13160)  # 13,056 B measured
set(RFK_FLOAT_FLASH_BUDGET_cortex-m33+nofp 14240)  # 14,132 B measured
set(RFK_FIXED_FLASH_BUDGET_cortex-m4 13230)  # 13,124 B measured with the DSP Fwht (two stages per pass)
set(RFK_FIXED_FLASH_BUDGET_cortex-m7 13100)  # with the DSP kernels (RFK_FIXED_DSP, fixed_blocks.h; paired loads, two features per step): 13,000 B measured
set(RFK_FIXED_FLASH_BUDGET_cortex-m3 11820)  # after the merge of Fastfood, binning and f16-scaled heads: 11,716 B measured
set(RFK_FIXED_FLASH_BUDGET_cortex-m0 13820)  # after the merge of Fastfood, binning and f16-scaled heads: 13,716 B measured
set(RFK_FIXED_FLASH_BUDGET_cortex-m33 13130)  # with the DSP kernels (RFK_FIXED_DSP, fixed_blocks.h; paired loads, two features per step): 13,024 B measured
set(RFK_FIXED_FLASH_BUDGET_cortex-m33+nofp 13100)  # with the DSP kernels (RFK_FIXED_DSP, fixed_blocks.h; paired loads, two features per step): 12,996 B measured
# Cortex-M55 (Helium and the DSP extension; mps3-an547), `ctest -R footprint -V`: with the Helium
# kernel table (lib/core/kernels_helium.cc: f32 and int8 weights) beside the scalar one, the whole
# core 18,004 B, float-only 15,192 B, dense f32 configured 7,492 B, fixed-only (the blocked loops
# with the MVE integer kernels, RFK_FIXED_MVE) 12,820 B; worst-case stack 620 B (dense 452 B,
# fixed-only 704 B). RFK_HELIUM=0 leaves the table
# out (16,056 B whole). Budgets: measured plus about 100 B.
set(RFK_FLASH_BUDGET_cortex-m55 18100)
set(RFK_STACK_BUDGET_cortex-m55 768)
set(RFK_DENSE_FLASH_BUDGET_cortex-m55 7260)
set(RFK_FLOAT_FLASH_BUDGET_cortex-m55 15290)
set(RFK_FIXED_FLASH_BUDGET_cortex-m55 13240)  # 13,140 B measured with the MVE Fwht (fixed_kernels.h)
# The cores pinned to one model (`rfk export --config-header --pin`: the pin and the CRC instead of
# the validators; footprint_pinned: house_pair, f32 dense pairs; footprint_pinned_fixed: house_fixed,
# the integer path, dense), 2026-11-30, `ctest -R footprint_pinned -V`:
#   f32:   M4F, M7, M33 3,132 B; M3, M33 without FPU 4,564 B; M0 6,776 B; M55 4,476 B
#   fixed: M4F, M7 3,524 B; M33, M33 without FPU 3,508 B; M3 2,152 B; M0 2,496 B; M55 3,184 B
# (the DSP and MVE loops are the larger, faster ones). Budgets: measured plus about 100 B.
# 2026-11-30, RFK_BATCH_KERNELS 0 in the configuration `rfk export` writes (the batch kernels not
# linked): the dense configured core M4F, M7 5,808 B, M33 5,820 B, M3 and M33 without FPU 7,228 B,
# M0 9,764 B, M55 7,156 B; the pinned f32 core M4F, M7 2,812 B, M33 2,816 B, M3 and M33 without
# FPU 4,224 B, M0 6,408 B, M55 4,140 B (docs/generated/firmware.md). Budgets: measured plus ~100 B.
foreach(mcu cortex-m4 cortex-m7 cortex-m33)
  set(RFK_PINNED_FLASH_BUDGET_${mcu} 2920)
endforeach()
set(RFK_PINNED_FLASH_BUDGET_cortex-m3 4330)
set(RFK_PINNED_FLASH_BUDGET_cortex-m33+nofp 4330)
set(RFK_PINNED_FLASH_BUDGET_cortex-m0 6510)
set(RFK_PINNED_FLASH_BUDGET_cortex-m55 4240)
set(RFK_PINNED_FIXED_FLASH_BUDGET_cortex-m4 3370)
set(RFK_PINNED_FIXED_FLASH_BUDGET_cortex-m7 3370)
set(RFK_PINNED_FIXED_FLASH_BUDGET_cortex-m33 3370)
set(RFK_PINNED_FIXED_FLASH_BUDGET_cortex-m33+nofp 3370)
set(RFK_PINNED_FIXED_FLASH_BUDGET_cortex-m3 1540)
set(RFK_PINNED_FIXED_FLASH_BUDGET_cortex-m0 1800)
set(RFK_PINNED_FIXED_FLASH_BUDGET_cortex-m55 2610)
# 2026-11-30, Predict's blocks (rfk::kFeatureBlock: the features 128 at a time, each block's part of
# the head added before the next, so the scratch does not hold all D features; lib/core/predict.cc
# FourierBlocks, DenseBlock, FastfoodBlock, HeadPart), `ctest -R footprint -V` in each preset's build:
#   whole core: M4F, M7 16,320 B, M33 16,360 B, M3 17,432 B, M33 without FPU 17,428 B,
#               M0 21,160 B, M55 18,492 B (+448 to +568 B)
#   float-only: M4F, M7 13,520 B, M33 13,568 B, M3 14,648 B, M33 without FPU 14,644 B, M0 17,564 B,
#               M55 15,688 B
#   dense f32 configured: M4F, M7 6,000 B, M33 5,988 B, M3 and M33 without FPU 7,388 B, M0 9,948 B,
#               M55 7,316 B; pinned: M4F, M7 2,940 B, M33 2,984 B, M3 and M33 without FPU 4,384 B,
#               M0 6,592 B, M55 4,300 B (+128 B on the M4F)
# Stack unchanged in the worst case (rfk_open). Budgets: measured plus about 100 B.
# 2026-11-30, the pinned core's Model as a constant in flash (its handle one pointer: 392 -> 8 B of
# RAM) and the C API reading the handle once per call: pinned f32 M4F, M7 3,012 B (+72: the
# 264-byte Model is read-only data, the stores that filled it are gone), M33 2,996 B, M3 and M33
# without FPU 4,400 B, M0 6,616 B, M55 4,316 B; dense configured M4F 5,936 B (-64). Within the
# budgets below.
# 2026-11-30, the head in one order that knows no blocks (LinearHead and LinearHeadQuant take a
# pair block's two halves in one call; the scalar sums run from the bias, each weight widened as
# WeightAt does, so a core with 32-feature blocks gives the 128-block bits): the scalar f32 head
# row (HeadRowF32, 250 B: the pair loop beside the phase one), the quantized head's own loops
# (HeadRowQuant 224 B; QuantDot out of line for the features, or the f16 W loop took one more
# instruction a weight: a9a_f16 322,535 -> 352,252). Whole core M4F 16,704 B (+384), M7 16,640 B,
# M33 16,716 B, M3 17,704 B, M33 without FPU 17,700 B, M0 21,416 B (+296), M55 19,016 B (+576:
# Helium's head over both halves); float-only M4F 13,904 B; dense configured M4F 6,000 B, M55
# 7,424 B; pinned M4F 3,076 B (+64), M55 4,476 B (+160), M0 6,592 B. Budgets: measured plus ~100 B.
# Then Fastfood standardising into its transform's buffer and its block inside it (the scratch
# layout's new cases, StandardizeInBlocks, the standardisation's second caller): whole core M4F
# 16,896 B (+192), M7 16,832 B, M33 16,900 B, M3 17,904 B, M33 without FPU 17,900 B, M0 21,640 B
# (+224), M55 19,200 B; float-only M4F 14,096 B; dense configured M4F 6,064 B (+64), M7 6,000 B;
# pinned M4F 3,076 B, M33 3,116 B, M3 4,440 B, M0 6,648 B, M55 4,508 B.
# 2026-11-30, the scalar table's int8 W in panels eight rows at a time (kernels_scalar.cc
# QuantRowsDot; cores with a float unit only): whole core M4F 17,088 B (+256), M7 17,024 B, M33
# 17,100 B, M55 19,420 B (+280); float-only M4F 14,288 B, M7 14,224 B, M33 14,296 B, M55 16,608 B;
# the soft-float cores, the dense f32 and pinned cores unchanged. Then the Helium table's own
# Walsh-Hadamard transform (kernels_helium.cc Fwht): M55 whole core 19,832 B (+412), float-only
# 17,020 B.
# Then the soft-float cores' Fourier features row by row (kernels_scalar.cc PanelRowDot, no
# PanelDot or its 16 sums where the batch kernels are configured out): dense configured M0
# 9,400 B (-412), M3 and M33 without FPU 6,844 B (-452); pinned M0 6,232 B, M3 3,984 B; the
# painted stack of a float prediction 80-112 B less. Then Fastfood's diagonals as a kernel
# (ScaleByDiagonal, the Helium table's own for f32 and int8): whole core M4F 17,028 B (+68), M0
# 21,528 B, M55 19,928 B (+228), float-only M55 17,116 B.
# 2026-12-01, the Helium table's f16 weights (kernels_helium.cc: W's panels, the head, Fastfood's
# diagonals, VCVTB on four lanes): M55 whole core 20,408 B (+480), float-only 17,596 B. Then
# Fastfood's signs as the ApplySigns kernel (the Helium table's on two vectors): M55 whole core
# 20,676 B (+260), float-only 17,864 B; the other presets +4 to +56 B.
# Then the integer path's Walsh-Hadamard transform as the fixed kernel list's Fwht (DSP: two
# stages per pass; MVE: VLD4 and four lanes): fixed-only M4F 13,124 B (+64), M55 13,140 B (+296).
# 2026-12-01, the pinned cores read their Model as a constant every source sees (pinned_model.h:
# each field folded into the code, the branches for what the model lacks gone, the 264-byte Model
# no longer in flash): pinned f32 M4F, M7 2,500 B (-584), M33 2,512 B, M3 and M33 without FPU
# 3,396 B, M0 5,612 B (-628), M55 3,912 B; pinned fixed M4F, M7 2,948 B (-520), M33 and M33 without
# FPU 2,964 B, M3 1,540 B, M0 1,800 B (-744), M55 2,616 B. Budgets: measured plus about 100 B.
# 2026-12-02, the pinned entry points flattened (PredictOf, Prepare and Layout inlined, the pinned
# Model's values folded through them), the pairs-only head without its single-half loop, and the
# integer Fastfood's roundings from two 32-bit words (`ctest -R footprint -V` per preset): pinned
# to house_pair M4F, M7 1,984 B, M33 2,000 B, M3 and M33 without FPU 2,936 B, M0 5,044 B, M55
# 3,488 B; covtype_fastfood_int8 M4F 2,624 B, M7 2,560 B, M33 2,604 B, M3 and M33 without FPU
# 3,984 B, M0 5,812 B, M55 5,304 B; covtype_ff_fixed M4F, M7 3,012 B, M33 3,048 B, M3 2,164 B, M0
# 2,472 B, M55 3,272 B; dense configured M4F 5,360 B, M7 5,296 B, M33 5,348 B, M3 6,276 B, M0
# 8,736 B, M55 6,876 B. Built for size: house_pair M4F, M7 1,472 B, M33 1,504 B, M55 1,528 B;
# covtype_fastfood_int8 M4F, M7 2,112 B, M33 2,128 B, M55 2,168 B; covtype_ff_fixed M4F 1,656 B,
# M7 1,720 B, M33 and M33 without FPU 1,692 B, M3 1,696 B, M55 1,724 B, M0 2,012 B. The tables
# carry these budgets: measured plus about 100 B.
# One line per target: the whole, float-only, dense configured and pinned cores' flash budgets.
macro(rfk_flash_budgets mcu whole float dense pinned)
  set(RFK_FLASH_BUDGET_${mcu} ${whole})
  set(RFK_FLOAT_FLASH_BUDGET_${mcu} ${float})
  set(RFK_DENSE_FLASH_BUDGET_${mcu} ${dense})
  set(RFK_PINNED_FLASH_BUDGET_${mcu} ${pinned})
endmacro()
#                 target           whole  float  dense  pinned
rfk_flash_budgets(cortex-m4        16620  13820  5460   2090)
rfk_flash_budgets(cortex-m7        16620  13820  5400   2090)
rfk_flash_budgets(cortex-m33       16660  13860  5450   2100)
rfk_flash_budgets(cortex-m3        17080  14290  6380   3040)
rfk_flash_budgets(cortex-m33+nofp  17080  14290  6380   3040)
rfk_flash_budgets(cortex-m0        20730  17140  8840   5150)
rfk_flash_budgets(cortex-m55       20780  17970  6980   3590)
# 2026-12-01, two more pinned kinds (footprint_pinned_<fixture>, `ctest -R footprint_pinned -V`):
# covtype_fastfood_int8 (Fastfood, int8 G, S and head, float path) M4F, M7 4,228 B, M33 4,244 B, M3
# and M33 without FPU 5,240 B, M0 7,248 B, M55 7,100 B; covtype_ff_fixed (Fastfood on the integer
# path) M4F, M7 3,396 B, M33 3,424 B, M33 without FPU 3,440 B, M3 2,552 B, M0 2,744 B, M55 3,556 B.
# Budgets: measured plus about 100 B. Then RFK_HEAD_F32 0 in such a model's configuration (the f32
# head's loop not linked): covtype_fastfood_int8 M4F, M7, M33 3,908 B, M3 and M33 without FPU
# 5,040 B, M0 7,064 B, M55 6,480 B.
#                 target           fastfood_int8  ff_fixed
macro(rfk_pinned_kind_budgets mcu fastfood_int8 ff_fixed)
  set(RFK_PINNED_COVTYPE_FASTFOOD_INT8_FLASH_BUDGET_${mcu} ${fastfood_int8})
  set(RFK_PINNED_COVTYPE_FF_FIXED_FLASH_BUDGET_${mcu} ${ff_fixed})
endmacro()
# 2026-12-02, the integer Fastfood's common shifts on their own path (not built for size) and
# PredictFixed's offsets in 32 bits: covtype_ff_fixed M4F, M7 3,076 B, M33 and M33 without FPU
# 3,072 B, M3 2,188 B, M0 2,508 B, M55 3,284 B. Budgets: measured plus about 100 B.
rfk_pinned_kind_budgets(cortex-m4        2720  3180)
rfk_pinned_kind_budgets(cortex-m7        2660  3180)
rfk_pinned_kind_budgets(cortex-m33       2700  3170)
rfk_pinned_kind_budgets(cortex-m3        4080  2290)
rfk_pinned_kind_budgets(cortex-m33+nofp  4080  3170)
rfk_pinned_kind_budgets(cortex-m0        5910  2610)
rfk_pinned_kind_budgets(cortex-m55       5400  3390)
# The same four pinned cores built for size (RFK_CORE_SMALL; footprint_pinned_small_<fixture>: all
# four on the cores with an FPU; on the soft-float ones (M3, M33 without FPU, M0), where the float
# path's plain loops are the default, the two fixed-point ones, whose cosine table is computed),
# 2026-12-01 with the bitwise CRC, `ctest -R footprint_pinned_small -V`: house_pair M4F, M7
# 1,924 B, M33 1,952 B, M55 1,964 B (without the Helium table); house_fixed M4F, M7 1,080 B, M33
# (either), M3 1,068 B, M55 1,044 B, M0 1,340 B; covtype_fastfood_int8 M4F, M7 3,140 B, M33
# 3,144 B, M55 3,192 B; covtype_ff_fixed M4F, M7, M33 without FPU, M3
# 1,976 B, M33 1,960 B, M55 1,928 B, M0 2,176 B. Budgets: measured plus about 100 B.
macro(rfk_pinned_small_budgets mcu pair fixed fastfood_int8 ff_fixed)
  set(RFK_PINNED_SMALL_HOUSE_PAIR_FLASH_BUDGET_${mcu} ${pair})
  set(RFK_PINNED_SMALL_HOUSE_FIXED_FLASH_BUDGET_${mcu} ${fixed})
  set(RFK_PINNED_SMALL_COVTYPE_FASTFOOD_INT8_FLASH_BUDGET_${mcu} ${fastfood_int8})
  set(RFK_PINNED_SMALL_COVTYPE_FF_FIXED_FLASH_BUDGET_${mcu} ${ff_fixed})
endmacro()
#                        target           house_pair  house_fixed  fastfood_int8  ff_fixed
rfk_pinned_small_budgets(cortex-m4        1570        1050         2210           1760)
rfk_pinned_small_budgets(cortex-m7        1570        1050         2210           1820)
rfk_pinned_small_budgets(cortex-m33       1600        1060         2230           1790)
rfk_pinned_small_budgets(cortex-m55       1630        1040         2270           1820)
set(RFK_PINNED_SMALL_HOUSE_FIXED_FLASH_BUDGET_cortex-m33+nofp 1060)
set(RFK_PINNED_SMALL_COVTYPE_FF_FIXED_FLASH_BUDGET_cortex-m33+nofp 1790)
set(RFK_PINNED_SMALL_HOUSE_FIXED_FLASH_BUDGET_cortex-m3 1060)
set(RFK_PINNED_SMALL_COVTYPE_FF_FIXED_FLASH_BUDGET_cortex-m3 1800)
set(RFK_PINNED_SMALL_HOUSE_FIXED_FLASH_BUDGET_cortex-m0 1340)
set(RFK_PINNED_SMALL_COVTYPE_FF_FIXED_FLASH_BUDGET_cortex-m0 2110)
# 2026-12-01, the core's calls go straight to the scalar kernels where it has no run-time dispatch
# (lib/core/scalar_table.h: every core here but the M55's default, whose Helium table keeps
# ActiveKernels): the table and the kernels no call reaches are not linked (the generic core's batch
# kernels among them), and each Fourier entry of a one-form build compiles its helper for that form
# alone. `ctest -R footprint -V` per preset: whole core M4F, M7 16,516 B (M4F -516), M33 16,556 B, M3 and
# M33 without FPU 16,976 B, M0 20,628 B (-1,008), M55 20,684 B (+8); float-only M4F 13,716 B, M0
# 17,040 B; dense configured M4F 5,872 B (-132), M0 9,276 B; pinned to house_pair M4F 2,368 B
# (-132), M0 5,480 B; pinned to covtype_fastfood_int8 M4F 3,712 B (-196), M0 6,852 B; built for
# size, house_pair M4F 1,792 B (-132), M55 1,840 B, covtype_fastfood_int8 M4F 2,944 B (-196). The
# integer path is unchanged. The tables above carry these budgets: measured plus about 100 B.
# 2026-12-01, the pinned cores' footprint programs size their calls with the configuration's
# RFK_PIN_* constants (as a pinned application does: its buffers need them at compile time), rfk_open
# reports into the C error struct directly (CheckPinned takes either error type), SinCosRef's
# quadrants as sign flips. `ctest -R footprint_pinned -V` per preset: pinned to house_pair M4F, M7
# 2,240 B (-128), M33 2,256 B, M3 and M33 without FPU 3,148 B, M0 5,340 B, M55 3,764 B; house_fixed
# M4F 2,820 B, M7 2,884 B, M33 2,860 B, M3 1,436 B, M0 1,696 B, M55 2,512 B; covtype_fastfood_int8
# M4F 3,584 B, M0 6,716 B; built for size house_pair M4F 1,664 B (-128), M55 1,704 B, house_fixed
# M4F 952 B, M0 1,236 B, covtype_fastfood_int8 M4F 2,816 B (-128), covtype_ff_fixed M4F 1,848 B,
# M0 2,068 B. The tables above carry these budgets: measured plus about 100 B.
# Then the DSP kernels' phases and features for short rows (fixed_kernels.h: AlignedPairs, inline
# per pair where d % 8 == 0 and the rows are word-aligned; Features a quad of phases through
# stepping pointers, the signs without a branch): house_fixed 12,587 -> 10,220 instructions on the
# M4F (0.59x of house_pair's f32), covtype_fixed 142,745 -> 140,025, for 448 B of flash: fixed-only
# M4F, M7 13,380 B, M33 13,376 B, M33 without FPU 13,368 B; pinned to house_fixed M4F, M7, M33
# and M33 without FPU 3,268 B. The cores without the DSP loops change by under 10 B. Budgets:
# measured plus about 100 B.
# 2026-12-03, the integer Fastfood's transform three stages a pass (the DSP Fwht; on Thumb-2 its
# first two passes written out), its signs a byte at a time and its gather from halfword loads
# (not on the M0): covtype_ff_fixed 77,465 -> 59,065 instructions on the M4F, for the fixed-only
# core M4F, M7 13,892 B, M33 13,920 B, M33 without FPU 13,888 B, M55 13,328 B, M3 11,856 B, M0
# 13,440 B; pinned to covtype_ff_fixed M4F, M7 3,652 B, M33 and M33 without FPU 3,648 B, M55
# 3,620 B, M3 2,508 B, M0 2,520 B (generated/firmware.md at fc39680). Budgets: measured plus about
# 100 B.
set(RFK_FIXED_FLASH_BUDGET_cortex-m4 13990)
set(RFK_FIXED_FLASH_BUDGET_cortex-m7 13990)
set(RFK_FIXED_FLASH_BUDGET_cortex-m33 14020)
set(RFK_FIXED_FLASH_BUDGET_cortex-m33+nofp 13990)
set(RFK_FIXED_FLASH_BUDGET_cortex-m3 11960)
set(RFK_FIXED_FLASH_BUDGET_cortex-m55 13430)
set(RFK_PINNED_COVTYPE_FF_FIXED_FLASH_BUDGET_cortex-m4 3750)
set(RFK_PINNED_COVTYPE_FF_FIXED_FLASH_BUDGET_cortex-m7 3750)
set(RFK_PINNED_COVTYPE_FF_FIXED_FLASH_BUDGET_cortex-m33 3750)
set(RFK_PINNED_COVTYPE_FF_FIXED_FLASH_BUDGET_cortex-m33+nofp 3750)
set(RFK_PINNED_COVTYPE_FF_FIXED_FLASH_BUDGET_cortex-m3 2610)
set(RFK_PINNED_COVTYPE_FF_FIXED_FLASH_BUDGET_cortex-m55 3720)
# 2026-12-01, a configured core's Model holds only what its kind reads (include/rfk/model_layout.h;
# rfk_model 264 -> 64 B for house_pair's configuration): the dense configured core (footprint_dense)
# M4F, M7 5,488 B (-384), M33 5,528 B, M3 and M33 without FPU 6,392 B, M0 8,872 B (-380), M55
# 7,052 B; worst-case stack unchanged. Budgets: measured plus about 100 B.
set(RFK_DENSE_FLASH_BUDGET_cortex-m4 5590)
set(RFK_DENSE_FLASH_BUDGET_cortex-m7 5590)
set(RFK_DENSE_FLASH_BUDGET_cortex-m33 5630)
set(RFK_DENSE_FLASH_BUDGET_cortex-m3 6490)
set(RFK_DENSE_FLASH_BUDGET_cortex-m33+nofp 6490)
set(RFK_DENSE_FLASH_BUDGET_cortex-m0 8970)
set(RFK_DENSE_FLASH_BUDGET_cortex-m55 7150)
# 2026-12-03, the whole core without the open's field names (RFK_ERROR_FIELDS=0, rfk_core_nofields;
# footprint_nofields, `ctest -R footprint_nofields -V` per preset): M4F 14,028 B (the whole core's
# 16,452 B less 2,424), M7 13,964 B, M33 14,040 B, M55 18,144 B, M3 and M33 without FPU 14,424 B,
# M0 17,992 B (-2,440); worst-case stack 492 B (M4F, M7, M33), 484 B (M3), 560 B (M0), 612 B (M55).
# Budgets: measured plus about 100 B.
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m4 14130)
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m7 14070)
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m33 14140)
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m55 18250)
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m3 14530)
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m33+nofp 14530)
# Then binning's hash loops out of line (GridKey, GridHash; generated/firmware.md at be30e83): M0
# 18,012 B, M3 and M33 without FPU 14,436 B, the others within 4 B of the figures above or smaller.
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m0 18110)
# 2026-12-03, the smallest generic cores (footprint_small: the whole core built for size;
# footprint_small_nofields: the same without the field names; footprint_float_small_nofields: the
# float path alone, built for size, without them), measured with `ctest -R '^footprint' -V` per preset
# once a core built for size sends f32 W and heads through the quantized storages' loops
# (lib/core/scalar_table.h, kF32AsQuant) and widens bin and diagonal weights out of line: M4F
# 13,952 / 11,528 / 9,480 B, M7 13,952 / 11,464 / 9,480 B, M33 13,972 / 11,524 / 9,504 B, M55
# 14,176 / 11,712 / 9,696 B, M3 and M33 without FPU 15,812 / 13,368 / 11,352 B, M0 19,400 / 16,956 /
# 14,116 B. The same step's magic check without memcmp: the whole core M4F 16,260 -> 16,128 B.
# Budgets: measured plus about 100 B.
set(RFK_SMALL_FLASH_BUDGET_cortex-m4 14060)
set(RFK_SMALL_FLASH_BUDGET_cortex-m7 14060)
set(RFK_SMALL_FLASH_BUDGET_cortex-m33 14080)
set(RFK_SMALL_FLASH_BUDGET_cortex-m55 14280)
set(RFK_SMALL_FLASH_BUDGET_cortex-m3 15920)
set(RFK_SMALL_FLASH_BUDGET_cortex-m33+nofp 15920)
set(RFK_SMALL_FLASH_BUDGET_cortex-m0 19500)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m4 11630)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m7 11570)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m33 11630)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m55 11820)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m3 13470)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m33+nofp 13470)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m0 17060)
set(RFK_FLOAT_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m4 9580)
set(RFK_FLOAT_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m7 9580)
set(RFK_FLOAT_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m33 9610)
set(RFK_FLOAT_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m55 9800)
set(RFK_FLOAT_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m3 11460)
set(RFK_FLOAT_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m33+nofp 11460)
set(RFK_FLOAT_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m0 14220)
# 2026-12-04, the integer path read on use (RFK_FIXED_ON_USE, lib/core/core_config.h): an image that
# calls no fixed-point function links no fixed-section validator, so footprint_core.c's images (the
# whole core, without names, built for size, both) lost it; footprint_both.c (either path:
# rfk_predict, rfk_quantize_input, rfk_predict_fixed) is what a firmware of both paths links.
# Measured with `ctest -R '^footprint' -V` per preset (whole / without names / built for size /
# built for size without names; both / both built for size without names), in B:
# cortex-m4: 13,712 / 11,784 / 11,536 / 9,608; 22,156 / 14,788
# cortex-m7: 13,648 / 11,784 / 11,536 / 9,608; 22,156 / 14,788
# cortex-m33: 13,696 / 11,800 / 11,528 / 9,632; 22,164 / 14,788
# cortex-m55: 17,796 / 15,892 / 11,728 / 9,820; 25,704 / 15,080
# cortex-m3: 14,124 / 12,228 / 13,376 / 11,480; 20,600 / 16,596
# cortex-m33+nofp: 14,124 / 12,228 / 13,376 / 11,480; 22,552 / 16,600
# cortex-m0: 16,940 / 15,036 / 16,188 / 14,284; 24,136 / 20,500
# Budgets: measured plus about 100 B.
set(RFK_FLASH_BUDGET_cortex-m4 13820)
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m4 11890)
set(RFK_SMALL_FLASH_BUDGET_cortex-m4 11640)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m4 9710)
set(RFK_BOTH_FLASH_BUDGET_cortex-m4 22260)
set(RFK_BOTH_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m4 14890)
set(RFK_FLASH_BUDGET_cortex-m7 13750)
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m7 11890)
set(RFK_SMALL_FLASH_BUDGET_cortex-m7 11640)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m7 9710)
set(RFK_BOTH_FLASH_BUDGET_cortex-m7 22260)
set(RFK_BOTH_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m7 14890)
set(RFK_FLASH_BUDGET_cortex-m33 13800)
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m33 11900)
set(RFK_SMALL_FLASH_BUDGET_cortex-m33 11630)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m33 9740)
set(RFK_BOTH_FLASH_BUDGET_cortex-m33 22270)
set(RFK_BOTH_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m33 14890)
set(RFK_FLASH_BUDGET_cortex-m55 17900)
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m55 16000)
set(RFK_SMALL_FLASH_BUDGET_cortex-m55 11830)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m55 9920)
set(RFK_BOTH_FLASH_BUDGET_cortex-m55 25810)
set(RFK_BOTH_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m55 15180)
set(RFK_FLASH_BUDGET_cortex-m3 14230)
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m3 12330)
set(RFK_SMALL_FLASH_BUDGET_cortex-m3 13480)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m3 11580)
set(RFK_BOTH_FLASH_BUDGET_cortex-m3 20700)
set(RFK_BOTH_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m3 16700)
set(RFK_FLASH_BUDGET_cortex-m33+nofp 14230)
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m33+nofp 12330)
set(RFK_SMALL_FLASH_BUDGET_cortex-m33+nofp 13480)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m33+nofp 11580)
set(RFK_BOTH_FLASH_BUDGET_cortex-m33+nofp 22660)
set(RFK_BOTH_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m33+nofp 16700)
set(RFK_FLASH_BUDGET_cortex-m0 17040)
set(RFK_NOFIELDS_FLASH_BUDGET_cortex-m0 15140)
set(RFK_SMALL_FLASH_BUDGET_cortex-m0 16290)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m0 14390)
set(RFK_BOTH_FLASH_BUDGET_cortex-m0 24240)
set(RFK_BOTH_SMALL_NOFIELDS_FLASH_BUDGET_cortex-m0 20600)
