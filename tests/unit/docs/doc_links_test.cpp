// Every relative link in README.md and docs/*.md must name a file or folder inside the
// repository, so that a reader who clones it never follows a link to nothing (or out of it).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Link {
  int line;
  std::string target;
};

// Inline `[text](target)` and reference `[name]: target` links outside fenced code blocks
// and inline code spans.
std::vector<Link> Links(const fs::path& page) {
  std::ifstream in(page);
  std::vector<Link> links;
  static const std::regex inline_link(R"(\]\(([^)\s]+)(?:\s+"[^"]*")?\))");
  static const std::regex reference(R"(^\s*\[[^\]]+\]:\s*(\S+))");
  bool fenced = false;
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    size_t first = line.find_first_not_of(' ');
    if (first != std::string::npos && line.compare(first, 3, "```") == 0) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    // Drop inline code, where brackets are code, not links.
    std::string text;
    bool code = false;
    for (char c : line) {
      if (c == '`') code = !code;
      else if (!code) text += c;
    }
    for (auto it = std::sregex_iterator(text.begin(), text.end(), inline_link); it != std::sregex_iterator(); ++it)
      links.push_back({n, (*it)[1]});
    std::smatch m;
    if (std::regex_search(text, m, reference)) links.push_back({n, m[1]});
  }
  return links;
}

bool External(const std::string& t) {
  return t.rfind("http://", 0) == 0 || t.rfind("https://", 0) == 0 || t.rfind("mailto:", 0) == 0 || t[0] == '#';
}

std::vector<fs::path> Pages() {
  fs::path root = TILEC_SOURCE_DIR;
  std::vector<fs::path> pages = {root / "README.md"};
  for (auto& e : fs::directory_iterator(root / "docs"))
    if (e.path().extension() == ".md") pages.push_back(e.path());
  return pages;
}

TEST(DocLinks, RelativeLinksResolveInsideTheRepository) {
  fs::path root = fs::weakly_canonical(TILEC_SOURCE_DIR);
  int checked = 0;
  for (const fs::path& page : Pages()) {
    for (const Link& l : Links(page)) {
      if (External(l.target)) continue;
      std::string file = l.target.substr(0, l.target.find('#'));
      fs::path target = fs::weakly_canonical(page.parent_path() / file);
      std::string rel = fs::relative(target, root).string();
      EXPECT_TRUE(fs::exists(target)) << page.filename().string() << ":" << l.line << ": `" << l.target
                                      << "` does not exist";
      EXPECT_FALSE(rel.rfind("..", 0) == 0) << page.filename().string() << ":" << l.line << ": `" << l.target
                                            << "` points outside the repository";
      ++checked;
    }
  }
  EXPECT_GT(checked, 0) << "no links found: is the pattern still right?";
}

TEST(DocLinks, ReadmeLinksTheLanguageReferenceAndTutorial) {
  std::ifstream in(fs::path(TILEC_SOURCE_DIR) / "README.md");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("(docs/language.md)"), std::string::npos);
  EXPECT_NE(text.str().find("(docs/tutorial.rst)"), std::string::npos);
}

}  // namespace
