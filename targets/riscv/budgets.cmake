# Recorded footprint budgets of the inference core per RISC-V target (docs/EMBEDDED.md has the
# measurements they come from); the `footprint` test fails when the core outgrows them. Raise a
# budget only with a reason in the commit message. FLASH and STACK as in
# targets/cortex-m/budgets.cmake.
# Measured 2026-11-23 with Debian 12's riscv64-unknown-elf-gcc 12.2 and picolibc 1.8, MinSizeRel
# (-Os), every map, section and storage: RV32IMC 17,520 B flash (4,420 B of it libgcc's float and
# 64-bit emulation), worst-case stack 720 B (rfk_predict). Budgets: those plus about 150 B, and the
# design's 1 KiB of stack. The calibration validator (issue 21) then added 448 B: 17,968 B; its
# monotone methods (platt-cubic, softmax-vector; 2026-11-24) 160 B more: 18,128 B.
# Fastfood's G and S in f16 / int8 (issue 16, 2026-11-26: the diagonals' validator and storage-
# dependent size, the shared WeightAt widening loop) 272 B more: 18,392 B measured; stack 688 B.
# f16 standardisation and packed permutation indices (issue 16, 2026-11-26): the standardize
# section's storage and checks, StandardizeF16, the validators' shared checks in their own file
# (model_open_arrays.cc), the packed indices' unpacking: 496 B more, 18,888 B measured; stack 688 B.
# Both (merge of issues 16 and 17, 2026-11-26 16:00 UTC): whole core 20,416 B, float-only
# 18,848 B, fixed-only 8,296 B; stack 688 B. Budgets: about 100 B over.
# Both (merge of issues 16 and 17, 2026-11-26 16:00 UTC): whole core 20,416 B, float-only
# 18,848 B, fixed-only 8,296 B; stack 688 B. Budgets: about 100 B over.
# 2026-11-26 17:58 UTC, Fastfood on the integer path (RFK_FIXED_FASTFOOD) in the whole core:
# 21,768 B (+1,352 B on 20,416); the fixed-only core is built without it.
# Binning on the integer path (issue 17, 2026-11-26 18:25 UTC, `ctest -R footprint -V`, 2-core
# AMD EPYC VM shared with two other builds): whole core 21,104 B (+688: fixed_predict_binning.cc,
# fixed_open_binning.cc); fixed-only 11,536 B (+3,240: with RFK_CORE_FLOAT=0 the binning
# validators, the bin hash and the exact-mode search now come in too); stack 688 B / 480 B.
# Merged (2026-11-26 19:25 UTC, `ctest -R footprint -V` per preset, this VM): the whole core has
# Fastfood and binning on the integer path and f16-scaled heads; rfk_core_fixed_only (footprint_fixed)
# has both integer maps; rfk_core_fixed_min (the 16 KiB image) neither. The set() lines below say the figures.
# f16-scaled heads (issue 16, measured 2026-11-26 18:11 UTC, `ctest -R footprint -V`): whole core
# 20,520 B (+104: the budget exactly), float-only 18,936 B (+88), fixed-only 8,368 B; stack 688 B.
# 2026-11-29, issue 48: the calibrated decision (rfk_decide_class by the calibration's logits)
# +344 B whole core, +360 B float-only. Budgets: measured plus about 105 B.
set(RFK_FLASH_BUDGET_rv32imc 23000)  # with the calibrated decision: 22,896 B measured
set(RFK_STACK_BUDGET_rv32imc 1024)
# The reduced cores (lib/core/core_config.h; measured 2026-11-26, `ctest -R footprint -V`): the
# float-only core (footprint_float) 18,352 B, back within the budget before the fixed section; the
# fixed-only core (footprint_fixed) 8,120 B, worst-case stack 496 B (rfk_open): measured plus 150 B.
set(RFK_FLOAT_FLASH_BUDGET_rv32imc 19400)  # 19,296 B measured
# The dense f32 configured core (rfk_core_dense_f32 with tests/embedded/house_pair_config.h,
# footprint_dense): 11,720 B (libgcc's float and 64-bit emulation included), worst-case stack 496 B.
set(RFK_DENSE_FLASH_BUDGET_rv32imc 11420)
set(RFK_FIXED_FLASH_BUDGET_rv32imc 14160)  # after the merge of Fastfood, binning and f16-scaled heads: 14,056 B measured
# The cores pinned to one model (footprint_pinned: house_pair, f32; footprint_pinned_fixed:
# house_fixed), 2026-11-30: 8,408 B (libgcc's float emulation included) and 2,424 B; worst-case
# stack 496 B and 192 B. Budgets: measured plus about 100 B.
set(RFK_PINNED_FLASH_BUDGET_rv32imc 8110)
set(RFK_PINNED_FIXED_FLASH_BUDGET_rv32imc 2520)
# 2026-11-30, without the batch kernels (RFK_BATCH_KERNELS 0 in the configuration `rfk export`
# writes): the dense configured core 11,320 B, the pinned f32 core 8,008 B. Budgets: plus ~100 B.
# 2026-11-30, Predict's blocks (rfk::kFeatureBlock; targets/cortex-m/budgets.cmake has the Arm
# figures), `ctest -R footprint -V`: whole core 23,488 B (+592), float-only 19,888 B, dense f32
# configured 11,496 B, pinned f32 8,184 B. Budgets: measured plus about 100 B.
# 2026-11-30, the head in one order that knows no blocks (targets/cortex-m/budgets.cmake): whole
# core 23,680 B (+320), float-only 20,064 B; dense and pinned unchanged (11,368 B, 8,088 B). Then
# Fastfood standardising into its transform's buffer: whole 23,888 B, float-only 20,272 B, dense
# 11,384 B, pinned 8,104 B.
# Then Fastfood's diagonals as a kernel (ScaleByDiagonal): whole 24,024 B, float-only 20,400 B.
# 2026-12-01, Fastfood's signs as a kernel (ApplySigns) and the maps' references in their own file
# (kernels_scalar_maps.cc): whole 24,192 B, float-only 20,544 B.
set(RFK_FLASH_BUDGET_rv32imc 24300)
set(RFK_FLOAT_FLASH_BUDGET_rv32imc 20650)
set(RFK_DENSE_FLASH_BUDGET_rv32imc 10960)  # Fourier features row by row (PanelRowDot): 10,856 B measured
set(RFK_PINNED_FLASH_BUDGET_rv32imc 7760)  # the same: 7,656 B measured
# 2026-12-01, the pinned cores read their Model as a constant every source sees (pinned_model.h;
# targets/cortex-m/budgets.cmake): pinned f32 7,056 B (-600), pinned fixed 1,872 B (-504).
set(RFK_PINNED_FLASH_BUDGET_rv32imc 7160)
set(RFK_PINNED_FIXED_FLASH_BUDGET_rv32imc 1970)
# The same day, two more pinned kinds: covtype_fastfood_int8 9,216 B, covtype_ff_fixed 2,864 B; then
# RFK_HEAD_F32 0 in the int8 model's configuration: 8,944 B.
set(RFK_PINNED_COVTYPE_FASTFOOD_INT8_FLASH_BUDGET_rv32imc 9050)
set(RFK_PINNED_COVTYPE_FF_FIXED_FLASH_BUDGET_rv32imc 2960)

# The fixed-point pinned cores built for size (RFK_CORE_SMALL: the cosine table computed; the float
# path's small form is the default here; the CRC without a table), 2026-12-01, `ctest -R
# footprint_pinned_small -V`: house_fixed 1,424 B, covtype_ff_fixed 2,272 B.
set(RFK_PINNED_SMALL_HOUSE_FIXED_FLASH_BUDGET_rv32imc 1520)
set(RFK_PINNED_SMALL_COVTYPE_FF_FIXED_FLASH_BUDGET_rv32imc 2370)
# 2026-12-01, direct calls to the scalar kernels (no run-time dispatch here; lib/core/scalar_table.h):
# whole core 24,176 -> 23,128 B, float-only 20,560 -> 19,520 B, dense configured 10,872 -> 10,744 B,
# pinned to house_pair 7,056 -> 6,920 B, to covtype_fastfood_int8 8,944 -> 8,696 B; the integer path
# unchanged (`ctest --test-dir build/riscv32 -R footprint -V`). Budgets: measured plus about 100 B.
set(RFK_FLASH_BUDGET_rv32imc 23230)
set(RFK_FLOAT_FLASH_BUDGET_rv32imc 19620)
set(RFK_DENSE_FLASH_BUDGET_rv32imc 10840)
set(RFK_PINNED_FLASH_BUDGET_rv32imc 7020)
set(RFK_PINNED_COVTYPE_FASTFOOD_INT8_FLASH_BUDGET_rv32imc 8800)
# 2026-12-01, the pinned cores' footprint programs size their calls with the configuration's
# RFK_PIN_* constants (as a pinned application does), rfk_open reports into the C error struct
# directly, SinCosRef's quadrants as sign flips: pinned to house_pair 6,776 B, house_fixed 1,728 B,
# covtype_fastfood_int8 8,552 B, covtype_ff_fixed 2,592 B; built for size house_fixed 1,280 B,
# covtype_ff_fixed 2,144 B. Budgets: measured plus about 100 B.
set(RFK_PINNED_FLASH_BUDGET_rv32imc 6880)
set(RFK_PINNED_FIXED_FLASH_BUDGET_rv32imc 1830)
set(RFK_PINNED_COVTYPE_FASTFOOD_INT8_FLASH_BUDGET_rv32imc 8650)
set(RFK_PINNED_COVTYPE_FF_FIXED_FLASH_BUDGET_rv32imc 2690)
set(RFK_PINNED_SMALL_HOUSE_FIXED_FLASH_BUDGET_rv32imc 1380)
set(RFK_PINNED_SMALL_COVTYPE_FF_FIXED_FLASH_BUDGET_rv32imc 2250)
# 2026-12-01, the configured Model (include/rfk/model_layout.h): the dense configured core 10,424 B
# (-304). Budget: measured plus about 100 B.
set(RFK_DENSE_FLASH_BUDGET_rv32imc 10520)
# 2026-12-02, the pinned entry points flattened and the integer Fastfood's roundings from two 32-bit
# words (targets/cortex-m/budgets.cmake): pinned to house_pair 6,544 B, covtype_fastfood_int8
# 7,632 B, covtype_ff_fixed 2,560 B (+16); the dense configured core 10,336 B. Budgets: measured
# plus about 100 B.
set(RFK_DENSE_FLASH_BUDGET_rv32imc 10440)
set(RFK_PINNED_FLASH_BUDGET_rv32imc 6650)
set(RFK_PINNED_COVTYPE_FASTFOOD_INT8_FLASH_BUDGET_rv32imc 7730)
set(RFK_PINNED_COVTYPE_FF_FIXED_FLASH_BUDGET_rv32imc 2660)
# 2026-12-03, the whole core without the open's field names (RFK_ERROR_FIELDS=0; footprint_nofields):
# 19,992 B (the whole core's 22,928 B less 2,936), worst-case stack 512 B. Budget: measured plus
# about 100 B.
# Then binning's hash loop out of line (GridKey, GridHash): the whole core 22,992 B, without names
# 20,056 B.
set(RFK_NOFIELDS_FLASH_BUDGET_rv32imc 20160)
# 2026-12-03, the smallest generic cores (targets/cortex-m/budgets.cmake): built for size 21,760 B,
# without the field names 18,824 B, the float path alone without them 16,104 B. Budgets: measured
# plus about 100 B.
set(RFK_SMALL_FLASH_BUDGET_rv32imc 21860)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_rv32imc 18930)
set(RFK_FLOAT_SMALL_NOFIELDS_FLASH_BUDGET_rv32imc 16210)
# 2026-12-04, the integer path read on use (RFK_FIXED_ON_USE, lib/core/core_config.h): an image that
# calls no fixed-point function links no fixed-section validator, so footprint_core.c's images (the
# whole core, without names, built for size, both) lost it; footprint_both.c (either path:
# rfk_predict, rfk_quantize_input, rfk_predict_fixed) is what a firmware of both paths links.
# Measured with `ctest -R '^footprint' -V` per preset (whole / without names / built for size /
# built for size without names; both / both built for size without names), in B:
# rv32imc: 19,600 / 17,288 / 18,560 / 16,232; 27,096 / 22,688
# Budgets: measured plus about 100 B.
set(RFK_FLASH_BUDGET_rv32imc 19700)
set(RFK_NOFIELDS_FLASH_BUDGET_rv32imc 17390)
set(RFK_SMALL_FLASH_BUDGET_rv32imc 18660)
set(RFK_SMALL_NOFIELDS_FLASH_BUDGET_rv32imc 16340)
set(RFK_BOTH_FLASH_BUDGET_rv32imc 27200)
set(RFK_BOTH_SMALL_NOFIELDS_FLASH_BUDGET_rv32imc 22790)
