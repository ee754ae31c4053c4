// "Did you mean" suggestions for unknown names and attributes, ranked the way CPython 3.11
// ranks them: a Levenshtein distance where a case change costs less than other edits.
#include <algorithm>
#include <cctype>
#include <climits>

#include "host/interp/interpreter.h"

namespace tilec::host {

namespace {

constexpr int kMoveCost = 2;
constexpr int kCaseCost = 1;
constexpr size_t kMaxStringSize = 40;

int SubstitutionCost(char a, char b) {
  if ((a & 31) != (b & 31)) return kMoveCost;
  if (a == b) return 0;
  if (std::tolower((unsigned char)a) == std::tolower((unsigned char)b)) return kCaseCost;
  return kMoveCost;
}

int Distance(std::string a, std::string b, int max_cost) {
  // Common prefix and suffix cost nothing.
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
  a = a.substr(pre);
  b = b.substr(pre);
  while (!a.empty() && !b.empty() && a.back() == b.back()) a.pop_back(), b.pop_back();
  if (a.empty() || b.empty()) return int(a.size() + b.size()) * kMoveCost;
  if (a.size() > kMaxStringSize || b.size() > kMaxStringSize) return max_cost + 1;
  if (b.size() < a.size()) std::swap(a, b);
  if (int(b.size() - a.size()) * kMoveCost > max_cost) return max_cost + 1;
  std::vector<int> row(a.size());
  for (size_t i = 0; i < a.size(); ++i) row[i] = int(i + 1) * kMoveCost;
  int result = 0;
  for (size_t bi = 0; bi < b.size(); ++bi) {
    int distance = int(bi) * kMoveCost;
    result = distance;
    int minimum = INT_MAX;
    for (size_t ai = 0; ai < a.size(); ++ai) {
      int substitute = distance + SubstitutionCost(b[bi], a[ai]);
      distance = row[ai];
      int insert_delete = std::min(result, distance) + kMoveCost;
      result = std::min(insert_delete, substitute);
      row[ai] = result;
      minimum = std::min(minimum, result);
    }
    if (minimum > max_cost) return max_cost + 1;
  }
  return result;
}

}  // namespace

std::string Suggestion(const std::string& name, std::vector<std::string> candidates) {
  std::sort(candidates.begin(), candidates.end());
  std::string best;
  int best_distance = INT_MAX;
  for (const auto& item : candidates) {
    if (item == name) continue;
    int max_distance = int(name.size() + item.size() + 3) * kMoveCost / 6;
    if (best_distance - 1 < max_distance) max_distance = best_distance - 1;
    int d = Distance(name, item, max_distance);
    if (d > max_distance) continue;
    if (best.empty() || d < best_distance) {
      best = item;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace tilec::host
