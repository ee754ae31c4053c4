// Tile print layout: which dimensions roll over at an element decides its separator.
#include "codegen/common/print_layout.h"

namespace tilec::codegen {

llvm::Value* TileElementPrefix(llvm::IRBuilder<>& b, const ir::Type& t, llvm::Value* e) {
  const int n = t.ndim;
  // Separator when c inner dimensions roll over: c closing brackets, c newlines, n - c spaces
  // of indent and c opening brackets ("]\n [" between rows, "]]\n\n [[" between 2-D blocks).
  llvm::Value* sep = b.CreateGlobalStringPtr(" ");
  int64_t period = 1;
  for (int c = 1; c < n; ++c) {
    period *= t.shape[n - c];
    const std::string s = std::string(size_t(c), ']') + std::string(size_t(c), '\n') + std::string(size_t(n - c), ' ') +
                          std::string(size_t(c), '[');
    // Periods nest (each divides the next), so the outermost one that divides e wins.
    sep = b.CreateSelect(b.CreateICmpEQ(b.CreateURem(e, b.getInt64(period)), b.getInt64(0)),
                         b.CreateGlobalStringPtr(s), sep);
  }
  return b.CreateSelect(b.CreateICmpEQ(e, b.getInt64(0)), b.CreateGlobalStringPtr(std::string(size_t(n), '[')), sep);
}

std::string TileClose(const ir::Type& t) { return std::string(size_t(t.ndim), ']'); }

}  // namespace tilec::codegen
