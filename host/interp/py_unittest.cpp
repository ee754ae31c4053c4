// `unittest` (TestCase and its assertions, skips, `main` with CPython's report) and Warp's
// `warp.tests.unittest_utils` (devices, add_function_test, assert_np_equal), so that Warp's own
// test files run unchanged with `tilec run`, each test reported as CPython reports it.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <regex>

#include "host/interp/args.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_std_modules.h"

namespace tilec::host {
namespace {

const char* kSkipTest = "unittest.case.SkipTest";

[[noreturn]] void Fail(const std::string& standard, const Value& msg) {
  // CPython's longMessage: the standard text, then the caller's message.
  Raise("AssertionError", msg.IsNone() ? standard : standard + " : " + Str(msg));
}

[[noreturn]] void RaiseSkip(const std::string& reason) {
  PyError e(kSkipTest, reason);
  e.instance = std::make_shared<ExcObj>(ExceptionType(kSkipTest), std::vector<Value>{MakeStr(reason)});
  throw e;
}

std::string ExcName(Interpreter& in, const Value& cls) {
  if (cls.As<TupleObj>()) return Str(cls);
  return Str(in.GetAttr(cls, "__name__"));
}

std::regex CompileRegex(const std::string& pattern) { return PyRegex(pattern); }

// `with self.assertRaises(E):` / `assertRaisesRegex(E, pattern)`: the body must raise E whose
// message matches; the exception is swallowed and kept as `.exception`.
struct RaisesContext : Object {
  std::string TypeName() const override { return "_AssertRaisesContext"; }
  std::optional<Value> Enter(Interpreter&) override { return Value(shared_from_this()); }
  void Exit(Interpreter& in) override { Fail(ExcName(in, expected) + " not raised", msg); }
  bool ExitOnError(Interpreter& in, const PyError& e) override {
    std::shared_ptr<ExcObj> value = ExceptionValue(e);
    if (!ExceptionMatches(expected, *value->type)) return false;
    if (pattern) {
      const std::string text = value->Str();
      if (!std::regex_search(text, CompileRegex(*pattern))) {
        // CPython shows the exception that did not match as this failure's context.
        try {
          Fail("\"" + *pattern + "\" does not match \"" + text + "\"", msg);
        } catch (PyError& failure) {
          failure.context = std::make_shared<PyError>(e);
          failure.chained = true;
          throw;
        }
      }
    }
    exception = Value(value);
    return true;
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    if (name == "exception") return exception;
    return std::nullopt;
  }
  Value expected, msg, exception;
  std::optional<std::string> pattern;
};

// `with self.subTest(...)`: the body runs as part of its test (a failure ends the test).
struct SubTestContext : Object {
  std::string TypeName() const override { return "_SubTest"; }
  std::optional<Value> Enter(Interpreter&) override { return Value(); }
};

bool Compare(Interpreter& in, ast::CmpOp op, const Value& a, const Value& b) {
  return Truth(CompareValues(in, op, a, b));
}

Value AssertRaises(Interpreter& in, CallArgs& a, bool with_regex) {
  const char* name = with_regex ? "assertRaisesRegex" : "assertRaises";
  const size_t fixed = with_regex ? 3 : 2;  // self, expected[, regex]
  if (a.pos.size() < fixed) TypeError(std::string(name) + "() missing required arguments");
  auto ctx = std::make_shared<RaisesContext>();
  ctx->expected = a.pos[1];
  if (with_regex) ctx->pattern = ToStr(a.pos[2], name);
  std::vector<std::pair<std::string, Value>> kw;
  for (auto& [k, v] : a.kw) {
    if (k == "msg") ctx->msg = v;
    else kw.emplace_back(k, v);
  }
  if (a.pos.size() == fixed) return Value(ctx);
  // The callable form: assertRaises(E, f, *args, **kwargs).
  CallArgs call;
  call.pos.assign(a.pos.begin() + fixed + 1, a.pos.end());
  call.kw = kw;
  try {
    in.CallValue(a.pos[fixed], call);
  } catch (PyError& e) {
    if (ctx->ExitOnError(in, e)) return Value();
    throw;
  }
  ctx->Exit(in);
  return Value();
}

std::map<std::string, Value> TestCaseMethods() {
  std::map<std::string, Value> m;
  auto def = [&](const std::string& name, NativeFn fn) { m[name] = MakeNativeMethod(name, std::move(fn)); };
  // The two-operand assertions: `op` must hold (or, with `negate`, must not); the failure reads
  // CPython's words: "<first><words><second>", or "<words><first>" when `first_only`.
  auto compare = [&](const std::string& name, ast::CmpOp op, std::string words, bool negate = false,
                     bool first_only = false) {
    def(name, [name, op, words, negate, first_only](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"self", "first", "second", "msg"}, 3);
      if (Compare(in, op, b.Get(1), b.Get(2)) == negate)
        Fail(first_only ? words + Repr(b.Get(1)) : Repr(b.Get(1)) + words + Repr(b.Get(2)), b.Get(3, Value()));
      return Value();
    });
  };
  compare("assertEqual", ast::CmpOp::Eq, " != ");
  compare("assertListEqual", ast::CmpOp::Eq, " != ");
  compare("assertTupleEqual", ast::CmpOp::Eq, " != ");
  compare("assertDictEqual", ast::CmpOp::Eq, " != ");
  // Any two sequences with equal elements, whatever their types (a list and a tuple).
  def("assertSequenceEqual", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("assertSequenceEqual", a, {"self", "seq1", "seq2", "msg", "seq_type"}, 3);
    std::vector<Value> x = IterateValue(in, b.Get(1)), y = IterateValue(in, b.Get(2));
    // Element by element with each element's own `==` (a vector row equals a tuple).
    bool same = x.size() == y.size();
    for (size_t k = 0; same && k < x.size(); ++k) same = Truth(CompareValues(in, ast::CmpOp::Eq, x[k], y[k]));
    if (!same)
      Fail("Sequences differ: " + Repr(b.Get(1)) + " != " + Repr(b.Get(2)), b.Get(3, Value()));
    return Value();
  });
  compare("assertNotEqual", ast::CmpOp::NotEq, " == ");
  compare("assertGreater", ast::CmpOp::Gt, " not greater than ");
  compare("assertGreaterEqual", ast::CmpOp::GtE, " not greater than or equal to ");
  compare("assertLess", ast::CmpOp::Lt, " not less than ");
  compare("assertLessEqual", ast::CmpOp::LtE, " not less than or equal to ");
  compare("assertIs", ast::CmpOp::Is, " is not ");
  compare("assertIsNot", ast::CmpOp::Is, "unexpectedly identical: ", true, true);
  compare("assertIn", ast::CmpOp::In, " not found in ");
  compare("assertNotIn", ast::CmpOp::In, " unexpectedly found in ", true);
  def("assertTrue", [](Interpreter&, CallArgs& a) {
    ArgBinder b("assertTrue", a, {"self", "expr", "msg"}, 2);
    if (!Truth(b.Get(1))) Fail(Repr(b.Get(1)) + " is not true", b.Get(2, Value()));
    return Value();
  });
  def("assertFalse", [](Interpreter&, CallArgs& a) {
    ArgBinder b("assertFalse", a, {"self", "expr", "msg"}, 2);
    if (Truth(b.Get(1))) Fail(Repr(b.Get(1)) + " is not false", b.Get(2, Value()));
    return Value();
  });
  def("assertIsNone", [](Interpreter&, CallArgs& a) {
    ArgBinder b("assertIsNone", a, {"self", "obj", "msg"}, 2);
    if (!b.Get(1).IsNone()) Fail(Repr(b.Get(1)) + " is not None", b.Get(2, Value()));
    return Value();
  });
  def("assertIsNotNone", [](Interpreter&, CallArgs& a) {
    ArgBinder b("assertIsNotNone", a, {"self", "obj", "msg"}, 2);
    if (b.Get(1).IsNone()) Fail("unexpectedly None", b.Get(2, Value()));
    return Value();
  });
  def("assertIsInstance", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("assertIsInstance", a, {"self", "obj", "cls", "msg"}, 3);
    CallArgs c;
    c.pos = {b.Get(1), b.Get(2)};
    if (!Truth(in.CallValue(in.builtins().at("isinstance"), c)))
      Fail(Repr(b.Get(1)) + " is not an instance of " + Repr(b.Get(2)), b.Get(3, Value()));
    return Value();
  });
  def("assertAlmostEqual", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("assertAlmostEqual", a, {"self", "first", "second", "places", "msg", "delta"}, 3);
    const Value& x = b.Get(1);
    const Value& y = b.Get(2);
    if (Compare(in, ast::CmpOp::Eq, x, y)) return Value();
    const double diff = std::fabs(ToDouble(x, "assertAlmostEqual") - ToDouble(y, "assertAlmostEqual"));
    const Value msg = b.Get(4, Value());
    if (b.Has(5) && !b.Get(5).IsNone()) {
      if (b.Has(3) && !b.Get(3).IsNone()) TypeError("specify delta or places not both");
      if (diff <= ToDouble(b.Get(5), "delta")) return Value();
      Fail(Repr(x) + " != " + Repr(y) + " within " + Repr(b.Get(5)) + " delta (" + FloatRepr(diff) + " difference)", msg);
    }
    const int64_t places = b.Has(3) && !b.Get(3).IsNone() ? ToInt(b.Get(3), "places") : 7;
    const double scale = std::pow(10.0, double(places));
    if (std::nearbyint(diff * scale) == 0.0) return Value();
    Fail(Repr(x) + " != " + Repr(y) + " within " + std::to_string(places) + " places (" + FloatRepr(diff) + " difference)", msg);
  });
  def("assertRegex", [](Interpreter&, CallArgs& a) {
    ArgBinder b("assertRegex", a, {"self", "text", "expected_regex", "msg"}, 3);
    const std::string& text = ToStr(b.Get(1), "assertRegex");
    const std::string& pattern = ToStr(b.Get(2), "assertRegex");
    if (!std::regex_search(text, CompileRegex(pattern)))
      Fail("Regex didn't match: " + StrRepr(pattern) + " not found in " + StrRepr(text), b.Get(3, Value()));
    return Value();
  });
  def("assertRaises", [](Interpreter& in, CallArgs& a) { return AssertRaises(in, a, false); });
  def("assertRaisesRegex", [](Interpreter& in, CallArgs& a) { return AssertRaises(in, a, true); });
  def("fail", [](Interpreter&, CallArgs& a) -> Value {
    ArgBinder b("fail", a, {"self", "msg"}, 1);
    Raise("AssertionError", b.Has(1) && !b.Get(1).IsNone() ? Str(b.Get(1)) : "");
  });
  def("skipTest", [](Interpreter&, CallArgs& a) -> Value {
    ArgBinder b("skipTest", a, {"self", "reason"}, 2);
    RaiseSkip(Str(b.Get(1)));
  });
  def("subTest", [](Interpreter&, CallArgs&) { return Value(std::make_shared<SubTestContext>()); });
  def("setUp", [](Interpreter&, CallArgs&) { return Value(); });
  def("tearDown", [](Interpreter&, CallArgs&) { return Value(); });
  return m;
}

// `skipIf` / `skipUnless` / `skip`: a decorator that, when the test is to be skipped, replaces
// the function by one that raises SkipTest with the reason.
Value SkipDecorator(bool skip, const std::string& reason) {
  return Value(std::make_shared<BuiltinFn>("decorator", [skip, reason](Interpreter& in, CallArgs& a) -> Value {
    if (a.pos.size() != 1) TypeError("decorator() takes 1 positional argument");
    if (!skip) return a.pos[0];
    // A skipped class: each of its tests reports the skip.
    if (IsHostClass(a.pos[0])) {
      a.pos[0].obj()->SetAttr(in, "__unittest_skip_why__", MakeStr(reason));
      return a.pos[0];
    }
    return Value(std::make_shared<BuiltinFn>("skip_wrapper", [reason](Interpreter&, CallArgs&) -> Value {
      RaiseSkip(reason);
    }));
  }));
}

struct TestId {
  Value cls;
  std::string cls_name, method;
  std::string Describe() const { return method + " (__main__." + cls_name + "." + method + ")"; }
};

enum class Outcome { Ok, Fail, Error, Skip };

// Python's unittest command line: -v, -q, -f, -k PATTERN and test names (Class or
// Class.method). Returns the selected tests in the order the default loader runs them.
std::vector<TestId> SelectTests(Interpreter& in, const Value& test_case, const std::vector<std::string>& names,
                                const std::vector<std::string>& patterns) {
  std::vector<TestId> all;
  for (const auto& [binding, v] : in.globals()) {
    if (!IsHostClass(v) || !ClassDerivesFrom(v, test_case) || ClassDerivesFrom(test_case, v)) continue;
    const std::string cls_name = Str(in.GetAttr(v, "__name__"));
    for (const std::string& attr : HostClassAttrNames(v)) {
      if (attr.rfind("test", 0) != 0) continue;
      auto m = v.obj()->GetAttr(in, attr);
      if (m && m->IsObj() && m->obj()->Callable()) all.push_back({v, cls_name, attr});
    }
  }
  auto wanted = [&](const TestId& t) {
    if (!names.empty()) {
      bool any = false;
      for (const std::string& n : names) any = any || n == t.cls_name || n == t.cls_name + "." + t.method;
      if (!any) return false;
    }
    if (patterns.empty()) return true;
    const std::string full = "__main__." + t.cls_name + "." + t.method;
    for (const std::string& p : patterns)
      if (full.find(p) != std::string::npos) return true;
    return false;
  };
  std::vector<TestId> out;
  for (const TestId& t : all)
    if (wanted(t)) out.push_back(t);
  for (const std::string& n : names) {
    bool found = false;
    for (const TestId& t : all) found = found || n == t.cls_name || n == t.cls_name + "." + t.method;
    if (!found) {
      Raise("AttributeError", "module '__main__' has no attribute '" + n.substr(0, n.find('.')) + "'");
    }
  }
  return out;
}

Value Main(Interpreter& in, const Value& test_case, CallArgs& a) {
  ArgBinder b("main", a, {"module", "defaultTest", "argv", "testRunner", "testLoader", "exit", "verbosity", "failfast"}, 0,
              /*variadic_kw=*/true);
  int verbosity = b.Has(6) ? int(ToInt(b.Get(6), "verbosity")) : 1;
  bool failfast = b.Has(7) && Truth(b.Get(7));
  const bool exit = !b.Has(5) || Truth(b.Get(5));
  std::vector<std::string> argv = in.argv();
  if (b.Has(2) && !b.Get(2).IsNone()) {
    argv.clear();
    for (const Value& v : IterateValue(in, b.Get(2))) argv.push_back(Str(v));
  }
  std::vector<std::string> names, patterns;
  for (size_t i = 1; i < argv.size(); ++i) {
    const std::string& s = argv[i];
    if (s == "-v" || s == "--verbose") verbosity = 2;
    else if (s == "-q" || s == "--quiet") verbosity = 0;
    else if (s == "-f" || s == "--failfast") failfast = true;
    else if (s == "-k" && i + 1 < argv.size()) patterns.push_back(argv[++i]);
    else if (!s.empty() && s[0] == '-') {
      std::cerr << "usage: " << (argv.empty() ? "" : argv[0]) << " [-h] [-v] [-q] [-f] [-k TESTNAMEPATTERNS] [tests ...]\n"
                << argv[0] << ": error: unrecognized arguments: " << s << "\n";
      RaiseSystemExit(Value::Int(2));
    } else names.push_back(s);
  }

  std::ostream& err = std::cerr;
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::pair<TestId, std::string>> errors, failures;
  int run = 0, skipped = 0;
  // A class's setUpClass runs before its first test and tearDownClass after its last; an
  // error in setUpClass becomes each of its tests' error.
  Value current_class;
  std::optional<PyError> class_error;
  auto class_hook = [&](const Value& cls, const char* hook) {
    if (cls.IsNone()) return;
    if (std::optional<Value> f = cls.obj()->GetAttr(in, hook)) {
      CallArgs none;
      in.CallValue(*f, none);
    }
  };
  for (const TestId& t : SelectTests(in, test_case, names, patterns)) {
    if (!(current_class.IsObj() && t.cls.IsObj() && t.cls.obj() == current_class.obj())) {
      if (!class_error) class_hook(current_class, "tearDownClass");
      current_class = t.cls;
      class_error.reset();
      try {
        class_hook(current_class, "setUpClass");
      } catch (PyError& e) {
        class_error = e;
      }
    }
    ++run;
    if (verbosity >= 2) err << t.Describe() << " ... " << std::flush;
    Outcome outcome = Outcome::Ok;
    std::string detail;
    try {
      if (class_error) throw *class_error;
      if (auto why = t.cls.obj()->GetAttr(in, "__unittest_skip_why__")) RaiseSkip(Str(*why));
      CallArgs none;
      Value self = in.CallValue(t.cls, none);
      self.obj()->SetAttr(in, "_testMethodName", MakeStr(t.method));
      CallArgs c0, c1, c2;
      in.CallValue(in.GetAttr(self, "setUp"), c0);
      in.CallValue(in.GetAttr(self, t.method), c1);
      in.CallValue(in.GetAttr(self, "tearDown"), c2);
    } catch (PyError& e) {
      std::shared_ptr<const ExcTypeObj> type = ExceptionType(e.type());
      if (type->IsSubclassOf(ExceptionType(kSkipTest).get())) {
        outcome = Outcome::Skip;
        detail = e.message();
      } else {
        outcome = type->IsSubclassOf(ExceptionType("AssertionError").get()) ? Outcome::Fail : Outcome::Error;
        detail = e.diagnostics + Interpreter::FormatTraceback(e);
      }
    }
    switch (outcome) {
      case Outcome::Ok: err << (verbosity >= 2 ? "ok\n" : verbosity == 1 ? "." : ""); break;
      case Outcome::Skip:
        ++skipped;
        err << (verbosity >= 2 ? "skipped " + StrRepr(detail) + "\n" : verbosity == 1 ? "s" : "");
        break;
      case Outcome::Fail:
        failures.emplace_back(t, detail);
        err << (verbosity >= 2 ? "FAIL\n" : verbosity == 1 ? "F" : "");
        break;
      case Outcome::Error:
        errors.emplace_back(t, detail);
        err << (verbosity >= 2 ? "ERROR\n" : verbosity == 1 ? "E" : "");
        break;
    }
    err << std::flush;
    if (failfast && (outcome == Outcome::Fail || outcome == Outcome::Error)) break;
  }
  if (!class_error) class_hook(current_class, "tearDownClass");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (verbosity >= 1) err << "\n";
  const std::string rule(70, '-'), double_rule(70, '=');
  for (auto* list : {&errors, &failures}) {
    for (const auto& [t, text] : *list) {
      err << double_rule << "\n" << (list == &errors ? "ERROR: " : "FAIL: ") << t.Describe() << "\n" << rule << "\n"
          << text << "\n";
    }
  }
  char timing[64];
  std::snprintf(timing, sizeof timing, "%.3fs", secs);
  err << rule << "\nRan " << run << " test" << (run == 1 ? "" : "s") << " in " << timing << "\n\n";
  const bool ok = errors.empty() && failures.empty();
  std::vector<std::string> parts;
  if (!failures.empty()) parts.push_back("failures=" + std::to_string(failures.size()));
  if (!errors.empty()) parts.push_back("errors=" + std::to_string(errors.size()));
  if (skipped) parts.push_back("skipped=" + std::to_string(skipped));
  std::string summary = ok ? "OK" : "FAILED";
  if (!parts.empty()) {
    summary += " (";
    for (size_t i = 0; i < parts.size(); ++i) summary += (i ? ", " : "") + parts[i];
    summary += ")";
  }
  err << summary << "\n" << std::flush;
  if (exit) RaiseSystemExit(Value::Bool(!ok));
  return Value();
}

}  // namespace

Value MakeUnittestModule(Interpreter& in) {
  auto m = std::make_shared<ModuleObj>("unittest");
  Value test_case = MakeHostClass("unittest.case", "TestCase", TestCaseMethods());
  m->attrs["TestCase"] = test_case;
  m->attrs["mock"] = MakeMockModule();
  m->attrs["SkipTest"] = Value(std::const_pointer_cast<ExcTypeObj>(ExceptionType(kSkipTest)));
  m->Def("skip", [](Interpreter&, CallArgs& a) {
    ArgBinder b("skip", a, {"reason"}, 1);
    return SkipDecorator(true, Str(b.Get(0)));
  });
  m->Def("skipIf", [](Interpreter&, CallArgs& a) {
    ArgBinder b("skipIf", a, {"condition", "reason"}, 2);
    return SkipDecorator(Truth(b.Get(0)), Str(b.Get(1)));
  });
  m->Def("skipUnless", [](Interpreter&, CallArgs& a) {
    ArgBinder b("skipUnless", a, {"condition", "reason"}, 2);
    return SkipDecorator(!Truth(b.Get(0)), Str(b.Get(1)));
  });
  m->Def("main", [test_case](Interpreter& in, CallArgs& a) { return Main(in, test_case, a); });
  return Value(m);
}

namespace {

std::vector<Value> Devices(Interpreter& in, bool cpu, bool cuda) {
  Value wp = in.ImportModule("warp");
  std::vector<Value> out;
  CallArgs none;
  auto get = [&](const char* name) {
    CallArgs c;
    c.pos.push_back(MakeStr(name));
    return in.CallValue(in.GetAttr(wp, "get_device"), c);
  };
  if (cpu) out.push_back(get("cpu"));
  if (cuda && Truth(in.CallValue(in.GetAttr(wp, "is_cuda_available"), none))) out.push_back(get("cuda:0"));
  return out;
}

// Warp's sanitize_identifier: a device's name with every non-identifier character made `_`.
std::string Identifier(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  if (!out.empty() && std::isdigit(static_cast<unsigned char>(out[0]))) out = "_" + out;
  return out;
}

Value TestFunction(const std::string& name, Value func, Value device, Value device_check,
                   std::vector<std::pair<std::string, Value>> kwargs) {
  return MakeNativeMethod(name, [func, device, device_check, kwargs](Interpreter& in, CallArgs& a) {
    if (a.pos.size() != 1) TypeError("test method takes no arguments");
    if (!device_check.IsNone()) {
      CallArgs c;
      c.pos = {a.pos[0], device};
      in.CallValue(device_check, c);
    }
    CallArgs c;
    c.pos = {a.pos[0], device};
    c.kw = kwargs;
    return in.CallValue(func, c);
  });
}

// `name_<device>` on `cls` for each of `devices` (a list, or one device), made by `make`.
void SetPerDevice(Interpreter& in, const Value& cls, const std::string& name, const Value& devices,
                  const std::function<Value(const std::string& attr, const Value& device)>& make) {
  const auto* list = devices.As<ListObj>();
  for (const Value& d : list ? list->items : std::vector<Value>{devices}) {
    const std::string attr = name + "_" + Identifier(Str(d));
    cls.obj()->SetAttr(in, attr, make(attr, d));
  }
}

Value NpTesting(Interpreter& in, const char* fn) {
  return in.GetAttr(in.GetAttr(in.ImportModule("numpy"), "testing"), fn);
}

}  // namespace

Value MakeWarpTestUtilsModule(Interpreter& in) {
  auto m = std::make_shared<ModuleObj>("warp.tests.unittest_utils");
  m->attrs["wp"] = in.ImportModule("warp");
  m->attrs["np"] = in.ImportModule("numpy");
  m->attrs["unittest"] = in.ImportModule("unittest");
  m->attrs["sys"] = in.ImportModule("sys");
  m->attrs["os"] = in.ImportModule("os");
  m->attrs["ctypes"] = in.ImportModule("ctypes");
  m->Def("get_test_devices", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("get_test_devices", a, {"mode"}, 0);
    return MakeList(Devices(in, true, true));
  });
  m->Def("get_cpu_test_devices", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("get_cpu_test_devices", a, {}, 0);
    return MakeList(Devices(in, true, false));
  });
  for (const char* name : {"get_cuda_test_devices", "get_selected_cuda_test_devices", "get_cuda_test_devices_with_mempool",
                           "get_test_devices_with_graph_capture_allocation"}) {
    m->Def(name, [name](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"mode"}, 0);
      return MakeList(Devices(in, false, true));
    });
  }
  m->Def("add_function_test", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("add_function_test", a, {"cls", "name", "func", "devices", "check_output", "device_check"}, 3,
                /*variadic_kw=*/true);
    const Value& cls = b.Get(0);
    const std::string name = ToStr(b.Get(1), "add_function_test");
    const Value device_check = b.Get(5, Value());
    std::vector<std::pair<std::string, Value>> kwargs;
    // `enable_cpu_blocks` asks Warp's CPU for real blocks; tilec's CPU always runs them.
    for (const auto& kv : b.extra())
      if (kv.first != "enable_cpu_blocks") kwargs.push_back(kv);
    const Value devices = b.Get(3, Value()), func = b.Get(2);
    if (devices.IsNone()) {
      cls.obj()->SetAttr(in, name, TestFunction(name, func, Value(), device_check, kwargs));
      return Value();
    }
    if (auto* list = devices.As<ListObj>(); list && list->items.empty()) {
      cls.obj()->SetAttr(in, name, MakeNativeMethod(name, [](Interpreter&, CallArgs&) -> Value {
                           RaiseSkip("No suitable devices to run the test.");
                         }));
    }
    SetPerDevice(in, cls, name, devices, [&](const std::string& attr, const Value& d) {
      return TestFunction(attr, func, d, device_check, kwargs);
    });
    return Value();
  });
  // Warp's typed tests build their kernels once, at registration (`register_kernels=True`),
  // then run per device.
  m->Def("add_function_test_register_kernel", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("add_function_test_register_kernel", a, {"cls", "name", "func", "devices"}, 3, /*variadic_kw=*/true);
    CallArgs reg;
    reg.pos = {Value(), Value()};
    reg.kw = b.extra();
    reg.kw.push_back({"register_kernels", Value::Bool(true)});
    in.CallValue(b.Get(2), reg);
    CallArgs add;
    add.pos = {b.Get(0), b.Get(1), b.Get(2)};
    add.kw = b.extra();
    add.kw.push_back({"devices", b.Get(3, Value())});
    return in.CallValue(in.GetAttr(in.ImportModule("warp.tests.unittest_utils"), "add_function_test"), add);
  });
  // A test that launches `kernel` and, with `expect`, compares the int array it appends to
  // the inputs with those values (Warp's test_codegen, test_operators, ...).
  m->Def("add_kernel_test", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("add_kernel_test", a, {"cls", "kernel", "dim", "name", "expect", "inputs", "devices", "inputs_factory"}, 3);
    const Value cls = b.Get(0), kernel = b.Get(1), dim = b.Get(2);
    const Value expect = b.Get(4, Value()), inputs = b.Get(5, Value()), factory = b.Get(7, Value());
    if (!inputs.IsNone() && !factory.IsNone()) ValueError("Only one of `inputs` and `inputs_factory` may be provided.");
    const std::string name = b.Has(3) && !b.Get(3).IsNone() ? ToStr(b.Get(3), "add_kernel_test name")
                                                            : ToStr(in.GetAttr(kernel, "key"), "kernel key");
    Value devices = b.Get(6, Value());
    if (devices.IsNone()) devices = MakeList(Devices(in, true, true));
    SetPerDevice(in, cls, name, devices, [&](const std::string& attr, const Value& d) {
      return MakeNativeMethod(attr, [=](Interpreter& in, CallArgs& c) -> Value {
        if (c.pos.size() != 1) TypeError("test method takes no arguments");
        Value wp = in.ImportModule("warp");
        std::vector<Value> args;
        Value given = inputs;
        if (!factory.IsNone()) {
          CallArgs f;
          f.pos = {d};
          given = in.CallValue(factory, f);
        }
        if (!given.IsNone())
          for (const Value& v : IterateValue(in, given)) args.push_back(v);
        Value result, output;
        if (Truth(expect)) {
          CallArgs arr;
          arr.pos = {expect};
          arr.kw = {{"dtype", in.builtins().at("int")}, {"device", d}};
          result = in.CallValue(in.GetAttr(wp, "array"), arr);
          CallArgs z;
          z.pos = {result};
          output = in.CallValue(in.GetAttr(wp, "zeros_like"), z);
          args.push_back(output);
        }
        CallArgs launch;
        launch.pos = {kernel};
        launch.kw = {{"dim", dim}, {"inputs", MakeList(args)}, {"device", d}};
        in.CallValue(in.GetAttr(wp, "launch"), launch);
        if (Truth(expect)) {
          CallArgs none, eq;
          eq.pos = {in.CallValue(in.GetAttr(output, "numpy"), none), in.CallValue(in.GetAttr(result, "numpy"), none)};
          in.CallValue(NpTesting(in, "assert_equal"), eq);
        }
        return Value();
      });
    });
    return Value();
  });
  // Warp builds a deliberately broken kernel in a module of its own; tilec compiles each
  // kernel alone and raises a kernel's error at its launch, so this is wp.kernel.
  m->Def("make_isolated_kernel", [](Interpreter& in, CallArgs& a) {
    if (a.pos.size() != 1) TypeError("make_isolated_kernel() takes one function");
    CallArgs c;
    c.pos = a.pos;
    for (auto& kv : a.kw)
      if (kv.first == "enable_backward") c.kw.push_back(kv);
    return in.CallValue(in.GetAttr(in.ImportModule("warp"), "kernel"), c);
  });
  // Warp isolates some tests in a child interpreter: False tells the caller to run the body
  // itself, which tilec does here, in this process.
  m->Def("run_test_in_subprocess", [](Interpreter&, CallArgs& a) {
    ArgBinder b("run_test_in_subprocess", a, {"test", "timeout", "hide_gpu", "env_updates"}, 1);
    return Value::Bool(false);
  });
  // The child interpreter is this tilec running the source (py_subprocess.cpp).
  m->Def("run_python_subprocess", [](Interpreter& in, CallArgs& a) -> Value {
    if (a.pos.empty()) TypeError("run_python_subprocess() missing 1 required positional argument: 'source'");
    const std::string& source = ToStr(a.pos[0], "run_python_subprocess() source");
    std::vector<std::string> args;
    for (size_t k = 1; k < a.pos.size(); ++k) args.push_back(ToStr(a.pos[k], "run_python_subprocess() argument"));
    CallArgs kw{{}, a.kw};
    ArgBinder b("run_python_subprocess", kw, {"timeout", "hide_gpu", "env_updates"}, 0);
    std::vector<std::pair<std::string, std::string>> env;
    if (b.Has(2) && !b.Get(2).IsNone()) {
      auto* d = b.Get(2).As<DictObj>();
      if (!d) TypeError("run_python_subprocess(): env_updates must be a dict");
      for (const auto& [k, v] : d->items) env.push_back({ToStr(k, "env_updates key"), ToStr(v, "env_updates value")});
    }
    if (b.Has(1) && Truth(b.Get(1))) env.push_back({"CUDA_VISIBLE_DEVICES", ""});
    return RunTilecChild(in, source, args, b.Has(0) ? ToDouble(b.Get(0), "timeout") : 60.0, env);
  });
  m->Def("assert_np_equal", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("assert_np_equal", a, {"result", "expect", "tol"}, 2);
    const double tol = b.Has(2) ? ToDouble(b.Get(2), "tol") : 0.0;
    CallArgs c;
    if (tol != 0.0) {
      CallArgs none;
      c.pos = {in.CallValue(in.GetAttr(b.Get(0), "flatten"), none), in.CallValue(in.GetAttr(b.Get(1), "flatten"), none)};
      c.kw = {{"atol", Value::Float(tol)}, {"equal_nan", Value::Bool(true)}};
      return in.CallValue(NpTesting(in, "assert_allclose"), c);
    }
    c.pos = {b.Get(0), b.Get(1)};
    return in.CallValue(NpTesting(in, "assert_array_equal"), c);
  });
  m->Def("assert_array_equal", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("assert_array_equal", a, {"result", "expect"}, 2);
    CallArgs none, c;
    c.pos = {in.CallValue(in.GetAttr(b.Get(0), "numpy"), none), in.CallValue(in.GetAttr(b.Get(1), "numpy"), none)};
    return in.CallValue(NpTesting(in, "assert_equal"), c);
  });
  return Value(m);
}

}  // namespace tilec::host
