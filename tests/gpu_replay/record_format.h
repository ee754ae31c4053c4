// The kernel-launch record that the execution tests write under TILEC_GPU_RECORD and that
// gpu_replay reads on a machine without the compiler: a launch, its argument bytes before and
// its array bytes after the CPU run. Header-only over the runtime's headers and std.
//
// A record is two files: NAME.sig, the module as rt::SerializeSignature writes it (PTX inside),
// and NAME.rec: text lines, each blob of bytes following its header line as raw bytes:
//   tilec-gpu-record 1 / test T / kernel K / tiled 0|1 / block_dim B / dim D... /
//   tolerance 0|1 WHY / shape_only I... / regions R
//   region I SIZE
//   array I DTYPE ELEM_SIZE REGION OFFSET NDIM SHAPE... STRIDES...   (byte strides, offset of
//                                                                       element 0 in the region)
//   scalar I DTYPE SIZE\n<bytes>            (DTYPE: a scalar name or struct:NAME)
//   before I NOPS / after I NOPS, then NOPS ops: `W OFF N\n<N bytes>` or `F OFF COUNT W\n<W bytes>`
//   end
// `before` ops apply to a zeroed region, `after` ops to the region's before bytes: large arrays
// that a test fills with one value and a kernel touches in a few places stay a few bytes.
// Arrays whose memory overlaps share one region, so aliasing replays as it ran. A launch that
// could not be recorded leaves only NAME.rec with `skip REASON`.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilec::gpu_record {

inline constexpr int kFormatVersion = 1;

// What the replay must know beyond the signature, computed from the IR at record time.
struct KernelFlags {
  // Float results depend on summation order (atomic adds, float reductions or scans).
  bool tolerant = false;
  std::string why;
  // Parameters (by index) that receive values derived from atomic_add's returned previous
  // values, which depend on the order of concurrent updates (LANGUAGE.md §5).
  std::vector<int> shape_only;
};

struct ArrayArg {
  int region = 0;
  int64_t offset = 0;
  std::vector<int64_t> shape, strides;
};

struct Arg {
  bool is_array = false;
  std::string dtype;  // scalar name or struct:NAME
  uint32_t elem_size = 0;
  ArrayArg array;
  std::vector<uint8_t> bytes;  // scalars and structs
};

struct Record {
  std::string test, kernel, skip;
  bool tiled = false;
  int block_dim = 0;
  std::vector<int64_t> dim;
  KernelFlags flags;
  std::vector<Arg> args;
  std::vector<std::vector<uint8_t>> before, after;
};

// [lo, hi) bytes relative to element 0 that an array view spans; hi == lo when it is empty.
inline void Span(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, uint32_t elem,
                 int64_t& lo, int64_t& hi) {
  lo = hi = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    if (shape[d] <= 0) return;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t ext = (shape[d] - 1) * strides[d];
    (ext < 0 ? lo : hi) += ext;
  }
  hi += elem;
}

// --- writing ------------------------------------------------------------------------------

namespace detail {

inline void Ops(std::string& out, const std::vector<uint8_t>& blob, const std::vector<uint8_t>& base,
                const std::string& head) {
  const size_t n = blob.size();
  auto word_len = [&](size_t i) { return std::min<size_t>(4, n - i); };
  auto changed = [&](size_t i) { return std::memcmp(blob.data() + i, base.data() + i, word_len(i)) != 0; };
  // Changed ranges, word-aligned, merged across short unchanged gaps.
  std::vector<std::pair<size_t, size_t>> ranges;
  for (size_t i = 0; i < n; i += 4) {
    if (!changed(i)) continue;
    size_t end = i + word_len(i);
    if (!ranges.empty() && i - ranges.back().second <= 16) ranges.back().second = end;
    else ranges.push_back({i, end});
  }
  std::string body;
  int nops = 0;
  auto run_at = [&](size_t p, size_t end) {
    size_t k = 1;
    if (p + 4 > end) return size_t(0);
    while (p + (k + 1) * 4 <= end && std::memcmp(blob.data() + p, blob.data() + p + k * 4, 4) == 0) ++k;
    return k;
  };
  auto literal = [&](size_t a, size_t b) {
    if (a >= b) return;
    body += "W " + std::to_string(a) + " " + std::to_string(b - a) + "\n";
    body.append(reinterpret_cast<const char*>(blob.data() + a), b - a);
    ++nops;
  };
  for (auto [a, end] : ranges) {
    size_t lit = a, p = a;
    while (p < end) {
      size_t k = run_at(p, end);
      if (k >= 8) {
        literal(lit, p);
        body += "F " + std::to_string(p) + " " + std::to_string(k) + " 4\n";
        body.append(reinterpret_cast<const char*>(blob.data() + p), 4);
        ++nops;
        p += k * 4;
        lit = p;
      } else {
        p += 4;
      }
    }
    literal(lit, std::min(p, end));
  }
  out += head + " " + std::to_string(nops) + "\n" + body;
}

}  // namespace detail

inline std::string Serialize(const Record& r) {
  std::string out = "tilec-gpu-record " + std::to_string(kFormatVersion) + "\n";
  out += "test " + r.test + "\n";
  out += "kernel " + r.kernel + "\n";
  if (!r.skip.empty()) return out + "skip " + r.skip + "\nend\n";
  out += "tiled " + std::to_string(r.tiled ? 1 : 0) + "\n";
  out += "block_dim " + std::to_string(r.block_dim) + "\n";
  out += "dim";
  for (int64_t d : r.dim) out += " " + std::to_string(d);
  out += "\ntolerance " + std::to_string(r.flags.tolerant ? 1 : 0) + " " + r.flags.why + "\n";
  out += "shape_only";
  for (int i : r.flags.shape_only) out += " " + std::to_string(i);
  out += "\nregions " + std::to_string(r.before.size()) + "\n";
  for (size_t i = 0; i < r.before.size(); ++i)
    out += "region " + std::to_string(i) + " " + std::to_string(r.before[i].size()) + "\n";
  for (size_t i = 0; i < r.args.size(); ++i) {
    const Arg& a = r.args[i];
    if (a.is_array) {
      out += "array " + std::to_string(i) + " " + a.dtype + " " + std::to_string(a.elem_size) + " " +
             std::to_string(a.array.region) + " " + std::to_string(a.array.offset) + " " +
             std::to_string(a.array.shape.size());
      for (int64_t s : a.array.shape) out += " " + std::to_string(s);
      for (int64_t s : a.array.strides) out += " " + std::to_string(s);
      out += "\n";
    } else {
      out += "scalar " + std::to_string(i) + " " + a.dtype + " " + std::to_string(a.bytes.size()) + "\n";
      out.append(reinterpret_cast<const char*>(a.bytes.data()), a.bytes.size());
      out += "\n";
    }
  }
  for (size_t i = 0; i < r.before.size(); ++i) {
    detail::Ops(out, r.before[i], std::vector<uint8_t>(r.before[i].size(), 0), "before " + std::to_string(i));
    detail::Ops(out, r.after[i], r.before[i], "after " + std::to_string(i));
  }
  return out + "end\n";
}

// --- reading ------------------------------------------------------------------------------

// Throws std::runtime_error naming what is wrong; never reads outside `text`.
inline Record Parse(const std::string& text) {
  size_t pos = 0;
  int line_no = 0;
  auto fail = [&](const std::string& why) -> void {
    throw std::runtime_error("line " + std::to_string(line_no) + ": " + why);
  };
  auto line = [&]() {
    if (pos >= text.size()) fail("unexpected end of record");
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) fail("unterminated line");
    std::string l = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    return l;
  };
  auto words = [](const std::string& l) {
    std::vector<std::string> w;
    size_t i = 0;
    while (i < l.size()) {
      size_t j = l.find(' ', i);
      if (j == std::string::npos) j = l.size();
      if (j > i) w.push_back(l.substr(i, j - i));
      i = j + 1;
    }
    return w;
  };
  auto num = [&](const std::string& s) -> int64_t {
    size_t used = 0;
    int64_t v = 0;
    try {
      v = std::stoll(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != s.size() || s.empty()) fail("not a number: `" + s + "`");
    return v;
  };
  auto bytes = [&](int64_t n) {
    if (n < 0 || uint64_t(n) > text.size() - pos) fail("byte block runs past the end");
    std::vector<uint8_t> b(text.begin() + pos, text.begin() + pos + n);
    pos += size_t(n);
    if (pos < text.size() && text[pos] == '\n') ++pos;  // scalar blocks end their line
    return b;
  };
  auto expect = [&](const std::string& key) {
    std::vector<std::string> w = words(line());
    if (w.empty() || w[0] != key) fail("expected `" + key + "`");
    return w;
  };
  // Large enough for any test array, small enough that a corrupted size cannot exhaust memory.
  constexpr int64_t kMaxRegion = int64_t(1) << 31;

  Record r;
  std::vector<std::string> w = expect("tilec-gpu-record");
  if (w.size() != 2 || num(w[1]) != kFormatVersion) fail("unsupported record version");
  std::string l = line();
  if (l.rfind("test ", 0) != 0) fail("expected `test`");
  r.test = l.substr(5);
  w = expect("kernel");
  if (w.size() != 2) fail("expected one kernel name");
  r.kernel = w[1];
  l = line();
  if (l.rfind("skip ", 0) == 0) {
    r.skip = l.substr(5);
    return r;
  }
  w = words(l);
  if (w.size() != 2 || w[0] != "tiled") fail("expected `tiled`");
  r.tiled = num(w[1]) != 0;
  w = expect("block_dim");
  if (w.size() != 2) fail("expected one block_dim");
  r.block_dim = int(num(w[1]));
  w = expect("dim");
  if (w.size() < 2 || w.size() > 5) fail("dim needs 1 to 4 extents");
  for (size_t i = 1; i < w.size(); ++i) r.dim.push_back(num(w[i]));
  l = line();
  if (l.rfind("tolerance ", 0) != 0 || l.size() < 11) fail("expected `tolerance`");
  r.flags.tolerant = l[10] == '1';
  r.flags.why = l.size() > 12 ? l.substr(12) : "";
  w = expect("shape_only");
  for (size_t i = 1; i < w.size(); ++i) r.flags.shape_only.push_back(int(num(w[i])));
  w = expect("regions");
  if (w.size() != 2) fail("expected a region count");
  int64_t nregions = num(w[1]);
  if (nregions < 0 || nregions > 64) fail("bad region count");
  for (int64_t i = 0; i < nregions; ++i) {
    w = expect("region");
    if (w.size() != 3 || num(w[1]) != i) fail("regions out of order");
    int64_t size = num(w[2]);
    if (size < 0 || size > kMaxRegion) fail("bad region size");
    r.before.emplace_back(size_t(size), 0);
  }
  for (;;) {
    l = line();
    w = words(l);
    if (w.empty()) fail("empty line");
    if (w[0] == "array") {
      if (w.size() < 7) fail("short array line");
      if (num(w[1]) != int64_t(r.args.size())) fail("arguments out of order");
      Arg a;
      a.is_array = true;
      a.dtype = w[2];
      a.elem_size = uint32_t(num(w[3]));
      a.array.region = int(num(w[4]));
      a.array.offset = num(w[5]);
      int64_t nd = num(w[6]);
      if (nd < 1 || nd > 4 || w.size() != size_t(7 + 2 * nd)) fail("bad array dimensions");
      for (int64_t d = 0; d < nd; ++d) a.array.shape.push_back(num(w[7 + d]));
      for (int64_t d = 0; d < nd; ++d) a.array.strides.push_back(num(w[7 + nd + d]));
      if (a.array.region < 0 || a.array.region >= int(nregions)) fail("array names no region");
      int64_t lo, hi;
      for (int64_t s : a.array.shape)
        if (s < 0 || s > kMaxRegion) fail("bad array shape");
      for (int64_t s : a.array.strides)
        if (s < -kMaxRegion || s > kMaxRegion) fail("bad array stride");
      if (a.elem_size == 0 || a.elem_size > 4096) fail("bad element size");
      Span(a.array.shape, a.array.strides, a.elem_size, lo, hi);
      const int64_t size = int64_t(r.before[size_t(a.array.region)].size());
      if (hi > lo && (a.array.offset + lo < 0 || a.array.offset + hi > size))
        fail("array spans bytes outside its region");
      r.args.push_back(std::move(a));
    } else if (w[0] == "scalar") {
      if (w.size() != 4) fail("short scalar line");
      if (num(w[1]) != int64_t(r.args.size())) fail("arguments out of order");
      Arg a;
      a.dtype = w[2];
      int64_t n = num(w[3]);
      if (n < 1 || n > 4096) fail("bad scalar size");
      a.elem_size = uint32_t(n);
      a.bytes = bytes(n);
      r.args.push_back(std::move(a));
    } else if (w[0] == "before" || w[0] == "after") {
      if (w.size() != 3) fail("short " + w[0] + " line");
      int64_t ri = num(w[1]);
      if (ri < 0 || ri >= nregions) fail(w[0] + " names no region");
      if (w[0] == "after") {
        if (int64_t(r.after.size()) != ri) fail("after out of order");
        r.after.push_back(r.before[size_t(ri)]);
      } else if (!r.after.empty() && int64_t(r.after.size()) != ri) {
        fail("before out of order");
      }
      std::vector<uint8_t>& dst = w[0] == "after" ? r.after.back() : r.before[size_t(ri)];
      int64_t nops = num(w[2]);
      if (nops < 0) fail("bad op count");
      for (int64_t k = 0; k < nops; ++k) {
        std::vector<std::string> op = words(line());
        if (op.size() == 3 && op[0] == "W") {
          int64_t off = num(op[1]), n = num(op[2]);
          if (off < 0 || n < 0 || off + n > int64_t(dst.size())) fail("write outside the region");
          std::vector<uint8_t> b = bytes(n);
          std::copy(b.begin(), b.end(), dst.begin() + off);
        } else if (op.size() == 4 && op[0] == "F") {
          int64_t off = num(op[1]), count = num(op[2]), width = num(op[3]);
          if (off < 0 || count < 0 || width < 1 || width > 64 || count > int64_t(dst.size()) ||
              off + count * width > int64_t(dst.size()))
            fail("fill outside the region");
          std::vector<uint8_t> b = bytes(width);
          for (int64_t c = 0; c < count; ++c) std::copy(b.begin(), b.end(), dst.begin() + off + c * width);
        } else {
          fail("bad op");
        }
      }
    } else if (w[0] == "end") {
      break;
    } else {
      fail("unknown line `" + w[0] + "`");
    }
  }
  if (r.after.size() != r.before.size()) fail("a region has no `after` bytes");
  for (int i : r.flags.shape_only)
    if (i < 0 || i >= int(r.args.size()) || !r.args[size_t(i)].is_array) fail("shape_only names no array");
  return r;
}

}  // namespace tilec::gpu_record
