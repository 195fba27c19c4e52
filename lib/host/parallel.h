// Host-only: run fn(t) for t in [0, threads) on that many threads (t = 0 on the caller), then
// join. Callers partition work by t in a fixed way so results never depend on scheduling.
// An exception from any fn(t) (std::bad_alloc under memory pressure, say) is rethrown on the
// caller once every thread has joined -- never std::terminate from an escaping exception.
#pragma once

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace rfk::host {

template <typename Fn>
void Parallel(unsigned threads, Fn&& fn) {
  std::exception_ptr first;
  std::mutex mu;
  auto run = [&](unsigned t) {
    try {
      fn(t);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mu);
      if (!first) first = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads > 0 ? threads - 1 : 0);
  try {
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(run, t);
  } catch (...) {  // a thread could not start: run its share on the caller instead
    for (unsigned t = static_cast<unsigned>(pool.size()) + 1; t < threads; ++t) run(t);
  }
  run(0);
  for (auto& th : pool) th.join();
  if (first) std::rethrow_exception(first);
}

}  // namespace rfk::host
