// A source buffer and the mapping from byte offsets to 1-based line and column. A buffer cut
// out of a larger file (a doc page's testcode block) keeps its place: line_base and col_base.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

struct SourceRange {
  uint32_t begin = 0;  // byte offset of the first character
  uint32_t end = 0;    // one past the last character; end == begin marks a point
};

struct LineCol {
  int line = 0;  // 1-based, in the enclosing file when line_base is set
  int col = 0;   // 1-based, in bytes
};

class SourceFile {
 public:
  SourceFile(std::string path, std::string text, int line_base = 0, int col_base = 0);
  static bool Load(const std::string& path, std::string& text_out, std::string& error_out);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  LineCol Locate(uint32_t offset) const;
  // Text of the (buffer-relative, 0-based) line that holds `offset`, without its newline.
  std::string_view LineText(uint32_t offset) const;
  uint32_t LineStart(uint32_t offset) const;
  int line_base() const { return line_base_; }
  int col_base() const { return col_base_; }

 private:
  std::string path_;
  std::string text_;
  int line_base_;
  int col_base_;
  std::vector<uint32_t> line_starts_;
};

}  // namespace tilec
