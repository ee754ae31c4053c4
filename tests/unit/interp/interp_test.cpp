// Host interpreter: Python semantics and printing checked against /usr/bin/python3 running the
// same programs, and error messages with their line, after which the session carries on.
#include <gtest/gtest.h>

#include "interp_test_util.h"

namespace tilec::host::test {
namespace {

#define REQUIRE_PYTHON() \
  if (!HavePythonWithNumpy()) GTEST_SKIP() << "/usr/bin/python3 with numpy not found"

// ---------------------------------------------------------------- same output as Python

struct ProgramCase {
  const char* name;
  const char* code;
};

class SameAsPython : public ::testing::TestWithParam<ProgramCase> {};

TEST_P(SameAsPython, Stdout) {
  REQUIRE_PYTHON();
  std::string code = GetParam().code;
  EXPECT_EQ(RunProgram(code), Python(code)) << code;
}

const ProgramCase kPrograms[] = {
    {"ArithmeticFloorRules",
     "for a in [7, -7, 7.5, -7.5, 0]:\n"
     "    for b in [2, -2, 2.5, -3]:\n"
     "        print(a, b, a // b, a % b, a / b, a * b, a - b, a ** 2)\n"},
    {"FloatRepr",
     "print(0.1, 1.0, 1e16, 1e15, 123456789.0, 1e-4, 1e-5, 2.5e-7, 1/3, 2/3, -0.0, 1e300 * 1e10, 5e-324)\n"
     "print(float('nan'), 3.14159e22, 0.5, 100.0, 1234567890123456789.0, 0.000123)\n"},
    {"Containers",
     "x = [1, 'a', (2,), (), {'k': [None, True]}, 2.0, \"it's\", 'q\"', 'tab\\t']\n"
     "print(x)\nprint(tuple(x[:3]), x[-1], x[::2], x[::-1][:2], len(x))\n"
     "d = {1: 'one', 'two': 2}\nd['three'] = 3.0\nprint(d, d.get('zz'), list(d.keys()), list(d.items()))\n"},
    {"Strings",
     "s = 'Hello'\nprint(s + ' world', s * 2, s[1:3], s[-1], 'ell' in s, s.upper(), s.lower(), ','.join(['a', 'b']))\n"
     "print('{} {:>6} {:<4}| {:.2e} {:08.3f} {:+d}'.format(1, 'ab', 'c', 12345.678, 3.14159, 5))\n"
     "print('%5.2f|%-4d|%s|%r' % (2.345, 7, 'x', 'y'), str(1.5), repr('a'))\n"},
    {"ControlFlow",
     "total = 0\nfor i in range(10):\n    if i == 7:\n        break\n    elif i % 2:\n        continue\n"
     "    total += i\nelse_val = 1 if total > 5 else 2\nn = 0\nwhile n < 5:\n    n += 2\nprint(total, else_val, n)\n"
     "for i, (a, b) in enumerate(zip([1, 2, 3], 'xyz'), 1):\n    print(i, a, b)\n"},
    {"Functions",
     "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n"
     "def scale(xs, k=2, offset=0.5):\n    out = []\n    for x in xs:\n        out.append(x * k + offset)\n    return out\n"
     "print(fib(15), scale([1, 2]), scale([1], offset=0, k=3), scale(xs=[2]))\n"},
    {"Builtins",
     "print(int(3.9), int(-3.9), int('12'), float(3), float('2.5'), bool(0), bool([0]), str(None), abs(-2.5))\n"
     "print(min(3, 1, 2), max([1, 5, 2]), min('b', 'a'), sum([1, 2.5]), sum(range(5), 10), len(range(2, 11, 3)))\n"
     "print(list(range(5, 0, -2)), tuple('ab'), sorted([3, 1, 2]), round(2.5), round(3.5), round(2.675, 2))\n"
     "print(divmod(-7, 2), 7 & 3, 6 | 1, 6 ^ 3, 1 << 4, -16 >> 2, ~5, True + True, 2 ** 62)\n"},
    {"Comparisons",
     "print(1 < 2 < 3, 1 < 3 < 2, 1 == 1.0, [1, 2] < [1, 3], (1, 'a') == (1, 'a'), 'abc' < 'abd')\n"
     "print(None is None, 1 is not None, 3 in [1, 2, 3], 'x' not in 'abc', 2 in range(0, 4, 2), 1 in {1: 2})\n"
     "print(0 or [] or 'z', 1 and 0, not [], 5 if [] else 6)\n"},
    {"AugmentedAssignment",
     "x = 5\nx += 2\nx *= 3\nx //= 4\nx -= 1\nx **= 2\nx %= 7\nl = [1]\nl += [2]\nl *= 2\n"
     "a = b = 4\na, b = b + 1, a - 1\nprint(x, l, a, b)\n"},
    {"NumpyBasics",
     "a = np.arange(12, dtype=np.float32).reshape(3, 4)\nprint(a)\nprint(a.shape, a.dtype, a.ndim, a.size)\n"
     "print(a[1], a[1, 2], a[:, 1::2], a[::-1, -1], a.T.shape)\nprint(a.sum(), a.sum(axis=0), np.sum(a, axis=1))\n"
     "print(repr(a[0]), a.tolist()[0], a.astype(np.int32)[2])\n"},
    {"NumpyArithmetic",
     "a = np.array([[1, 2], [3, 4]])\nb = np.array([10.5, -2.0])\nprint(a + b, a * 2, a / 2, a // 3, a % 3, -a, a ** 2)\n"
     "print(a > 2, a == b, np.abs(b), np.sqrt(np.array([4.0, 2.0])), np.exp(np.zeros(2)))\n"
     "c = np.zeros(3, dtype=np.float16)\nc += 1\nc[1] = 7.25\nprint(c, c.dtype, (c * 2).dtype)\n"},
    {"NumpyConstructors",
     "print(np.zeros(3), np.ones((2, 2), dtype=np.int64), np.full((2,), 7.5), np.full(2, 3))\n"
     "print(np.linspace(0, 1, 5), np.linspace(0, 1, 4, endpoint=False), np.arange(0, 1, 0.25), np.arange(5))\n"
     "print(np.array([True, False]), np.array([1, 2.5]), np.array([[1, 2], [3, 4]], dtype=np.uint8))\n"
     "print(np.allclose([1.0, 2.0], [1.0, 2.0000001]), np.array_equal(np.arange(3), [0, 1, 2]), np.empty(0))\n"},
    {"NumpyViews",
     "a = np.arange(10)\nv = a[2:8:2]\nv[0] = 100\nv *= 2\nprint(a, v)\nb = a.copy()\nb[0] = -1\nprint(a[0], b[0])\n"
     "m = np.zeros((3, 3))\nm[1] = [1, 2, 3]\nm[:, 0] = 9\nprint(m, m.T)\n"},
    {"NumpyScalars",
     "x = np.float32(0.1)\ny = np.arange(3)[1]\nprint(x, repr(x), y, x * 2, float(x), int(y) + 1, y + 0.5)\n"
     "print(np.float64(1e16), np.int8(-3), np.bool_(True), np.array(2.5), repr(np.array([1.5], dtype=np.float32)))\n"},
};

INSTANTIATE_TEST_SUITE_P(Programs, SameAsPython, ::testing::ValuesIn(kPrograms),
                         [](const auto& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------- errors

// An error case: setup code, one failing line, then a line that must still run.
struct ErrorCase {
  const char* name;
  const char* setup;   // may be empty
  const char* failing; // one line
  const char* expected;  // the `Type: message` line; null: ask Python
};

class ErrorMessages : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ErrorMessages, PythonStyleWithLineAndSessionContinues) {
  const ErrorCase& c = GetParam();
  std::string expected;
  if (c.expected) {
    expected = c.expected;
  } else {
    REQUIRE_PYTHON();
    bool raised = false;
    expected = Python(std::string(c.setup) + c.failing + "\n", &raised);
    ASSERT_TRUE(raised) << "the oracle did not raise: " << c.failing;
  }
  // Setup on lines 10.., the failing line on line 40, the follow-up on line 41.
  std::string out = RunChunks({c.setup, std::string(c.failing) + "\n", "print('still alive')\n"}, {10, 40, 41});
  EXPECT_EQ(ErrorLine(out), expected) << out;
  EXPECT_NE(out.find("Traceback (most recent call last):\n  File \"page.rst\", line 40, in <module>\n    " +
                     std::string(c.failing) + "\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("still alive\n"), std::string::npos) << out;
  EXPECT_EQ(out.find("still alive"), out.rfind("still alive"));
}

const ErrorCase kErrors[] = {
    {"UnknownName", "", "print(undefined_thing)", nullptr},
    {"DivisionByZero", "", "x = 1 / 0", nullptr},
    {"FloorDivisionByZero", "", "x = 1 // 0", nullptr},
    {"FloatModuloByZero", "", "x = 1.0 % 0", nullptr},
    {"StrPlusInt", "", "x = 'a' + 1", nullptr},
    {"IntPlusStr", "", "x = 1 + 'a'", nullptr},
    {"ListIndex", "", "x = [1, 2][5]", nullptr},
    {"MissingKey", "d = {'a': 1}\n", "x = d['b']", nullptr},
    {"TooManyToUnpack", "", "a, b = 1, 2, 3", nullptr},
    {"NotEnoughToUnpack", "", "a, b, c = 1, 2", nullptr},
    {"NoneNotCallable", "", "None()", nullptr},
    {"NoAttribute", "x = 1\n", "x.foo", nullptr},
    {"LenOfInt", "", "len(5)", nullptr},
    {"BadIntLiteral", "", "int('z')", nullptr},
    {"BadFloatLiteral", "", "float('z')", nullptr},
    {"AbsOfStr", "", "abs('a')", nullptr},
    {"MaxOfEmpty", "", "max([])", nullptr},
    {"RangeOfFloat", "", "range(1.5)", nullptr},
    {"MissingArgument", "def f(a, b):\n    return a\n", "f(1)", nullptr},
    {"TooManyArguments", "def f(a, b):\n    return a\n", "f(1, 2, 3)", nullptr},
    {"UnexpectedKeyword", "def f(a, b=1):\n    return a\n", "f(1, c=2)", nullptr},
    {"AssertWithMessage", "", "assert 1 == 2, 'boom'", nullptr},
    {"PercentFormatType", "", "x = '%d' % 'a'", nullptr},
    {"OrderingMixedTypes", "", "x = 1 < 'a'", nullptr},
    {"UnknownModule", "", "import foo", nullptr},
    {"IterateInt", "", "for x in 5: pass", nullptr},
    {"NumpyBroadcast", "", "x = np.zeros((2, 3)) + np.zeros((4,))", nullptr},
    {"NumpyReshape", "", "x = np.arange(6).reshape(4, 2)", nullptr},
    {"NumpyIndex", "", "x = np.zeros(3)[5]", nullptr},
    {"NumpyTruth", "", "x = 1 if np.arange(3) else 2", nullptr},
    {"NumpyInplaceCast", "x = np.arange(3)\n", "x += 1.5", nullptr},
    {"NumpyTooManyIndices", "", "x = np.zeros(3)[1, 2]", nullptr},
    {"NameSuggestion", "", "prnt('x')", nullptr},
    {"ModuleAttributeSuggestion", "", "x = np.zeross(3)", nullptr},
    {"ErrorInsideFunction", "def g(v):\n    return v + nope\n", "g(1)", nullptr},
    // Warp host API: messages are ours (LANGUAGE.md §7), checked literally.
    {"WpArrayShapeMismatch", "", "a = wp.array([1.0, 2.0, 3.0], dtype=float, shape=(2, 2))",
     "ValueError: array(): data of shape (3,) (3 elements) does not match shape (2, 2) (4 elements)"},
    {"WpBadDtype", "", "a = wp.zeros(3, dtype='float7')", "TypeError: zeros(): data type 'float7' not understood"},
    {"WpAttributeSuggestion", "", "wp.lauch(1)",
     "AttributeError: module 'warp' has no attribute 'lauch'. Did you mean: 'launch'?"},
    {"WpBadDtypeObject", "", "a = wp.zeros(3, dtype=str)", "TypeError: zeros(): data type <class 'str'> not understood"},
    {"WpLaunchNotKernel", "", "wp.launch(42, dim=1)",
     "TypeError: launch(): expected a kernel (a function decorated with @wp.kernel), got int"},
    {"WpLaunchMissingDim", "", "wp.launch(42)", "TypeError: launch() missing 1 required positional argument: 'dim'"},
    {"WpArrayTooManyDims", "", "a = wp.array(np.zeros((1, 1, 1, 1, 1)))",
     "ValueError: array(): warp arrays have at most 4 dimensions, got 5"},
    {"WpArrayScalarData", "", "a = wp.array(3.0)", "ValueError: array(): data must have at least one dimension, got a scalar"},
    {"WpArrayNoData", "", "a = wp.array()", "TypeError: array(): give `data` or `shape`"},
    // A @wp.func called from host code runs as Python (Warp's rule): its errors are Python's.
    {"WpFuncCalledOnHost", "@wp.func\ndef twice(x: float):\n    return x * 2.0\n", "twice('a')",
     "TypeError: can't multiply sequence by non-int of type 'float'"},
    {"WpConstantOfList", "", "C = wp.constant([1])", "TypeError: Invalid constant type: <class 'list'>"},
    // `async def` defines (a file may hold coroutines for other tools); calling one is refused.
    {"AsyncFunctionCalled", "async def co():\n    return 1\n", "co()",
     "NotImplementedError: `co` is an `async` function: coroutines are not supported"},
    // A custom adjoint (@wp.func_grad) is never replaced silently by a derived one: a kernel that
    // needs it refuses its backward pass; without one it runs.
    {"WpFuncGradRefusesBackward",
     "@wp.func\ndef sq(x: float):\n    return x * x\n@wp.func_grad(sq)\ndef adj_sq(x: float, adj_ret: float):\n"
     "    wp.adjoint[x] += adj_ret\n@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    a[0] = sq(a[0])\n"
     "@wp.kernel(enable_backward=False)\ndef fwd(a: wp.array(dtype=float)):\n    a[0] = sq(a[0])\n"
     "a = wp.full(1, 3.0, dtype=float)\nwp.launch(fwd, dim=1, inputs=[a])\nassert a.numpy()[0] == 9.0\n",
     "wp.launch(k, dim=1, inputs=[a])",
     "NotImplementedError: kernel `k` calls `sq`, whose adjoint is custom (@wp.func_grad); tilec derives every "
     "adjoint itself and does not run custom ones: define the kernel with enable_backward=False to run it forward"},
    {"WpDeviceType", "", "a = wp.zeros(3, device=5)",
     "TypeError: zeros(): device must be a string such as \"cpu\" or \"cuda:0\", got int"},
    {"WpArrayIndexOutOfBounds", "a = wp.zeros(3)\n", "x = a[7]", "IndexError: index 7 is out of bounds for axis 0 with size 3"},
    // Sizes that overflow or exceed signed 32-bit indices are refused before anything is allocated.
    {"WpShapeBeyondInt32", "", "a = wp.zeros((2**31, 2**31), dtype=float)",
     "ValueError: Array shapes must not exceed the maximum representable value of a signed 32-bit integer, got "
     "2147483648 in dimension 0."},
    {"WpShapeBeyondInt32OneDim", "", "a = wp.empty(2**62, dtype=float)",
     "ValueError: Array shapes must not exceed the maximum representable value of a signed 32-bit integer, got "
     "4611686018427387904 in dimension 0."},
    {"WpShapeBytesOverflow", "", "a = wp.zeros((2**30, 2**30, 16), dtype=float)",
     "MemoryError: an array of shape (1073741824, 1073741824, 16) has more than 2^63 elements"},
    {"WpLaunchBeyondTidRange",
     "@wp.kernel\ndef k(x: wp.array(dtype=float)):\n    i = wp.tid()\n    x[0] = float(i)\nx = wp.zeros(1)\n",
     "wp.launch_tiled(k, dim=2**31 + 2, inputs=[x], block_dim=1)",
     "ValueError: launch_tiled(): cannot launch a kernel with extent 2147483650 in dimension 0; wp.tid() returns "
     "signed 32-bit coordinates and supports extents up to 2147483647"},
    // wp.config.mode = "debug": an access outside an array is skipped and the launch raises.
    {"WpDebugModeIndexError",
     "wp.config.mode = \"debug\"\n@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    i = wp.tid()\n"
     "    a[i + 2] = 1.0\na = wp.zeros(3)\n",
     "wp.launch(k, dim=2, inputs=[a])",
     "IndexError: kernel `k`, line 14: index (3,) is out of bounds for an array of shape (3,)"},
    // ... and so does a read outside a tile, at a runtime index.
    {"WpDebugModeTileIndexError",
     "wp.config.mode = \"debug\"\n@wp.kernel\ndef k(a: wp.array2d(dtype=float), j: int):\n"
     "    t = wp.tile_load(a, shape=(2, 3))\n    a[0, 0] = t[1, j] + wp.tile_extract(t, 0, j)\n"
     "a = wp.zeros((2, 3))\n",
     "wp.launch_tiled(k, dim=1, inputs=[a, 3], block_dim=4)",
     "IndexError: kernel `k`, line 14: index (1, 3) is out of bounds for a tile of shape (2, 3)"},
    {"ClassWithTwoBaseClasses", "class Base:\n    pass\nclass Other:\n    pass\n", "class P(Base, Other): pass",
     "TypeError: class `P`: more than one base class is not supported in host code"},
    {"ClassBaseNotAClass", "", "class P(5): pass",
     "TypeError: class `P`: a base class must be a class defined in host code or `object`, not 5"},
    {"ClassInitReturnsValue", "class P:\n    def __init__(self):\n        return 1\n", "P()",
     "TypeError: __init__() should return None, not 'int'"},
    {"ClassWithoutInitTakesNoArguments", "class P:\n    pass\n", "P(1)", "TypeError: P() takes no arguments"},
    {"InstanceMissingAttribute", "class P:\n    pass\n", "P().x",
     "AttributeError: 'P' object has no attribute 'x'"},
};

INSTANTIATE_TEST_SUITE_P(Errors, ErrorMessages, ::testing::ValuesIn(kErrors),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Traceback, NamesEveryFrameOutermostFirst) {
  std::string out = RunChunks({"def inner():\n    return missing\n\ndef outer():\n    return inner()\n", "outer()\n"},
                              {20, 30});
  EXPECT_EQ(out,
            "Traceback (most recent call last):\n"
            "  File \"page.rst\", line 30, in <module>\n    outer()\n"
            "  File \"page.rst\", line 24, in outer\n    return inner()\n"
            "  File \"page.rst\", line 21, in inner\n    return missing\n"
            "NameError: name 'missing' is not defined\n");
}

TEST(Traceback, SyntaxErrorIsADiagnosticAndSessionContinues) {
  std::string out = RunChunks({"x = (1 +\n", "print('ok')\n"}, {5, 9});
  EXPECT_NE(out.find("page.rst:"), std::string::npos) << out;
  EXPECT_NE(out.find("error[E"), std::string::npos) << out;
  EXPECT_NE(out.find("ok\n"), std::string::npos) << out;
}

TEST(Session, GlobalsPersistAcrossChunksAndErrors) {
  std::string out = RunChunks({"a = 1\n", "a = a + b\n", "a += 1\nprint(a)\n"});
  EXPECT_NE(out.find("NameError: name 'b' is not defined"), std::string::npos);
  EXPECT_EQ(out.substr(out.size() - 2), "2\n");
}

// A kernel whose adjoint would be wrong (it reads what it overwrites) still runs forward; the
// rejection surfaces, with the compiler's diagnostic, only when a Tape needs that adjoint.
TEST(Session, RejectedAdjointRunsForwardAndFailsOnlyInBackward) {
  std::string out = RunChunks(
      {"@wp.kernel\ndef square_in_place(a: wp.array(dtype=float)):\n    i = wp.tid()\n"
       "    a[i] = a[i] * a[i]\n",
       "a = wp.array(np.array([1.0, 2.0, 3.0], dtype=np.float32), dtype=float, requires_grad=True)\n"
       "wp.launch(square_in_place, dim=3, inputs=[a])\nprint(a.numpy())\n",
       "tape = wp.Tape()\nwith tape:\n    wp.launch(square_in_place, dim=3, inputs=[a])\n"
       "tape.backward(grads={a: wp.ones(3, dtype=float)})\n",
       "print('still alive')\n"});
  EXPECT_NE(out.find("[1. 4. 9.]\n"), std::string::npos) << out;
  EXPECT_NE(out.find("RuntimeError: kernel `square_in_place` has no adjoint: its gradient would be "
                     "wrong, so the compiler rejected it"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("error[E0500]"), std::string::npos) << out;
  EXPECT_NE(out.find("still alive\n"), std::string::npos) << out;
}

// Warp's array.assign and tape.backward() without arguments: the grads the arrays hold (set
// here through assign) seed the adjoints. dy/dx of y = 3 x^2 is 6 x.
TEST(Session, AssignAndBackwardWithPresetGrads) {
  std::string out = RunChunks(
      {"@wp.kernel\ndef sq3(x: wp.array(dtype=float), y: wp.array(dtype=float)):\n    i = wp.tid()\n"
       "    y[i] = 3.0 * x[i] * x[i]\n",
       "x = wp.zeros(3, dtype=float, requires_grad=True)\nx.assign([1.0, 2.0, 3.0])\n"
       "y = wp.zeros(3, dtype=float, requires_grad=True)\ntape = wp.Tape()\nwith tape:\n"
       "    wp.launch(sq3, dim=3, inputs=[x, y])\ny.grad.assign(np.array([1.0, 0.5, 2.0]))\ntape.backward()\n"
       "print(y.numpy(), x.grad.numpy())\n",
       "v = wp.zeros(2, dtype=wp.vec3)\nv.assign(np.arange(6.0).reshape(2, 3))\nprint(v.numpy().tolist())\n",
       "x.assign([1.0, 2.0])\n"});
  EXPECT_NE(out.find("[ 3. 12. 27.] [ 6.  6. 36.]\n"), std::string::npos) << out;
  EXPECT_NE(out.find("[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]\n"), std::string::npos) << out;
  EXPECT_NE(out.find("ValueError: assign(): the source has 2 elements, the array 3"), std::string::npos) << out;
}

// wp.copy on a tape between arrays with gradients: the backward adds the copied region of the
// destination's gradient into the source's and clears it there, so a loss through a copy
// reaches the kernel before it. loss = sum_i (i + 1) z[i], z[1:4] = y[1:4] = x[1:4]^2, so
// dloss/dx[i] = 2 x[i] (i + 1) for i in 1..3 and 0 for x[0]; z keeps the gradient of the
// elements the copy did not write. Vector elements add component by component. (The values
// are the ones Warp 1.19 prints.)
TEST(Session, CopyOnATapeCarriesTheGradient) {
  std::string out = RunChunks(
      {"@wp.kernel\ndef sq(x: wp.array(dtype=float), y: wp.array(dtype=float)):\n    i = wp.tid()\n"
       "    y[i] = x[i] * x[i]\n",
       "@wp.kernel\ndef total(y: wp.array(dtype=float), loss: wp.array(dtype=float)):\n    i = wp.tid()\n"
       "    wp.atomic_add(loss, 0, y[i] * float(i + 1))\n",
       "x = wp.array([1.0, 2.0, 3.0, 4.0], dtype=float, requires_grad=True)\n"
       "y = wp.zeros(4, dtype=float, requires_grad=True)\nz = wp.zeros(6, dtype=float, requires_grad=True)\n"
       "loss = wp.zeros(1, dtype=float, requires_grad=True)\ntape = wp.Tape()\nwith tape:\n"
       "    wp.launch(sq, dim=4, inputs=[x, y])\n    wp.copy(z, y, dest_offset=1, src_offset=1, count=3)\n"
       "    wp.launch(total, dim=6, inputs=[z, loss])\n"
       "tape.backward(loss)\nprint(loss.numpy(), x.grad.numpy(), z.grad.numpy())\n",
       "v = wp.array(np.ones((2, 2), dtype=np.float32), dtype=wp.vec2f, requires_grad=True)\n"
       "v.grad.fill_(wp.vec2f(0.5, 0.25))\nw = wp.zeros(2, dtype=wp.vec2f, requires_grad=True)\n"
       "t2 = wp.Tape()\nwith t2:\n    wp.copy(w, v)\nw.grad.fill_(wp.vec2f(1.0, 2.0))\nt2.backward()\n"
       "print(v.grad.numpy().tolist(), w.grad.numpy().tolist())\n",
       "a = wp.ones(3, dtype=float, requires_grad=True)\nb = wp.zeros(3, dtype=float)\n"
       "t3 = wp.Tape()\nwith t3:\n    wp.copy(b, a)\nt3.backward()\nprint(a.grad.numpy(), b.numpy())\n"});
  EXPECT_NE(out.find("[99.] [ 0.  8. 18. 32.] [1. 0. 0. 0. 5. 6.]\n"), std::string::npos) << out;
  EXPECT_NE(out.find("[[1.5, 2.25], [1.5, 2.25]] [[0.0, 0.0], [0.0, 0.0]]\n"), std::string::npos) << out;
  // Only one side with a gradient: nothing is recorded, as in Warp.
  EXPECT_NE(out.find("[0. 0. 0.] [1. 1. 1.]\n"), std::string::npos) << out;
}

}  // namespace
}  // namespace tilec::host::test
