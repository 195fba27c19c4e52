// Host-only: run fn(t) for t in [0, threads) on that many threads (t = 0 on the caller), then
// join. Callers partition work by t in a fixed way so results never depend on scheduling.
#pragma once

#include <thread>
#include <vector>

namespace rfk::host {

template <typename Fn>
void Parallel(unsigned threads, Fn&& fn) {
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back([&fn, t] { fn(t); });
  fn(0);
  for (auto& th : pool) th.join();
}

}  // namespace rfk::host
