// Line tables for source buffers and file loading.
#include "support/source.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace tilec {

SourceFile::SourceFile(std::string path, std::string text, int line_base, int col_base)
    : path_(std::move(path)), text_(std::move(text)), line_base_(line_base), col_base_(col_base) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
    else if (text_[i] == '\r' && (i + 1 >= text_.size() || text_[i + 1] != '\n'))
      line_starts_.push_back(i + 1);
  }
}

bool SourceFile::Load(const std::string& path, std::string& text_out, std::string& error_out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error_out = "cannot open `" + path + "`";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  text_out = ss.str();
  return true;
}

uint32_t SourceFile::LineStart(uint32_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  return *(it - 1);
}

LineCol SourceFile::Locate(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, uint32_t(text_.size()));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  int line = int(it - line_starts_.begin());
  return {line + line_base_, int(offset - *(it - 1)) + 1 + col_base_};
}

std::string_view SourceFile::LineText(uint32_t offset) const {
  uint32_t start = LineStart(std::min<uint32_t>(offset, uint32_t(text_.size())));
  uint32_t end = start;
  while (end < text_.size() && text_[end] != '\n' && text_[end] != '\r') ++end;
  return std::string_view(text_).substr(start, end - start);
}

}  // namespace tilec
