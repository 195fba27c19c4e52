// A small classification set for training tests: n rows of three standard normal columns
// (RandomStream(3, 1), the same rows in every test), each labelled from its first two values.
#pragma once

#include <cstddef>
#include <string>

#include "maps/random.h"
#include "rfk/host/data.hpp"

namespace rfk_test {

template <class Label>
rfk::host::Dataset NormalRows(int n, Label label) {
  rfk::host::Dataset ds;
  ds.source = "t";
  ds.cols = 3;
  rfk::host::RandomStream rs(3, 1);
  for (int i = 0; i < n; ++i) {
    const float a = static_cast<float>(rs.Normal()), b = static_cast<float>(rs.Normal());
    ds.dense.insert(ds.dense.end(), {a, b, static_cast<float>(rs.Normal())});
    ds.labels.push_back(label(a, b));
    ds.lines.push_back(std::size_t(i) + 1);
    ++ds.rows;
  }
  return ds;
}

}  // namespace rfk_test
