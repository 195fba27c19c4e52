// Included first by every source of the device core (and of the SIMD backends): no multiply-add
// in these files is fused by the compiler, whatever the build's flags. The core's results are
// specified to the bit (every platform computes identical scalar features, and so does the host
// trainer where it does not fuse: lib/host/maps/block_kernels.h),
// and GCC contracts a*b+c into one fused operation by default in its GNU modes
// (-ffp-contract=fast) wherever the target has FMA (Cortex-M4F/M7/M33, x86 with -march, ...):
// a firmware build of these sources with its own flags would then differ from the host in the
// last bits. Explicit fused operations (the SIMD backends' MulAdd) are unaffected. Private header:
// never included by a public one, so a consumer's own code keeps its own rules.
#ifndef RFK_CORE_FP_CONTRACT_H_
#define RFK_CORE_FP_CONTRACT_H_
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#endif  // RFK_CORE_FP_CONTRACT_H_
