// Helpers for execution tests: host buffers viewed as tilec_array (any shape, element
// strides), and launching a compiled entry over a grid on the calling thread.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/include/tilec/abi.h"

namespace tilec::testing {

// A view over `data` (not owned). Strides are in elements; empty means row-major.
template <class T>
tilec_array View(T* data, std::vector<int64_t> shape, std::vector<int64_t> strides = {}) {
  tilec_array a{};
  a.data = data;
  a.grad = nullptr;
  int nd = int(shape.size());
  if (strides.empty()) {
    strides.assign(nd, 1);
    for (int d = nd - 2; d >= 0; --d) strides[d] = strides[d + 1] * shape[d + 1];
  }
  for (int d = 0; d < TILEC_MAX_DIMS; ++d) {
    a.shape[d] = d < nd ? shape[d] : 1;
    a.strides[d] = d < nd ? strides[d] * int64_t(sizeof(T)) : 0;
  }
  return a;
}

// Runs the grid `dim` (1-4 extents) through `entry`, all indices in one call.
inline void Launch(void* entry, std::vector<void*> args, std::vector<int64_t> dim, int block_dim = 0) {
  ASSERT_NE(entry, nullptr);
  tilec_launch l{};
  l.ndim = int32_t(dim.size());
  int64_t total = 1;
  for (int d = 0; d < TILEC_MAX_DIMS; ++d) {
    l.dim[d] = d < int(dim.size()) ? dim[d] : 1;
    total *= l.dim[d];
  }
  l.block_dim = block_dim;
  reinterpret_cast<tilec_cpu_kernel_fn>(entry)(args.data(), &l, 0, total);
}

// Concurrent atomic adds to one destination may land in any order (LANGUAGE.md §5), so the
// previous values they return are checked against the semantics rather than one order: they
// must be those of SOME sequential order. Each contribution is (previous value, addend); from
// `initial`, every step must find an unused contribution whose previous value equals the
// running value (greedy is enough: equal previous values mean interchangeable steps), and the
// last running value must be `final_value`. `add` rounds as the destination type does.
template <class T, class Add>
::testing::AssertionResult SomeOrderExplains(T initial, std::vector<std::pair<T, T>> contributions,
                                             Add add, T final_value) {
  T cur = initial;
  std::vector<bool> used(contributions.size(), false);
  for (size_t step = 0; step < contributions.size(); ++step) {
    size_t k = 0;
    while (k < contributions.size() && (used[k] || !(contributions[k].first == cur))) ++k;
    if (k == contributions.size())
      return ::testing::AssertionFailure() << "no update returned the running value at step " << step;
    used[k] = true;
    cur = add(cur, contributions[k].second);
  }
  if (!(cur == final_value)) return ::testing::AssertionFailure() << "the final value is not the sum of the updates";
  return ::testing::AssertionSuccess();
}

}  // namespace tilec::testing
