/// @file
/// Distributed training: the processes of one training run (ranks), each reading its share of the
/// rows, and the reduction that sums each pass's statistics across them in a fixed order. The
/// interface names no MPI type: a build without MPI compiles it and gets a clear error from
/// StartMpi. The one implementation is MPI's (lib/host/training/mpi_ranks.cc, Open MPI).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace rfk::host {

/// The processes of a distributed training run (TrainOptions::ranks; StartMpi makes the MPI one):
/// what each rank needs of the others, as collective operations every rank calls in the same order.
class Ranks {
 public:
  virtual ~Ranks() = default;
  virtual int rank() const = 0;  ///< this process: 0 .. size() - 1; rank 0 writes the model
  virtual int size() const = 0;  ///< P
  virtual int local_size() const = 0;  ///< ranks on this machine (shared memory), this one included
  /// Every rank calls it with the same n: v becomes the sum of the ranks' v, added in rank order,
  /// ((v_0 + v_1) + v_2) + ..., on rank 0 and then broadcast, so every rank holds the same bits.
  /// Sends at most 8 MiB at a time; rank 0 holds one such piece besides v.
  virtual void SumInRankOrder(double* v, std::size_t n) = 0;
  /// v (n doubles, the same n on every rank) becomes rank `root`'s v on every rank, bit for bit.
  virtual void Broadcast(double* v, std::size_t n, int root) = 0;
  /// Every rank's `mine` (the same length on every rank), rank after rank, on every rank.
  virtual std::vector<std::uint64_t> AllGather(const std::vector<std::uint64_t>& mine) = 0;
  /// Ends every rank's process with `code` (a rank that fails alone must not leave the others
  /// waiting in a reduction). Does not return.
  [[noreturn]] virtual void Abort(int code) = 0;
};

/// Whether this rfk was built with MPI (CMake found MPI's C bindings).
bool MpiBuilt();

/// MPI_COMM_WORLD, MPI initialised (MPI_THREAD_FUNNELED: rfk calls MPI from the main thread only)
/// and finalised when the result is destroyed; at most one at a time. Outside mpirun, one rank.
/// Throws TrainError in a build without MPI.
std::unique_ptr<Ranks> StartMpi();

}  // namespace rfk::host
