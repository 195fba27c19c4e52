/** @file
 * Which members rfk::Model (rfk/model.hpp) stores, and so the size of the C handle rfk_model
 * (rfk/rfk.h): preprocessor only, for C and C++.
 *
 * A core built with a configuration that `rfk export --config-header` wrote (RFK_CONFIG_HEADER;
 * rfk_add_core's CONFIG, rfk.mk's RFK_CONFIG_HEADER, which name it for the application too) and not
 * pinned to one model has a *configured* Model: the members its configuration never reads are
 * static constants holding the value every model it accepts leaves there (0, null, f32, panels), and
 * the informational and redundant ones (total_bytes, the versions, kernel, gamma, seed, bin_gamma,
 * metadata, impute_method; projection_storage and head_storage, the views' types; what the format's
 * arrangement gives, which rfk/model.hpp's NumClasses ... FastfoodOf derive) are not members at
 * all. The handle then holds only what prediction reads: 48 bytes on a 32-bit core for a dense f32
 * model, at most 64 for the kinds the tests configure, against 264 for every kind. Every other
 * build (the hosts, a generic core, a pinned one) has every member.
 *
 * RFK_MODEL_CONFIGURED is 1 for a configured Model, else 0. RFK_MODEL_HAS_<group> is 1 where the
 * group's members are stored. RFK_MODEL_LAYOUT_ID names the layout (one token): the C API's
 * rfk_open and the C++ Model carry it (rfk.h, model.hpp), so an application and a core compiled
 * with different layouts fail to link instead of reading each other's handle wrongly.
 */
#ifndef RFK_MODEL_LAYOUT_H_
#define RFK_MODEL_LAYOUT_H_

#ifdef RFK_CONFIG_HEADER
#include RFK_CONFIG_HEADER
#endif

/** @name The core's configuration switches (lib/core/core_config.h says what each compiles)
 * Each is 1 unless the configuration header or the build says 0.
 * @{ */
#ifndef RFK_CORE_FLOAT
#define RFK_CORE_FLOAT 1 /**< the float path: rfk_predict */
#endif
#ifndef RFK_CORE_FIXED
#define RFK_CORE_FIXED 1 /**< the integer path: rfk_predict_fixed */
#endif
#ifndef RFK_FIXED_DENSE
#define RFK_FIXED_DENSE 1 /**< dense Fourier, orthogonal and QMC maps on the integer path */
#endif
#ifndef RFK_FIXED_FASTFOOD
#define RFK_FIXED_FASTFOOD 1 /**< Fastfood on the integer path */
#endif
#ifndef RFK_FIXED_BINNING
#define RFK_FIXED_BINNING 1 /**< random binning on the integer path */
#endif
#ifndef RFK_FLOAT_DENSE
#define RFK_FLOAT_DENSE 1 /**< dense Fourier, orthogonal and QMC maps on the float path */
#endif
#ifndef RFK_FLOAT_FASTFOOD
#define RFK_FLOAT_FASTFOOD 1 /**< Fastfood on the float path */
#endif
#ifndef RFK_FLOAT_BINNING
#define RFK_FLOAT_BINNING 1 /**< random binning on the float path */
#endif
#ifndef RFK_FLOAT_QUANT
#define RFK_FLOAT_QUANT 1 /**< f16, int8 and f16-scaled storages on the float path */
#endif
#ifndef RFK_FLOAT_INT8
#define RFK_FLOAT_INT8 1 /**< with RFK_FLOAT_QUANT: int8 W, Fastfood diagonals and heads */
#endif
#ifndef RFK_FLOAT_F16
#define RFK_FLOAT_F16 1 /**< with RFK_FLOAT_QUANT: f16 and f16-scaled W, diagonals and heads */
#endif
#ifndef RFK_HEAD_F32
#define RFK_HEAD_F32 1 /**< the float path's f32 head */
#endif
#ifndef RFK_FORM_PAIR
#define RFK_FORM_PAIR 1 /**< Fourier features as [cos, sin] pairs */
#endif
#ifndef RFK_FORM_PHASE
#define RFK_FORM_PHASE 1 /**< Fourier features as cos(Wx + b) */
#endif
#ifndef RFK_LAYOUT_ROWS
#define RFK_LAYOUT_ROWS 1 /**< a row-major W (format 1.0) */
#endif
#ifndef RFK_READ_IMPUTE
#define RFK_READ_IMPUTE 1 /**< the impute section */
#endif
#ifndef RFK_READ_CALIBRATION
#define RFK_READ_CALIBRATION 1 /**< the calibration section */
#endif
#ifndef RFK_READ_NAMES
#define RFK_READ_NAMES 1 /**< the labels and feature_names sections */
#endif
/** @} */

#if defined(RFK_CONFIG_HEADER) && !defined(RFK_PIN_MODEL)
#define RFK_MODEL_CONFIGURED 1
#else
/** 1 where rfk::Model is the configured one (a configuration, not pinned), else 0. */
#define RFK_MODEL_CONFIGURED 0
#endif

#if RFK_MODEL_CONFIGURED
#if RFK_CORE_FLOAT
#define RFK_ML_FLOAT_ 1
#else
#define RFK_ML_FLOAT_ 0
#endif
#if RFK_CORE_FIXED
#define RFK_ML_FIXED_ 1
#else
#define RFK_ML_FIXED_ 0
#endif
/* The float path's own members (feature_scale, mean, inv_scale, head_bias): the integer path
 * reads its own arrays from the fixed section. */
#define RFK_MODEL_HAS_FLOAT RFK_ML_FLOAT_
/* A dense W on the float path (Fourier, orthogonal, QMC): `projection` and, with RFK_MODEL_HAS_QUANT,
 * projection_weights. */
#if RFK_ML_FLOAT_ && (RFK_FLOAT_DENSE)
#define RFK_MODEL_HAS_DENSE 1
#else
#define RFK_MODEL_HAS_DENSE 0
#endif
/* Random binning's members: the float path's grids, or the integer path's hash seed and counts. */
#if (RFK_ML_FLOAT_ && (RFK_FLOAT_BINNING)) || (RFK_ML_FIXED_ && (RFK_FIXED_BINNING))
#define RFK_MODEL_HAS_BINNING 1
#else
#define RFK_MODEL_HAS_BINNING 0
#endif
/* Fastfood's arrays: the float path's only (the integer path's are in the fixed section). */
#if RFK_ML_FLOAT_ && (RFK_FLOAT_FASTFOOD)
#define RFK_MODEL_HAS_FASTFOOD 1
#else
#define RFK_MODEL_HAS_FASTFOOD 0
#endif
/* A Fourier map on either path (fourier_features, num_frequencies): 0, and those two constants 0, in
 * a core that reads binning alone. */
#if (RFK_ML_FLOAT_ && ((RFK_FLOAT_DENSE) || (RFK_FLOAT_FASTFOOD))) || \
    (RFK_ML_FIXED_ && ((RFK_FIXED_DENSE) || (RFK_FIXED_FASTFOOD)))
#define RFK_MODEL_HAS_FOURIER 1
#else
#define RFK_MODEL_HAS_FOURIER 0
#endif
/* The map's kind (`map`) is a constant where the configuration leaves one: kFourier, what a model
 * without map_params leaves, in a core that reads binning alone (it refuses map_params); kFastfood
 * (kFastfoodPhase) in one that reads Fastfood alone, in one form, on the float path alone (OpenModel
 * refuses another kind at map_params.map_kind). RFK_ML_MAP_: that constant's enumerator. */
#if !RFK_MODEL_HAS_FOURIER
#define RFK_MODEL_HAS_MAP 0
#define RFK_ML_MAP_ kFourier
#elif !RFK_ML_FIXED_ && !RFK_MODEL_HAS_DENSE && !RFK_MODEL_HAS_BINNING && !(RFK_FORM_PHASE)
#define RFK_MODEL_HAS_MAP 0
#define RFK_ML_MAP_ kFastfood
#elif !RFK_ML_FIXED_ && !RFK_MODEL_HAS_DENSE && !RFK_MODEL_HAS_BINNING && !(RFK_FORM_PAIR)
#define RFK_MODEL_HAS_MAP 0
#define RFK_ML_MAP_ kFastfoodPhase
#else
#define RFK_MODEL_HAS_MAP 1
#endif
/* The float path's binning members (bin_scale and the grids, bin_inv_width and bin_offset): the
 * integer path reads its own grids from the fixed section. */
#if RFK_MODEL_HAS_BINNING && RFK_ML_FLOAT_ && (RFK_FLOAT_BINNING)
#define RFK_MODEL_HAS_BIN_FLOAT 1
#else
#define RFK_MODEL_HAS_BIN_FLOAT 0
#endif
/* The float phase b (the integer path's is in the fixed section). */
#if RFK_ML_FLOAT_ && (RFK_FORM_PHASE)
#define RFK_MODEL_HAS_PHASE 1
#else
#define RFK_MODEL_HAS_PHASE 0
#endif
/* W's layout: panels, a constant, unless the core reads a row-major W. */
#if RFK_MODEL_HAS_DENSE && (RFK_LAYOUT_ROWS)
#define RFK_MODEL_HAS_LAYOUT 1
#else
#define RFK_MODEL_HAS_LAYOUT 0
#endif
/* Storages other than f32 on the float path: the views (WeightsView) of W and of the head, and
 * the f16 standardisation. A float-only core without them reads f32 alone: `projection` and
 * `head_weights` are then the views' data (ProjectionView, HeadView); a core without the float
 * path reads none of them. (A core with both paths keeps them: a fixed model's unused float arrays
 * may be stored in any storage.) */
#if !RFK_ML_FLOAT_ || (!RFK_ML_FIXED_ && !(RFK_FLOAT_QUANT))
#define RFK_MODEL_HAS_QUANT 0
#else
#define RFK_MODEL_HAS_QUANT 1
#endif
/* An f32 head's pointer (head_weights): null in a core that reads quantized heads only. */
#if RFK_ML_FLOAT_ && (RFK_HEAD_F32)
#define RFK_MODEL_HAS_HEAD_F32 1
#else
#define RFK_MODEL_HAS_HEAD_F32 0
#endif
#if (RFK_READ_NAMES)
#define RFK_MODEL_HAS_NAMES 1
#else
#define RFK_MODEL_HAS_NAMES 0
#endif
#if (RFK_READ_IMPUTE)
#define RFK_MODEL_HAS_IMPUTE 1
#else
#define RFK_MODEL_HAS_IMPUTE 0
#endif
#if (RFK_READ_CALIBRATION)
#define RFK_MODEL_HAS_CALIBRATION 1
#else
#define RFK_MODEL_HAS_CALIBRATION 0
#endif
#define RFK_MODEL_HAS_FIXED RFK_ML_FIXED_
#define RFK_MODEL_HAS_INFO 0

/* The configured Model's size in pointer-wide slots: exact on a 32-bit core, where each member is
 * one 4-byte word (a view 3, Fastfood's storage and G 2, binning 6 and the float path's 2 more,
 * and a word of padding before the 64-bit seed where the words before it are odd in number); on a
 * 64-bit host each member fits one 8-byte slot, an upper bound. 5 are always stored: bytes,
 * input_dim, num_features, task, num_outputs; map where the configuration leaves more than one
 * kind; fourier_features and num_frequencies with a Fourier map, and feature_scale with the float
 * path too; the float path's mean, or with its other storages the standardisation's offset and the
 * head's view (4 slots), W's view 3 more. What the format's arrangement gives is not stored
 * (model.hpp: NumClasses, BinFeatures, StandardizeMean, InvScale, BinOffset, BinKeys, HeadBias,
 * FastfoodOf).
 * RFK_ML_PRE_SEED_: the words before bin_seed (model.hpp's order: 3 of the 5, the map, the Fourier
 * members, the groups before binning, binning's first 3 and bin_scale).
 * include/rfk/rfk.h's handle is this rounded up to 8 bytes; lib/core/capi_handle.h checks that it
 * holds the Model and, on a 32-bit core, that it is not larger than needed. */
#define RFK_ML_PRE_SEED_                                                                            \
  (3 + RFK_MODEL_HAS_MAP + RFK_MODEL_HAS_FOURIER * (2 + RFK_MODEL_HAS_FLOAT) + RFK_MODEL_HAS_LAYOUT +  \
   RFK_MODEL_HAS_QUANT + RFK_MODEL_HAS_DENSE + 3 * RFK_MODEL_HAS_QUANT * RFK_MODEL_HAS_DENSE +           \
   RFK_MODEL_HAS_PHASE + 2 * RFK_MODEL_HAS_FASTFOOD + 3 + RFK_MODEL_HAS_BIN_FLOAT)
#define RFK_ML_SLOTS_                                                                               \
  (5 + RFK_MODEL_HAS_MAP + RFK_MODEL_HAS_FOURIER * (2 + RFK_MODEL_HAS_FLOAT) +                          \
   RFK_MODEL_HAS_FLOAT * (1 - RFK_MODEL_HAS_QUANT) + RFK_MODEL_HAS_DENSE + RFK_MODEL_HAS_LAYOUT +       \
   RFK_MODEL_HAS_QUANT * (4 + 3 * RFK_MODEL_HAS_DENSE) +                                               \
   RFK_MODEL_HAS_PHASE + 2 * RFK_MODEL_HAS_FASTFOOD +                                                  \
   RFK_MODEL_HAS_BINNING * (6 + 2 * RFK_MODEL_HAS_BIN_FLOAT + (RFK_ML_PRE_SEED_ & 1)) +                \
   RFK_MODEL_HAS_HEAD_F32 + 5 * RFK_MODEL_HAS_NAMES + RFK_MODEL_HAS_IMPUTE +                           \
   2 * RFK_MODEL_HAS_CALIBRATION + RFK_MODEL_HAS_FIXED)
#define RFK_MODEL_CONFIGURED_BYTES (RFK_ML_SLOTS_ * sizeof(void*))

#define RFK_ML_CAT_(a, b) a##b
#define RFK_ML_XCAT_(a, b) RFK_ML_CAT_(a, b)
#define RFK_ML_ID_(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o) \
  RFK_ML_CAT_(configured_, a##b##c##d##e##f##g##h##i##j##k##l##m##n##o)
#define RFK_ML_ID2_(...) RFK_ML_ID_(__VA_ARGS__)
#define RFK_MODEL_LAYOUT_ID                                                                        \
  RFK_ML_ID2_(RFK_MODEL_HAS_LAYOUT, RFK_MODEL_HAS_QUANT, RFK_MODEL_HAS_PHASE, RFK_MODEL_HAS_FASTFOOD, \
              RFK_MODEL_HAS_BINNING, RFK_MODEL_HAS_HEAD_F32, RFK_MODEL_HAS_NAMES, RFK_MODEL_HAS_IMPUTE,  \
              RFK_MODEL_HAS_CALIBRATION, RFK_MODEL_HAS_FIXED, RFK_ML_FLOAT_, RFK_MODEL_HAS_DENSE,        \
              RFK_MODEL_HAS_BIN_FLOAT, RFK_MODEL_HAS_FOURIER, RFK_MODEL_HAS_MAP)
#else
/** @name Every group of members is stored (1) outside a configured build
 * @{ */
#define RFK_MODEL_HAS_FLOAT 1       /**< feature_scale, mean, inv_scale, head_bias */
#define RFK_MODEL_HAS_DENSE 1       /**< projection (and projection_weights) */
#define RFK_MODEL_HAS_FOURIER 1     /**< fourier_features, num_frequencies */
#define RFK_MODEL_HAS_MAP 1         /**< map */
#define RFK_MODEL_HAS_BINNING 1     /**< num_grids ... bin_keys */
#define RFK_MODEL_HAS_BIN_FLOAT 1   /**< bin_scale, bin_inv_width, bin_offset */
#define RFK_MODEL_HAS_FASTFOOD 1    /**< fastfood */
#define RFK_MODEL_HAS_PHASE 1       /**< phase */
#define RFK_MODEL_HAS_LAYOUT 1      /**< layout */
#define RFK_MODEL_HAS_QUANT 1       /**< standardize_f16_at (a configured Model's standardize_at), projection_weights, head */
#define RFK_MODEL_HAS_HEAD_F32 1    /**< head_weights */
#define RFK_MODEL_HAS_NAMES 1       /**< label_offsets, label_pool, num_names, name_offsets, name_pool */
#define RFK_MODEL_HAS_IMPUTE 1      /**< impute */
#define RFK_MODEL_HAS_CALIBRATION 1 /**< calibration_method, calibration_params */
#define RFK_MODEL_HAS_FIXED 1       /**< fixed_offset */
#define RFK_MODEL_HAS_INFO 1        /**< total_bytes, the versions, kernel, gamma, seeds, metadata, ... */
/** @} */
#endif

#endif /* RFK_MODEL_LAYOUT_H_ */
