// `warnings`: warn() with CPython's filters (actions default, always, ignore, error, once,
// module), catch_warnings (optionally recording) and CPython's message format
// `file:line: Category: message` followed by the source line, written to sys.stderr.
#include <regex>
#include <set>
#include <tuple>

#include "host/interp/args.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_std_modules.h"
#include "host/interp/py_stdio.h"

namespace tilec::host {
namespace {

struct Filter {
  std::string action;
  std::string message;  // a regular expression matched at the start, case-insensitively
  Value category;
  int64_t lineno = 0;
};

struct WarningsState {
  std::vector<Filter> filters;
  // What "default", "module" and "once" have shown: (text, category, file, line).
  std::set<std::tuple<std::string, std::string, std::string, int>> shown;
  // The lists of the catch_warnings(record=True) blocks open now, innermost last.
  std::vector<std::shared_ptr<ListObj>> records;
};

const std::set<std::string> kActions = {"default", "always", "ignore", "error", "once", "module"};

// One recorded warning, as catch_warnings(record=True) lists them.
struct WarningMessageObj : Object {
  std::string TypeName() const override { return "warnings.WarningMessage"; }
  std::string Repr() const override {
    return "{message : " + host::Repr(message) + ", category : " + StrRepr(category_name) +
           ", filename : " + StrRepr(filename) + ", lineno : " + std::to_string(lineno) + ", line : None}";
  }
  std::string Str() const override { return Repr(); }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    if (name == "message") return message;
    if (name == "category") return category;
    if (name == "filename") return MakeStr(filename);
    if (name == "lineno") return Value::Int(lineno);
    if (name == "line" || name == "file" || name == "source") return Value();
    return std::nullopt;
  }
  Value message, category;
  std::string category_name, filename;
  int lineno = 0;
};

void AddFilter(WarningsState& st, Filter f, bool append);

// catch_warnings: the filters (and the shown-once memory) are restored when the block ends.
struct CatchWarningsObj : Object {
  CatchWarningsObj(std::shared_ptr<WarningsState> state, bool record) : state(std::move(state)), record(record) {}
  std::string TypeName() const override { return "warnings.catch_warnings"; }
  std::optional<Value> Enter(Interpreter&) override {
    if (entered) RuntimeError("Cannot enter " + Repr() + " twice");
    entered = true;
    saved = state->filters;
    if (action) AddFilter(*state, *action, false);
    if (!record) return Value();
    auto list = std::static_pointer_cast<ListObj>(MakeList({}).ref());
    state->records.push_back(list);
    return Value(list);
  }
  void Exit(Interpreter&) override {
    state->filters = saved;
    if (record) state->records.pop_back();
  }
  std::shared_ptr<WarningsState> state;
  bool record;
  bool entered = false;
  std::optional<Filter> action;  // catch_warnings(action=...): a simplefilter for the block
  std::vector<Filter> saved;
};

const ExcTypeObj& WarningCategory(const Value& v, const char* what) {
  auto* t = v.As<ExcTypeObj>();
  static const auto warning = ExceptionType("Warning");
  if (!t || !t->IsSubclassOf(warning.get()))
    TypeError(std::string(what) + " must be a Warning subclass, not '" + TypeName(v) + "'");
  return *t;
}

std::string Action(const Value& v) {
  const std::string& a = ToStr(v, "action");
  if (!kActions.count(a)) Raise("AssertionError", "invalid action: " + StrRepr(a));
  return a;
}

void AddFilter(WarningsState& st, Filter f, bool append) {
  if (append) st.filters.push_back(std::move(f));
  else st.filters.insert(st.filters.begin(), std::move(f));
  st.shown.clear();  // as CPython's _filters_mutated: a new filter shows warnings anew
}

void Warn(Interpreter& in, WarningsState& st, const Value& message, const Value& category_arg, int64_t stacklevel) {
  Value instance, category;
  if (auto* e = message.As<ExcObj>()) {
    category = Value(std::const_pointer_cast<ExcTypeObj>(e->type));
    WarningCategory(category, "category");
    instance = message;
  } else {
    category = category_arg.IsNone() ? Value(std::const_pointer_cast<ExcTypeObj>(ExceptionType("UserWarning")))
                                     : category_arg;
    WarningCategory(category, "category");
    CallArgs args;
    args.pos = {message};
    instance = in.CallValue(category, args);
  }
  const ExcTypeObj& cat = *category.As<ExcTypeObj>();
  const std::string text = Str(instance);
  TraceEntry where = in.CallerLocation(int(std::max<int64_t>(stacklevel, 1)));
  if (where.file.empty()) where.file = "sys", where.line = 1;

  std::string action = "default";
  bool matched = false;
  for (const Filter& f : st.filters) {
    if (!f.message.empty() &&
        !std::regex_search(text, PyRegex(f.message, /*re.I*/ 2), std::regex_constants::match_continuous))
      continue;
    if (!cat.IsSubclassOf(f.category.As<ExcTypeObj>())) continue;
    if (f.lineno && f.lineno != where.line) continue;
    action = f.action;
    matched = true;
    break;
  }
  // CPython's default filters hide these categories outside __main__; host programs are __main__
  // except for the few below that are never shown by default.
  if (!matched && (cat.qualname == "PendingDeprecationWarning" || cat.qualname == "ImportWarning" ||
                   cat.qualname == "ResourceWarning"))
    action = "ignore";
  if (action == "ignore") return;
  if (action == "error") throw MakeRaise(in, instance);
  if (action != "always") {
    auto key = std::make_tuple(text, cat.qualname, action == "once" ? std::string() : where.file,
                               action == "default" ? where.line : 0);
    if (!st.shown.insert(key).second) return;
  }
  if (!st.records.empty()) {
    auto m = std::make_shared<WarningMessageObj>();
    m->message = instance;
    m->category = category;
    m->category_name = cat.qualname;
    m->filename = where.file;
    m->lineno = where.line;
    st.records.back()->items.push_back(Value(m));
    return;
  }
  std::string out = where.file + ":" + std::to_string(where.line) + ": " + cat.qualname + ": " + text + "\n";
  if (!where.source.empty()) out += "  " + where.source + "\n";
  WriteText(in, in.GetAttr(in.ImportModule("sys"), "stderr"), out, true);
}

}  // namespace

Value MakeWarningsModule() {
  auto m = std::make_shared<ModuleObj>("warnings");
  auto st = std::make_shared<WarningsState>();
  const Value warning(std::const_pointer_cast<ExcTypeObj>(ExceptionType("Warning")));
  m->Def("warn", [st](Interpreter& in, CallArgs& a) {
    ArgBinder b("warn", a, {"message", "category", "stacklevel", "source", "skip_file_prefixes"}, 1);
    Warn(in, *st, b.Get(0), b.Get(1, Value()), b.Has(2) ? ToInt(b.Get(2), "stacklevel") : 1);
    return Value();
  });
  m->Def("simplefilter", [st, warning](Interpreter&, CallArgs& a) {
    ArgBinder b("simplefilter", a, {"action", "category", "lineno", "append"}, 1);
    Filter f{Action(b.Get(0)), "", b.Get(1, warning), b.Has(2) ? ToInt(b.Get(2), "lineno") : 0};
    WarningCategory(f.category, "category");
    AddFilter(*st, std::move(f), b.Has(3) && Truth(b.Get(3)));
    return Value();
  });
  m->Def("filterwarnings", [st, warning](Interpreter&, CallArgs& a) {
    ArgBinder b("filterwarnings", a, {"action", "message", "category", "module", "lineno", "append"}, 1);
    Filter f{Action(b.Get(0)), b.Has(1) ? ToStr(b.Get(1), "message") : "", b.Get(2, warning),
             b.Has(4) ? ToInt(b.Get(4), "lineno") : 0};
    WarningCategory(f.category, "category");
    PyRegex(f.message);  // a bad pattern fails here, as in CPython
    AddFilter(*st, std::move(f), b.Has(5) && Truth(b.Get(5)));
    return Value();
  });
  m->Def("resetwarnings", [st](Interpreter&, CallArgs& a) {
    ArgBinder b("resetwarnings", a, {}, 0);
    st->filters.clear();
    st->shown.clear();
    return Value();
  });
  m->Def("catch_warnings", [st, warning](Interpreter&, CallArgs& a) {
    ArgBinder b("catch_warnings", a, {"record", "module", "action", "category", "lineno", "append"}, 0);
    auto cm = std::make_shared<CatchWarningsObj>(st, b.Has(0) && Truth(b.Get(0)));
    if (b.Has(2) && !b.Get(2).IsNone()) {
      cm->action = Filter{Action(b.Get(2)), "", b.Get(3, warning), b.Has(4) ? ToInt(b.Get(4), "lineno") : 0};
      WarningCategory(cm->action->category, "category");
    }
    return Value(cm);
  });
  return Value(m);
}

}  // namespace tilec::host
