// The CLI's glibc heap policy, in one place (other C libraries: no-ops).
//
// KeepFreedBlocks (`rfk train`, once the data are read whole, unless --memory-limit is given):
// freed blocks of up to 64 MiB stay in the heap for reuse instead of going back to the kernel.
// Training allocates and frees arrays of a few MiB per cross-validation point (features, kernel
// matrices, fold systems); glibc's default returns each to the kernel, so the next one is paid
// again in page faults and zeroing -- about 0.3 s of a 1.3 s default `rfk train` on 1,000 rows
// (perf, 2-core AMD EPYC). Larger blocks are still mapped and unmapped on their own.
//
// What the heap keeps is not in rfk's memory estimate (rfk/host/train.hpp, EstimateTrainingMemory),
// so it is not set where memory is what the run is about: for the reader (a file read whole grows
// its arrays by doubling, and kept, the outgrown ones made the peak 336 MiB for 960,000 rows x 54
// against an estimate of 263 MiB and 272 MiB without), for a streamed run, or under
// --memory-limit. Every other command runs on glibc's defaults.
//
// BoundHeap (a streamed run, or one under --memory-limit): fixed small thresholds -- blocks from
// 128 KiB mapped on their own, the heap's free top trimmed past 128 KiB -- where glibc's default
// raises its threshold as large blocks are freed and then keeps them: the same file streamed under
// `--memory-limit 48M` peaked at 42.9 MiB on the defaults and 36.6 MiB so (estimate 38.3 MiB).
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace rfk::cli {

inline void KeepFreedBlocks() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

inline void BoundHeap() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 128 << 10);
  mallopt(M_TRIM_THRESHOLD, 128 << 10);
#endif
}

}  // namespace rfk::cli
