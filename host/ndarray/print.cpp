// array str/repr as NumPy 1.24's arrayprint does it: element formatters chosen from the (corner
// of the) data, common padding, `...` summarization and line wrapping with hanging indents.
#include "host/ndarray/print.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "host/ndarray/elements.h"
#include "host/ndarray/float_format.h"

namespace tilec::host {

namespace {

constexpr int kPrecision = 8;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int kLineWidth = 75;

std::string ExponentText(int e, int min_digits) {
  std::string digits = std::to_string(std::abs(e));
  if (static_cast<int>(digits.size()) < min_digits)
    digits = std::string(min_digits - digits.size(), '0') + digits;
  return std::string(e < 0 ? "-" : "+") + digits;
}

std::string Sign(const FloatText& t) { return t.negative ? "-" : ""; }

using Formatter = std::function<std::string(const Scalar&)>;

// NumPy's FloatingFormat in 'maxprec' mode with precision 8 and sign '-'.
class FloatFormatter {
 public:
  // `plus`: sign '+', as the imaginary parts of complex arrays print (`+2.j`).
  FloatFormatter(const std::vector<double>& data, ScalarType t, bool plus = false) : type_(t), plus_(plus) {
    std::vector<double> finite;
    bool has_nonfinite = false, neg_inf = false;
    for (double v : data) {
      if (std::isfinite(v)) finite.push_back(v);
      else has_nonfinite = true;
      if (std::isinf(v) && v < 0) neg_inf = true;
    }
    double max_val = -1, min_val = -1;
    for (double v : finite) {
      double a = std::fabs(v);
      if (a == 0) continue;
      if (max_val < 0 || a > max_val) max_val = a;
      if (min_val < 0 || a < min_val) min_val = a;
    }
    if (max_val > 0) {
      // The ratio is computed in the array's own dtype, so it may round or overflow there.
      double ratio = RoundToFloatType(max_val / min_val, t);
      exp_format_ = max_val >= 1e8 || min_val < 0.0001 || ratio > 1000.0;
    }
    if (finite.empty()) {
      pad_left_ = pad_right_ = 0;
    } else if (exp_format_) {
      int exp_len = 0;
      precision_ = 0;
      for (double v : finite) {
        FloatText s = ScientificDigits(v, t, kPrecision);
        precision_ = std::max(precision_, static_cast<int>(s.frac_part.size()));
        exp_len = std::max(exp_len, static_cast<int>(ExponentText(s.exponent, 2).size()));
        pad_left_ = std::max(pad_left_, static_cast<int>(SignOf(s).size() + s.int_part.size()));
      }
      exp_size_ = exp_len - 1;
      pad_right_ = exp_size_ + 2 + precision_;
    } else {
      for (double v : finite) {
        FloatText s = PositionalDigits(v, t, kPrecision);
        pad_left_ = std::max(pad_left_, static_cast<int>(SignOf(s).size() + s.int_part.size()));
        pad_right_ = std::max(pad_right_, static_cast<int>(s.frac_part.size()));
      }
    }
    if (has_nonfinite) {
      int offset = pad_right_ + 1;
      pad_left_ = std::max({pad_left_, 3 - offset, 3 + (neg_inf || plus_ ? 1 : 0) - offset});
    }
  }

  std::string operator()(double v) const {
    if (!std::isfinite(v)) {
      std::string r = std::isnan(v) ? "nan" : v < 0 ? "-inf" : "inf";
      if (plus_ && r[0] != '-') r = "+" + r;
      int width = pad_left_ + pad_right_ + 1;
      return std::string(std::max<int>(0, width - static_cast<int>(r.size())), ' ') + r;
    }
    if (exp_format_) {
      FloatText s = ScientificDigits(v, type_, precision_, precision_);
      std::string frac = s.frac_part;
      frac.resize(precision_, '0');
      std::string head = SignOf(s) + s.int_part;
      return PadLeft(head) + "." + frac + "e" + ExponentText(s.exponent, exp_size_);
    }
    FloatText s = PositionalDigits(v, type_, kPrecision, 0);
    std::string frac = s.frac_part;
    frac.resize(std::max<size_t>(frac.size(), pad_right_), ' ');
    return PadLeft(SignOf(s) + s.int_part) + "." + frac;
  }

 private:
  std::string SignOf(const FloatText& s) const { return s.negative ? "-" : plus_ ? "+" : ""; }

  std::string PadLeft(const std::string& s) const {
    int n = pad_left_ - static_cast<int>(s.size());
    return n > 0 ? std::string(n, ' ') + s : s;
  }

  ScalarType type_;
  bool plus_ = false;
  bool exp_format_ = false;
  int precision_ = kPrecision;
  int pad_left_ = 0, pad_right_ = 0, exp_size_ = -1;
};

std::string IntText(const Scalar& s) {
  return s.kind == Scalar::Kind::UInt ? std::to_string(s.u) : std::to_string(s.AsInt());
}

// `nonscalar`: the data NumPy builds the formatter from is not 0-d (bools then pad `True`).
Formatter MakeFormatter(ScalarType t, bool nonscalar, const std::vector<Scalar>& data) {
  if (t == ScalarType::Bool) {
    std::string true_text = nonscalar ? " True" : "True";
    return [true_text](const Scalar& s) { return s.b ? true_text : std::string("False"); };
  }
  if (IsInteger(t)) {
    size_t width = 0;
    for (const Scalar& s : data) width = std::max(width, IntText(s).size());
    return [width](const Scalar& s) {
      std::string text = IntText(s);
      return std::string(width > text.size() ? width - text.size() : 0, ' ') + text;
    };
  }
  std::vector<double> values;
  values.reserve(data.size());
  for (const Scalar& s : data) values.push_back(s.f);
  auto f = std::make_shared<FloatFormatter>(values, t);
  return [f](const Scalar& s) { return (*f)(s.f); };
}

// The elements NumPy's _leading_trailing keeps: each long axis contributes its first and last
// kEdgeItems entries. `visit` gets the address of each.
void VisitCorners(const Shape& shape, const std::vector<int64_t>& strides, bool summarize,
                  size_t axis, const uint8_t* p, const std::function<void(const uint8_t*)>& visit) {
  if (axis == shape.size()) {
    visit(p);
    return;
  }
  int64_t n = shape[axis];
  for (int64_t i = 0; i < n; ++i) {
    if (summarize && n > 2 * kEdgeItems && i == kEdgeItems) i = n - kEdgeItems;
    VisitCorners(shape, strides, summarize, axis + 1, p + i * strides[axis], visit);
  }
}

using ElementText = std::function<std::string(const std::vector<int64_t>& index)>;

struct ArrayPrinter {
  const Shape& shape;
  const ElementText& element;
  std::string separator;
  bool summarize;

  static void ExtendLine(std::string& s, std::string& line, const std::string& word,
                         size_t line_width, const std::string& next_line_prefix) {
    bool needs_wrap = line.size() + word.size() > line_width;
    if (line.size() <= next_line_prefix.size()) needs_wrap = false;
    if (needs_wrap) {
      size_t end = line.find_last_not_of(' ');
      s += (end == std::string::npos ? std::string() : line.substr(0, end + 1)) + "\n";
      line = next_line_prefix;
    }
    line += word;
  }

  std::string Recurse(std::vector<int64_t>& index, const std::string& hanging_indent,
                      int curr_width) const {
    size_t axis = index.size();
    size_t axes_left = shape.size() - axis;
    if (axes_left == 0) return element(index);
    std::string next_hanging_indent = hanging_indent + " ";
    int next_width = curr_width - 1;
    int64_t a_len = shape[axis];
    bool show_summary = summarize && 2 * kEdgeItems < a_len;
    int64_t leading = show_summary ? kEdgeItems : 0;
    int64_t trailing = show_summary ? kEdgeItems : a_len;
    auto nested = [&](int64_t i) {
      index.push_back(i);
      std::string r = Recurse(index, next_hanging_indent, next_width);
      index.pop_back();
      return r;
    };
    std::string s;
    std::string sep_trimmed = separator.substr(0, separator.find_last_not_of(' ') + 1);
    if (axes_left == 1) {
      size_t elem_width = curr_width - std::max<size_t>(sep_trimmed.size(), 1);
      std::string line = hanging_indent;
      for (int64_t i = 0; i < leading; ++i) {
        ExtendLine(s, line, nested(i), elem_width, hanging_indent);
        line += separator;
      }
      if (show_summary) {
        ExtendLine(s, line, "...", elem_width, hanging_indent);
        line += separator;
      }
      for (int64_t i = trailing; i > 1; --i) {
        ExtendLine(s, line, nested(a_len - i), elem_width, hanging_indent);
        line += separator;
      }
      ExtendLine(s, line, nested(a_len - 1), elem_width, hanging_indent);
      s += line;
    } else {
      std::string line_sep = sep_trimmed + std::string(axes_left - 1, '\n');
      for (int64_t i = 0; i < leading; ++i) s += hanging_indent + nested(i) + line_sep;
      if (show_summary) s += hanging_indent + "..." + line_sep;
      for (int64_t i = trailing; i > 1; --i) s += hanging_indent + nested(a_len - i) + line_sep;
      s += hanging_indent + nested(a_len - 1);
    }
    return "[" + s.substr(hanging_indent.size()) + "]";
  }
};

// NumPy's array2string for a non-empty array (or a 0-d one).
std::string Array2String(const NdArray& a, const std::string& separator, const std::string& prefix,
                         int line_width) {
  bool summarize = a.size() > kThreshold;
  std::vector<Scalar> data;
  VisitCorners(a.shape(), a.strides(), summarize, 0, static_cast<const uint8_t*>(a.data()),
               [&](const uint8_t* p) { data.push_back(LoadScalar(p, a.dtype())); });
  Formatter format = MakeFormatter(a.dtype(), a.ndim() > 0, data);
  ElementText element = [&](const std::vector<int64_t>& index) { return format(a.Get(index)); };
  ArrayPrinter printer{a.shape(), element, separator, summarize};
  std::vector<int64_t> index;
  return printer.Recurse(index, " " + std::string(prefix.size(), ' '), line_width);
}

// NumPy's ComplexFloatingFormat: real and imaginary parts formatted as two float arrays, the
// imaginary ones with an explicit sign and `j` before their padding. `parts` ends in (re, im).
std::string Complex2String(const NdArray& parts, const std::string& separator, const std::string& prefix,
                           int line_width) {
  Shape shape(parts.shape().begin(), parts.shape().end() - 1);
  std::vector<int64_t> strides(parts.strides().begin(), parts.strides().end() - 1);
  const int64_t im_offset = parts.strides().back();
  const ScalarType t = parts.dtype();
  const bool summarize = ShapeSize(shape) > kThreshold;
  std::vector<double> re, im;
  VisitCorners(shape, strides, summarize, 0, static_cast<const uint8_t*>(parts.data()), [&](const uint8_t* p) {
    re.push_back(LoadFloat(p, t));
    im.push_back(LoadFloat(p + im_offset, t));
  });
  FloatFormatter re_format(re, t), im_format(im, t, /*plus=*/true);
  ElementText element = [&](const std::vector<int64_t>& index) {
    std::vector<int64_t> at = index;
    at.push_back(0);
    const std::string r = re_format(parts.GetDouble(at));
    at.back() = 1;
    std::string i = im_format(parts.GetDouble(at));
    const size_t end = i.find_last_not_of(' ') + 1;
    return r + i.substr(0, end) + "j" + i.substr(end);
  };
  ArrayPrinter printer{shape, element, separator, summarize};
  std::vector<int64_t> index;
  return printer.Recurse(index, " " + std::string(prefix.size(), ' '), line_width);
}

// NumPy's StructuredVoidFormat: one formatter per field, each made from that field's values
// in `records` (the corners of the array), subarray fields as SubArrayFormat writes them.
using RecordFormatter = std::function<std::string(const uint8_t* record)>;

RecordFormatter MakeRecordFormatter(const RecordType& type, const std::vector<const uint8_t*>& records,
                                    bool nonscalar) {
  std::vector<RecordFormatter> parts;
  for (const RecordField& f : type.fields) {
    if (f.record) {
      std::vector<const uint8_t*> inner;
      for (const uint8_t* p : records) inner.push_back(p + f.offset);
      RecordFormatter nested = MakeRecordFormatter(*f.record, inner, nonscalar);
      parts.push_back([nested, off = f.offset](const uint8_t* p) { return nested(p + off); });
      continue;
    }
    int64_t count = 1;
    for (int64_t d : f.sub) count *= d;
    int64_t es = static_cast<int64_t>(ScalarSize(f.scalar));
    std::vector<Scalar> data;
    for (const uint8_t* p : records)
      for (int64_t k = 0; k < count; ++k) data.push_back(LoadScalar(p + f.offset + k * es, f.scalar));
    Formatter fmt = MakeFormatter(f.scalar, nonscalar || !f.sub.empty(), data);
    ScalarType t = f.scalar;
    Shape sub = f.sub;
    int64_t off = f.offset;
    parts.push_back([fmt, t, sub, off, es](const uint8_t* p) {
      // Subarrays always separate with ", ", in str as in repr (NumPy 1.24).
      std::function<std::string(size_t, const uint8_t*)> nest = [&](size_t axis, const uint8_t* q) {
        if (axis == sub.size()) return fmt(LoadScalar(q, t));
        int64_t inner = es;
        for (size_t d = axis + 1; d < sub.size(); ++d) inner *= sub[d];
        std::string s = "[";
        for (int64_t i = 0; i < sub[axis]; ++i) s += (i ? ", " : "") + nest(axis + 1, q + i * inner);
        return s + "]";
      };
      return nest(0, p + off);
    });
  }
  return [parts](const uint8_t* p) {
    std::string s = "(";
    for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i](p);
    return s + (parts.size() == 1 ? ",)" : ")");
  };
}

const uint8_t* RecordPtr(const RecordArray& a, const std::vector<int64_t>& index) {
  const uint8_t* p = a.data();
  for (size_t d = 0; d < index.size(); ++d) p += index[d] * a.strides()[d];
  return p;
}

std::string Records2String(const RecordArray& a, const std::string& separator,
                           const std::string& prefix, int line_width) {
  bool summarize = a.size() > kThreshold;
  std::vector<const uint8_t*> records;
  VisitCorners(a.shape(), a.strides(), summarize, 0, a.data(),
               [&](const uint8_t* p) { records.push_back(p); });
  RecordFormatter format = MakeRecordFormatter(a.type(), records, a.ndim() > 0);
  ElementText element = [&](const std::vector<int64_t>& index) { return format(RecordPtr(a, index)); };
  ArrayPrinter printer{a.shape(), element, separator, summarize};
  std::vector<int64_t> index;
  return printer.Recurse(index, " " + std::string(prefix.size(), ' '), line_width);
}

// `prefix(body,` then ` dtype=...)`, moved to its own line where it would pass the width.
std::string WithDtype(const std::string& text, const std::string& dtype_text, size_t indent) {
  size_t last_nl = text.rfind('\n');
  size_t last_line_len = text.size() - (last_nl == std::string::npos ? 0 : last_nl + 1);
  std::string spacer = " ";
  if (last_line_len + dtype_text.size() + 1 > static_cast<size_t>(kLineWidth))
    spacer = "\n" + std::string(indent, ' ');
  return text + spacer + dtype_text;
}

bool DtypeIsImplied(ScalarType t) {
  return t == ScalarType::Int64 || t == ScalarType::Float64 || t == ScalarType::Bool;
}

}  // namespace

std::string FormatPythonFloat(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  FloatText sci = ScientificDigits(v, ScalarType::Float64, -1);
  if (v == 0 || (sci.exponent >= -4 && sci.exponent < 16)) {
    FloatText pos = PositionalDigits(v, ScalarType::Float64, -1);
    return Sign(pos) + pos.int_part + "." + (pos.frac_part.empty() ? "0" : pos.frac_part);
  }
  return Sign(sci) + sci.int_part + (sci.frac_part.empty() ? "" : "." + sci.frac_part) + "e" +
         ExponentText(sci.exponent, 2);
}

std::string NumpyScalarStr(const Scalar& value, ScalarType t) {
  if (t == ScalarType::Bool) return value.AsBool() ? "True" : "False";
  if (IsInteger(t)) return IntText(value);
  double v = value.AsDouble();
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  double a = std::fabs(v);
  if (a == 0 || (a >= 1e-4 && a < 1e16)) {
    FloatText pos = PositionalDigits(v, t, -1);
    return Sign(pos) + pos.int_part + "." + (pos.frac_part.empty() ? "0" : pos.frac_part);
  }
  FloatText sci = ScientificDigits(v, t, -1);
  return Sign(sci) + sci.int_part + (sci.frac_part.empty() ? "" : "." + sci.frac_part) + "e" +
         ExponentText(sci.exponent, 2);
}

std::string ArrayStr(const NdArray& a) {
  if (a.ndim() == 0) return NumpyScalarStr(a.Item(), a.dtype());
  if (a.size() == 0) return "[]";
  return Array2String(a, " ", "", kLineWidth);
}

std::string ArrayRepr(const NdArray& a) {
  bool skip_dtype = DtypeIsImplied(a.dtype()) && a.size() > 0;
  const std::string prefix = "array(";
  std::string suffix = skip_dtype ? ")" : ",";
  std::string body;
  if (a.size() > 0) body = Array2String(a, ", ", prefix, kLineWidth - static_cast<int>(suffix.size()));
  else if (a.ndim() == 1) body = "[]";
  else body = "[], shape=" + ShapeString(a.shape());
  std::string text = prefix + body + suffix;
  if (skip_dtype) return text;
  return WithDtype(text, "dtype=" + DtypeName(a.dtype()) + ")", prefix.size());
}

std::string ComplexScalarStr(double re, double im, ScalarType t) {
  // Python's complex repr: components without a trailing ".0", the real one left out when it
  // is +0.
  auto part = [t](double v) {
    std::string s = NumpyScalarStr(Scalar::Float(v), t);
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
  };
  std::string i = part(im);
  if (re == 0 && !std::signbit(re)) return i + "j";
  if (i[0] != '-') i = "+" + i;
  return "(" + part(re) + i + "j)";
}

std::string ComplexArrayStr(const NdArray& parts) {
  if (parts.ndim() == 1) return ComplexScalarStr(parts.GetDouble(std::vector<int64_t>{0}), parts.GetDouble(std::vector<int64_t>{1}), parts.dtype());
  if (parts.size() == 0) return "[]";
  return Complex2String(parts, " ", "", kLineWidth);
}

std::string ComplexArrayRepr(const NdArray& parts) {
  if (parts.ndim() == 1) return ComplexArrayStr(parts);
  const int64_t count = parts.size() / 2;
  const bool skip_dtype = parts.dtype() == ScalarType::Float64 && count > 0;
  const std::string prefix = "array(";
  const std::string suffix = skip_dtype ? ")" : ",";
  std::string body;
  Shape shape(parts.shape().begin(), parts.shape().end() - 1);
  if (count > 0) body = Complex2String(parts, ", ", prefix, kLineWidth - static_cast<int>(suffix.size()));
  else if (shape.size() == 1) body = "[]";
  else body = "[], shape=" + ShapeString(shape);
  std::string text = prefix + body + suffix;
  if (skip_dtype) return text;
  return WithDtype(text, std::string("dtype=") + (parts.dtype() == ScalarType::Float32 ? "complex64" : "complex128") + ")",
                   prefix.size());
}

std::string RecordsStr(const RecordArray& a) {
  if (a.ndim() > 0 && a.size() == 0) return "[]";
  return Records2String(a, " ", "", kLineWidth);
}

std::string RecordsRepr(const RecordArray& a) {
  const std::string prefix = "array(";
  std::string body;
  if (a.size() > 0) body = Records2String(a, ", ", prefix, kLineWidth - 1);
  else if (a.ndim() == 1) body = "[]";
  else body = "[], shape=" + ShapeString(a.shape());
  return WithDtype(prefix + body + ",", "dtype=" + a.type().Str() + ")", prefix.size());
}

}  // namespace tilec::host
