/* scripts/fuzz.sh's model_fixed: a core configured for the integer path alone, every map it has
 * (dense, Fastfood, binning), the optional sections read -- the configured Model without the float
 * path's members (include/rfk/model_layout.h: feature_scale, projection, mean, inv_scale, the head's
 * views and the float phase are constants there). Every model without a fixed section must be
 * refused at open; those with one, read as the generic core reads them. Written by hand in the
 * form `rfk export --config-header` writes (lib/core/core_config.h's switches). */
#ifndef RFK_FUZZ_FIXED_ONLY_CONFIG_H_
#define RFK_FUZZ_FIXED_ONLY_CONFIG_H_
#define RFK_CORE_FLOAT 0
#define RFK_CORE_FIXED 1
#define RFK_FIXED_DENSE 1
#define RFK_FIXED_FASTFOOD 1
#define RFK_FIXED_BINNING 1
#define RFK_FLOAT_DENSE 0
#define RFK_FLOAT_FASTFOOD 0
#define RFK_FLOAT_BINNING 0
#define RFK_FLOAT_QUANT 0
#define RFK_HEAD_F32 1
#define RFK_FORM_PAIR 0
#define RFK_FORM_PHASE 0
#define RFK_LAYOUT_ROWS 0
#define RFK_READ_IMPUTE 1
#define RFK_READ_CALIBRATION 1
#define RFK_READ_NAMES 1
#define RFK_BATCH_KERNELS 0
#define RFK_FEATURE_BLOCK 32
#endif
