// Ranks over MPI_COMM_WORLD (rfk/host/ranks.hpp): the only file that includes MPI. Compiled with
// RFK_HAVE_MPI when CMake found MPI (lib/CMakeLists.txt); without, StartMpi throws.
#include "rfk/host/ranks.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "rfk/host/train.hpp"

#ifdef RFK_HAVE_MPI
#define OMPI_SKIP_MPICXX 1  // the C API only: MPI's deprecated C++ bindings need their own library
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace rfk::host {

#ifdef RFK_HAVE_MPI

namespace {

constexpr int kSumTag = 0x72666b;                       // "rfk"
constexpr std::size_t kPieceDoubles = std::size_t{1} << 20;  // 8 MiB per message

class MpiRanks final : public Ranks {
 public:
  MpiRanks() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized) throw TrainError("MPI is already initialised in this process (one StartMpi at a time)");
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
      throw TrainError("MPI_Init_thread failed");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    MPI_Comm_size(local, &local_size_);
    MPI_Comm_free(&local);
  }
  ~MpiRanks() override { MPI_Finalize(); }
  MpiRanks(const MpiRanks&) = delete;
  MpiRanks& operator=(const MpiRanks&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_size() const override { return local_size_; }

  // Point to point into rank 0, in rank order, not MPI_Reduce: MPI leaves a reduction's order of
  // operations to the implementation (and to the process layout).
  void SumInRankOrder(double* v, std::size_t n) override {
    std::vector<double> piece(rank_ == 0 && size_ > 1 ? std::min(n, kPieceDoubles) : 0);
    for (std::size_t o = 0; o < n; o += kPieceDoubles) {
      const std::size_t m = std::min(kPieceDoubles, n - o);
      const int count = static_cast<int>(m);
      if (rank_ == 0) {
        for (int r = 1; r < size_; ++r) {
          MPI_Recv(piece.data(), count, MPI_DOUBLE, r, kSumTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          for (std::size_t i = 0; i < m; ++i) v[o + i] += piece[i];
        }
      } else {
        MPI_Send(v + o, count, MPI_DOUBLE, 0, kSumTag, MPI_COMM_WORLD);
      }
      MPI_Bcast(v + o, count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
  }

  void Broadcast(double* v, std::size_t n, int root) override {
    for (std::size_t o = 0; o < n; o += kPieceDoubles)
      MPI_Bcast(v + o, static_cast<int>(std::min(kPieceDoubles, n - o)), MPI_DOUBLE, root, MPI_COMM_WORLD);
  }

  std::vector<std::uint64_t> AllGather(const std::vector<std::uint64_t>& mine) override {
    std::vector<std::uint64_t> all(mine.size() * static_cast<std::size_t>(size_));
    const int count = static_cast<int>(mine.size());
    MPI_Allgather(mine.data(), count, MPI_UINT64_T, all.data(), count, MPI_UINT64_T, MPI_COMM_WORLD);
    return all;
  }

  [[noreturn]] void Abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);  // MPI_Abort does not return; should it, nothing must run on
  }

 private:
  int rank_ = 0, size_ = 1, local_size_ = 1;
};

}  // namespace

bool MpiBuilt() { return true; }

std::unique_ptr<Ranks> StartMpi() { return std::make_unique<MpiRanks>(); }

#else

bool MpiBuilt() { return false; }

std::unique_ptr<Ranks> StartMpi() {
  throw TrainError(
      "this rfk was built without MPI: --mpi needs Open MPI's development files when rfk is built "
      "(Debian: libopenmpi-dev and openmpi-bin, which scripts/install-deps.sh installs), then a rebuild");
}

#endif

}  // namespace rfk::host
