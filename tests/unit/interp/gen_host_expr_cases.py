#!/usr/bin/python3
# Regenerates host_expr_cases.inc: each line below is one host expression; CPython 3.11 with
# NumPy 1.24 (the oracle) prints it, or names the exception it raises, and that text becomes
# the expectation of host_expr_test.cpp. The tests themselves need no Python.
# Usage: /usr/bin/python3 gen_host_expr_cases.py host_expr_cases.inc
import subprocess
import sys

# (name, setup, expression): the test prints repr(expression), or its exception line.
SETUP = {
    "": "",
    "a": "a = np.arange(6).reshape(2, 3)\n",
    "f": "f = np.array([[1.5, -2.25, 3.0], [0.5, 4.0, -1.0]], dtype=np.float32)\n",
    "l": "l = [3, 1, 4, 1, 5, 9, 2, 6]\n",
    "d": "d = {'b': 2, 'a': 1, 'c': 3}\n",
    "s": "s = '  Tile, Warp and NumPy  '\n",
}

CASES = [
 # formatting
 ("FmtFixed", "", "f'{3.14159:.2f}|{2.5:08.3f}|{-1.0:+.1f}'"),
 ("FmtWidthAlign", "", "f'{7:>4}|{7:<4}|{7:^5}|{\"ab\":_>6}'"),
 ("FmtExponent", "", "f'{12345.678:.3e}|{0.000123:E}|{1e-10:g}'"),
 ("FmtGeneral", "", "f'{1234567.0:g}|{0.0001:g}|{123.456:.4g}|{100000.0:g}'"),
 ("FmtThousands", "", "f'{1234567:,}|{1234567.891:,.1f}|{1234567:_}'"),
 ("FmtPercent", "", "f'{0.256:.1%}|{1:%}|{0.5:.0%}'"),
 ("FmtHexOctBin", "", "f'{255:x}|{255:#X}|{8:o}|{5:08b}|{-3:x}'"),
 ("FmtRepr", "", "f'{\"a\"!r} {[1, \"b\"]!r} {None!r} {1.0!r}'"),
 ("FmtNested", "", "[f'{x:{w}.{p}f}' for x, w, p in [(1.5, 6, 2), (2.25, 8, 3)]]"),
 ("FmtSelfDoc", "", "(lambda v: f'{v=}')(1.25)"),
 ("StrFormatIndex", "", "'{1}-{0}-{1}'.format('x', 'y')"),
 ("StrFormatKw", "", "'{name:>6}:{val:.2f}'.format(name='pi', val=3.14159)"),
 ("PercentFormat", "", "'%5.2f|%-4d|%s|%r|%x|%e' % (3.14159, 7, 'hi', 'hi', 255, 1234.5)"),
 ("PercentDict", "", "'%(a)s and %(b)03d' % {'a': 'x', 'b': 7}"),
 ("FormatBuiltin", "", "(format(1.5, '>8.3f'), format(42, 'b'), format('s', '^5'))"),
 ("FloatRepr", "", "[0.1, 0.1 + 0.2, 1e16, 1e-5, 1.5e300 * 1e10, -0.0, 2.0 ** 0.5]"),
 ("FloatStrSmall", "", "str(1 / 3) + ' ' + str(2 / 3) + ' ' + str(100.0) + ' ' + str(1e22)"),
 ("IntBig", "", "(2 ** 62, -(2 ** 62) * 2, 10 ** 18 + 1, 7 // -2, -7 % 3, 7 % -3)"),
 ("Divmod", "", "(divmod(17, 5), divmod(-17, 5), divmod(17.5, 5), pow(3, 4), pow(2, -1))"),
 ("FloatDivision", "", "(7 / 2, -7 / 2, 7.0 // 2, -7.0 // 2, 7.5 % 2, -7.5 % 2)"),
 ("RoundBuiltin", "", "(round(2.5), round(3.5), round(-0.5), round(1.005, 2), round(1234.5678, -2))"),
 ("ContainerRepr", "", "[(1,), (), {}, {'k': [1.5, None]}, [True, False], ('a', \"b'c\")]"),
 ("NestedRepr", "", "{'x': (1, [2, {3: 'y'}]), 'z': set()}"),
 ("StrEscapes", "", "['tab\\there', 'quote\\'s', 'back\\\\slash', 'nl\\n']"),
 # strings
 ("StrSplitJoin", "s", "'-'.join(s.split())"),
 ("StrStrip", "s", "(s.strip(), s.lstrip(), s.rstrip(), s.strip(' Tp'))"),
 ("StrCase", "s", "(s.upper(), s.lower(), s.strip().title(), 'abc'.capitalize(), 'AbC'.swapcase())"),
 ("StrReplace", "s", "(s.replace('a', 'A'), s.replace(' ', '', 3), s.count('a'))"),
 ("StrPredicates", "", "('abc'.isalpha(), '123'.isdigit(), 'a1'.isalnum(), '  '.isspace(), 'Ab'.isupper())"),
 ("StrFind", "s", "(s.find('Warp'), s.find('zzz'), s.index('N'), s.rfind('a'), s.startswith('  T'), s.endswith('y'))"),
 ("StrSplitArgs", "", "('a,b,,c'.split(','), 'a b  c'.split(' '), 'a,b,c'.split(',', 1), 'k=v=w'.rsplit('=', 1))"),
 ("StrPadding", "", "('7'.zfill(3), 'ab'.center(6, '*'), 'ab'.ljust(4) + '|', 'ab'.rjust(4, '.'))"),
 ("StrSlicing", "", "('abcdef'[1:4], 'abcdef'[::-1], 'abcdef'[-2:], 'abcdef'[::2], 'abc' * 3)"),
 ("StrPartition", "", "('key=value'.partition('='), 'a.b.c'.rpartition('.'), 'x'.partition('='))"),
 ("StrCompare", "", "('apple' < 'banana', 'a' * 3 == 'aaa', 'B' < 'a', 'abc' in 'xabcx', ord('A'), chr(97))"),
 ("StrSplitlines", "", "'one\\ntwo\\r\\nthree'.splitlines()"),
 # comprehensions, builtins
 ("ListComp", "", "[x * x for x in range(6) if x % 2 == 0]"),
 ("NestedComp", "", "[(i, j) for i in range(3) for j in range(i)]"),
 ("DictComp", "d", "{k: v * 10 for k, v in sorted(d.items())}"),
 ("SetComp", "l", "sorted({x % 4 for x in l})"),
 ("CompOverString", "", "[c.upper() for c in 'tile' if c != 'i']"),
 ("GeneratorSum", "", "sum(x * 2 for x in range(10))"),
 ("SortedKey", "l", "(sorted(l), sorted(l, reverse=True), sorted(['bb', 'a', 'ccc'], key=len))"),
 ("SortedTuples", "", "sorted([(2, 'b'), (1, 'z'), (2, 'a')])"),
 ("MinMaxKey", "", "(min([3, -5, 2], key=abs), max('apple', 'fig', key=len), min(4, 2, 8), max([1.5, 2]))"),
 ("Reversed", "l", "(list(reversed(l)), l[::-1] == list(reversed(l)))"),
 ("EnumerateZip", "", "(list(enumerate('ab', 1)), list(zip([1, 2, 3], 'xy')))"),
 ("MapFilter", "", "(list(map(lambda x: x + 1, [1, 2])), list(filter(lambda x: x > 1, [0, 1, 2, 3])))"),
 ("AnyAll", "", "(any([]), all([]), any([0, '', 3]), all([1, 'a', []]), any(x > 2 for x in [1, 3]))"),
 ("Isinstance", "", "(isinstance(1, int), isinstance(True, int), isinstance(1.0, (int, float)), isinstance('a', list))"),
 ("TypeNames", "", "[type(v).__name__ for v in [1, 1.0, 'a', [], (), {}, None, True, range(2)]]"),
 ("Conversions", "", "(int('42'), int(3.9), int(-3.9), float('1.5'), float('inf'), str(12), bool([]), bool('0'))"),
 ("ListMethods", "", "(lambda x: (x.append(4), x.insert(0, 0), x.pop(), x.index(2), x.count(1), x)[1:])([1, 2, 3])"),
 ("ListSlices", "l", "(l[2:5], l[:-3], l[::3], l[5:1:-1], len(l), l[-1])"),
 ("ListOps", "", "([1, 2] + [3], [0] * 3, [1, 2] == [1, 2], [1, 2] < [1, 3], 3 in [1, 2, 3])"),
 ("TupleOps", "", "((1, 2) + (3,), (1, 2) * 2, (1, 2, 3)[1:], (1, 2, 2).count(2), (5, 6).index(6))"),
 ("DictMethods", "d", "(sorted(d.keys()), d.get('z', 0), d.get('a'), len(d), 'b' in d, list(d.items())[0])"),
 ("DictUpdate", "d", "(lambda x: (x.update({'z': 26}), x.pop('a'), sorted(x.items()))[1:])(dict(d))"),
 ("SetOps", "", "(sorted({1, 2, 3} | {3, 4}), sorted({1, 2, 3} & {2, 3, 5}), sorted({1, 2} - {2}), {1, 2} <= {1, 2, 3})"),
 ("Lambda", "", "(lambda a, b=2: a * b)(3)"),
 ("LambdaClosure", "", "[f(10) for f in [lambda x, k=k: x + k for k in range(3)]]"),
 ("Ternary", "", "['even' if n % 2 == 0 else 'odd' for n in range(4)]"),
 ("ChainedCompare", "", "(1 < 2 < 3, 1 < 3 < 2, 2 == 2.0, 0.1 + 0.2 == 0.3, None is None, 1 != 1.0)"),
 ("BoolOps", "", "(0 or 'x', 1 and 'y', not 0, [] or [1], 'a' and '')"),
 ("BitOps", "", "(5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 10, -16 >> 2)"),
 ("AbsSumLen", "", "(abs(-3), abs(-2.5), sum([1, 2, 3], 10), sum([0.1] * 10), len(range(0, 10, 3)))"),
 ("RangeRepr", "", "(range(5), list(range(10, 0, -3)), range(2, 8)[1], list(range(0)))"),
 ("HashEquality", "", "(hash(1) == hash(1.0), hash('a') == hash('a'), {1: 'a', 1.0: 'b'})"),
 # numpy
 ("NpBroadcastAdd", "a", "a + np.array([10, 20, 30])"),
 ("NpBroadcastColumn", "a", "a * np.array([[1], [-1]])"),
 ("NpFloatIntPromotion", "a", "(a / 2, (a / 2).dtype, (a // 2).dtype, (a * 1.5).dtype)"),
 ("NpFloat32Arith", "f", "(f * 2, (f * 2).dtype, (f + 1).dtype, (f + np.float64(1)).dtype)"),
 ("NpSumAxis", "a", "(a.sum(), a.sum(axis=0), a.sum(axis=1), np.sum(a, axis=0).dtype)"),
 ("NpMeanStd", "f", "(f.mean(), f.mean(axis=0), f.std(), np.std(f, axis=1))"),
 ("NpMinMaxArg", "f", "(f.min(), f.max(axis=1), np.argmax(f), np.argmin(f, axis=0), np.amax(f))"),
 ("NpCumsum", "a", "(np.cumsum(a), np.cumsum(a, axis=1), a.cumsum(axis=0))"),
 ("NpWhere", "a", "np.where(a % 2 == 0, a, -1)"),
 ("NpWhereScalar", "f", "np.where(f > 0, f, 0.0)"),
 ("NpClip", "f", "(np.clip(f, -1, 1), np.clip(np.arange(5), 1, 3))"),
 ("NpSortArgsort", "", "(np.sort(np.array([3, 1, 2])), np.argsort(np.array([3.5, -1.0, 2.0])), np.sort(np.array([[3, 1], [0, 2]]), axis=0))"),
 ("NpConcatenate", "a", "(np.concatenate([a, a]), np.concatenate([a, a], axis=1).shape)"),
 ("NpStack", "", "(np.stack([np.arange(2), np.arange(2) + 5]), np.stack([np.arange(2), np.arange(2)], axis=1))"),
 ("NpReshapeMinusOne", "a", "(a.reshape(-1), a.reshape(3, -1), a.reshape(-1, 1).shape, a.ravel())"),
 ("NpTranspose", "a", "(a.T, a.T.shape, a.T[0])"),
 ("NpSlicing", "a", "(a[1], a[:, 1], a[::-1, ::2], a[0, -1], a[1:, 1:])"),
 ("NpComparisons", "a", "(a > 2, a == 3, (a > 1).sum(), np.array_equal(a, a.copy()))"),
 ("NpIsclose", "", "(np.isclose(np.array([1.0, 1.1]), 1.0), np.allclose([1.0, 2.0], [1.0, 2.0 + 1e-9]), np.isclose(0.1 + 0.2, 0.3))"),
 ("NpMathFunctions", "", "np.round(np.array([np.sin(0.5), np.cos(0.5), np.tan(0.5), np.exp(1.0), np.log(10.0)]), 6)"),
 ("NpArcFunctions", "", "np.round(np.array([np.arcsin(0.5), np.arccos(0.5), np.arctan(1.0), np.log2(8.0), np.log10(1000.0)]), 6)"),
 ("NpSqrtAbs", "f", "(np.sqrt(np.abs(f)), np.abs(np.array([-1, 2, -3])))"),
 ("NpFloorCeilRint", "", "(np.floor(np.array([-1.5, 1.5])), np.ceil(np.array([-1.5, 1.5])), np.rint(np.array([0.5, 1.5, 2.5])))"),
 ("NpMaximumMinimum", "", "(np.maximum(np.array([1, 5, 3]), 4), np.minimum(np.array([1.5, -2.0]), np.array([0.0, 0.0])))"),
 ("NpLinspace", "", "(np.linspace(0, 1, 5), np.linspace(-1, 1, 3, dtype=np.float32))"),
 ("NpArangeDtypes", "", "(np.arange(3, dtype=np.float32), np.arange(1, 2, 0.25), np.arange(5)[::2])"),
 ("NpZerosOnesFull", "", "(np.zeros((2, 2), dtype=np.int32), np.ones(3), np.full((2,), 7.5), np.full_like(np.arange(3), 9))"),
 ("NpLikeAndEye", "a", "(np.zeros_like(a), np.ones_like(a, dtype=np.float32), np.eye(3), np.identity(2, dtype=np.int64))"),
 ("NpDtypeNames", "", "[str(np.dtype(t)) for t in [np.float16, np.float32, np.float64, np.int8, np.uint16, np.int64, np.bool_]]"),
 ("NpAstype", "f", "(f.astype(np.int32), f.astype(np.float64).dtype, np.arange(3).astype(np.float32) / 3)"),
 ("NpScalars", "", "(np.float32(1.1), np.float32(1.1) * 3, np.float64(2) ** 0.5, np.int32(7) // 2, np.float32(0.1) + np.float32(0.2))"),
 ("NpScalarPrint", "", "str(np.float32(1 / 3)) + ' ' + str(np.float64(1 / 3)) + ' ' + str(np.float16(0.1)) + ' ' + str(np.int8(-5))"),
 ("NpTolistItem", "a", "(a.tolist(), a[1, 2].item(), type(a.sum().item()).__name__, np.array([1.5]).tolist())"),
 ("NpShapeProps", "f", "(f.shape, f.ndim, f.size, f.dtype, f.itemsize, np.shape(f))"),
 ("NpPrintFloat", "", "np.array([1.0, 2.5, -3.25, 1e-3])"),
 ("NpPrintSci", "", "np.array([1e-8, 1.0, 1e8])"),
 ("NpPrintFloat32Precision", "", "np.array([1 / 3, 2 / 3], dtype=np.float32)"),
 ("NpPrintBool", "", "np.array([True, False, True])"),
 ("NpPrintInts2d", "", "np.arange(12).reshape(3, 4) * 111"),
 ("NpPrintNegZeroNan", "", "np.array([-0.0, np.nan, np.inf, -np.inf, 1.0])"),
 ("NpVarAndMeanDtypes", "a", "(np.var(a), a.var(axis=0), np.mean(a, axis=1).dtype, a.mean().dtype)"),
 ("NpNonzero", "", "np.nonzero(np.array([0, 3, 0, 4]))"),
 ("NpMixedPythonScalars", "", "(np.arange(3) + 0.5, (np.arange(3) + 0.5).dtype, (np.arange(3, dtype=np.int8) + 1).dtype, (np.arange(3, dtype=np.float16) * 2.0).dtype)"),
 ("NpUnaryNeg", "a", "(-a, +a, abs(-a))"),
 ("NpPowAndMod", "a", "(a ** 2, a % 4, 2 ** a, a ** 0.5)"),
 ("NpMatrixSum2", "", "np.arange(24).reshape(2, 3, 4).sum(axis=1)"),
 ("NpFloat16Arith", "", "(np.array([0.1, 0.2], dtype=np.float16) * 3, np.array([65504.0], dtype=np.float16) * 2)"),
 ("NpBoolArith", "", "(np.array([True, False]) + 1, np.array([True, True]).sum(), (np.array([1, 2]) > 1).dtype)"),
 # exceptions: the line the error prints
 ("ErrZeroDivision", "", "1 / 0"),
 ("ErrZeroDivisionInt", "", "5 // 0"),
 ("ErrZeroDivisionMod", "", "5 % 0"),
 ("ErrIndexList", "l", "l[10]"),
 ("ErrIndexTuple", "", "(1, 2)[5]"),
 ("ErrIndexStr", "", "'abc'[3]"),
 ("ErrKeyDict", "d", "d['zz']"),
 ("ErrTypeAdd", "", "1 + 'a'"),
 ("ErrTypeAddStr", "", "'a' + 1"),
 ("ErrTypeCall", "", "5()"),
 ("ErrTypeLen", "", "len(5)"),
 ("ErrTypeSubscript", "", "None[0]"),
 ("ErrTypeMul", "", "[1] * 1.5"),
 ("ErrTypeIter", "", "list(5)"),
 ("ErrTypeCompare", "", "1 < 'a'"),
 ("ErrValueInt", "", "int('abc')"),
 ("ErrValueFloat", "", "float('x1')"),
 ("ErrValueUnpack", "", "(lambda: [a for a, b in [(1, 2, 3)]])()"),
 ("ErrValueListIndex", "l", "l.index(42)"),
 ("ErrNameUndefined", "", "undefined_thing + 1"),
 ("ErrNameSuggestion", "l", "ll"),
 ("ErrAttributeList", "l", "l.push(1)"),
 ("ErrAttributeStr", "", "'a'.foo"),
 ("ErrAttributeNumpy", "", "np.no_such_function"),
 ("ErrNpShapeMismatch", "a", "a + np.arange(4)"),
 ("ErrNpReshape", "a", "a.reshape(4, 4)"),
 ("ErrNpIndex", "a", "a[5]"),
 ("ErrNpAxis", "a", "a.sum(axis=2)"),
 ("ErrPopEmpty", "", "[].pop()"),
 ("ErrDictPop", "d", "d.pop('missing')"),
 ("ErrFormatSpec", "", "format('abc', 'd')"),
 ("ErrFormatIndex", "", "'{1}'.format('a')"),
 ("ErrPercentArgs", "", "'%d %d' % (1,)"),
 ("ErrChr", "", "chr(-1)"),
 ("ErrRange", "", "range(1, 2, 0)"),
 ("ErrSortedMixed", "", "sorted([1, 'a'])"),
 ("ErrMinEmpty", "", "min([])"),
 ("ErrRoundStr", "", "round('a')"),
]

def run(code):
    p = subprocess.run(['/usr/bin/python3', '-c', 'import numpy as np\n' + code], capture_output=True, text=True)
    if p.returncode != 0:
        return None, [l for l in p.stderr.splitlines() if l.strip()][-1]
    return p.stdout, None

def c(s):
    out = '"'
    for ch in s:
        if ch == '\\': out += '\\\\'
        elif ch == '"': out += '\\"'
        elif ch == '\n': out += '\\n'
        elif ch == '\t': out += '\\t'
        else: out += ch
    return out + '"'

lines = ['// Generated by gen_host_expr_cases.py from CPython 3.11 and NumPy 1.24.2: the expected',
         '// text is what they print for each expression (or the exception line it raises).',
         '// Included by host_expr_test.cpp.', '', 'const ExprCase kExprCases[] = {']
seen = set()
for name, setup, expr in CASES:
    assert name not in seen, name
    seen.add(name)
    code = SETUP[setup] + 'print(repr(' + expr + '))\n'
    out, err = run(code)
    raises = err is not None
    if name.startswith('Err'):
        assert raises, (name, out)
    else:
        assert not raises, (name, err)
    lines.append('    {"%s", %s, %s, %s, %s},' % (name, c(SETUP[setup]), c(expr), 'true' if raises else 'false',
                                               c(err if raises else out)))
lines.append('};')
open(sys.argv[1], 'w').write('\n'.join(lines) + '\n')
