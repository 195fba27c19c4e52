#!/bin/bash
# Profiles one MPI rank: `mpirun -np P bench/mpi_perf_rank.sh rfk train ... --mpi` runs each rank
# under `perf record -e cpu-clock -g` (software clock: works in VMs without hardware counters) and
# writes /tmp/mpiperf.RANK; then `perf report -i /tmp/mpiperf.0 --no-children --sort dso,sym`.
# PERF names another perf binary. (docs/PERFORMANCE.md, "Strong scaling on a 16-core Xeon".)
exec "${PERF:-perf}" record -q -e cpu-clock -F 499 -g -o "/tmp/mpiperf.${OMPI_COMM_WORLD_RANK:-0}" "$@"
