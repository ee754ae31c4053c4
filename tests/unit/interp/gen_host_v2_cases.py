#!/usr/bin/python3
# Regenerates host_v2_cases.inc: runs each case below under CPython 3.11 with NumPy 1.24 (the
# oracle) and writes its output, or its error line, as the expected text of host_v2_test.cpp.
# Usage: /usr/bin/python3 gen_host_v2_cases.py host_v2_cases.inc   (the tests need no Python)
import subprocess
import sys

OUTPUTS = [
 ("NpRoundHalfEvenKeepsFloat32",
  "a = np.array([0.5, 1.5, 2.5, -0.5, 1.2345, 2.675], dtype=np.float32)\n"
  "print(np.round(a), np.round(a, 2), np.around(a, 1), a.round(3), np.round(a, 2).dtype)\n"
  "print(np.round(np.arange(5, dtype=np.float32) * 0.7 + 0.5, 4))\n"),
 ("NpRoundIntegersAndScalars",
  "print(np.round(np.array([1234, 1250, 1350, -1250]), -2), np.round(np.array([1, 2, 3]), 2), np.round(np.array([12345.678]), -2))\n"
  "print(np.round(2.5), np.round(3), repr(np.round(np.float32(1.25), 1)), np.round([1.25, 2.35], 1), np.round(True))\n"
  "print(np.round(np.array([1.5], dtype=np.float16), 2), np.round(np.array([np.nan, np.inf, -np.inf]), 2), np.round(np.array([1.23456789e10]), 12))\n"),
 ("PythonRound",
  "print(round(1234, -2), round(1250, -2), round(1350, -2), round(-1250, -2), round(2.675, 2), round(12345.0, -2), round(1e22 + 1, -21))\n"
  "print(round(0.5), round(-0.5), round(-1.5), round(5, 0), round(5.0, 0), round(1e300, 400), round(123.456, -5), round(-123.456, -5))\n"
  "print(round(0.125, 2), round(0.375, 2), round(1e-320, 320), round(25.0000001, -1), round(-25.0, -1), round(35.0, -1), round(4.99, -1))\n"
  "print(round(12345678901234567, -3), round(-15, -1), round(25, -1), round(True), round(2.5), round(3.5), round(-2.5))\n"
  "print(round(np.float64(2.5)), round(np.float32(2.5)), repr(round(np.float32(1.2345), 2)), round(np.float32(2.5), 0), round(np.int32(1250), -2), round(np.int64(7)))\n"),
 ("FStrings",
  "x = 3.14159\nn = 42\nname = 'abc'\nv = [1, 'a']\nw = 8\nd = {'k': 5}\n"
  "print(f'{x:.3f} {n:>5} {v!r} {x:e} {x:g} {1234567:,} {name!r:>8} |{name:^9}|')\n"
  "print(f'{x=}', f'{n = }', f'{x=:.2f}', f'{{literal}} {n}', f'{\"q\"}', f'{n:{w}}|{x:{w}.{2}f}')\n"
  "print(f\"{d['k']} {len(v)} {v[0] + 1} {n!s:>4} {n != 3} {x:10.4} {x:<10}| {name!a}\")\n"
  "print(f'''two\n{n + 1} {'x' if n > 3 else 'y'}''', 'a' f'{n}' 'b{}', F'{n}', rf'\\{n}', f'\\t{n}\\x41')\n"),
 ("FormatSpecs",
  "for v, s in [(1234, '010,'), (1234, '09,'), (float('inf'), '010'), (float('nan'), '+010'), (True, '>5'), (True, ''),\n"
  "             (5, '<05'), (5, '^05'), (-5, '05'), (-5, '=5'), (255, '#x'), (-255, '#010x'), (1234567, '_x'), (1234567, '_'),\n"
  "             (1234.5, ','), (1234567.891, ',.2f'), (1e16, ''), (1e16, '.3'), (12.0, '.3'), (1234.0, '.3'), (0.0001, '.3'),\n"
  "             (1.5, '10'), (-0.0, 'z.1f'), (-0.0001, 'z.1f'), (3, 'e'), (3, '%'), (65, 'c'), ('abc', '.2'), ('abc', '*^8'),\n"
  "             ('\\u00e9', '>3'), (0.5, '.0f'), (1.5, '.0f'), (2.5, '.0e'), (1e-07, ''), (123456789.0, '.4'), (0.1, '#.0f'),\n"
  "             (1.0, '#g'), (1.0, '#'), (5, '#o'), (5, '#b'), (1.5, 'n'), (-1.5, ' '), (1.5, ' '), (100, '_b'), (1, '.0%'),\n"
  "             (0.123456, '%'), (3, '=+3'), (0.1, '.17'), (2.0 ** 70, 'f'), ('ab', '05'), (1e100, 'g'), (1234.5, 'E')]:\n"
  "    print(repr(v), repr(s), repr(format(v, s)))\n"),
 ("StrFormatFields",
  "print('{:>10}|{:<6}|{:^7}|{:*^9}|{:=+8}'.format('hi', 1.5, 'c', 'mid', 42))\n"
  "print('{0}{1}{0}'.format('a', 'b'), '{a}-{b}'.format(a=1, b=2), '{:,.2f}'.format(1234567.891), '{:_}'.format(1234567))\n"
  "print('{0[1]}'.format([5, 6]), '{a[k]}'.format(a={'k': 3}), '{:{}}'.format(3, 5), '{0:{1}}'.format(3, 5), '{0.shape}'.format(np.zeros(2)))\n"
  "print('{:{w}.{p}f}'.format(3.14159, w=8, p=2), '{!r:>6}'.format('a'), '{0!a}'.format('\\u00e9'), '{:}'.format(1), 'x{}y'.format(''))\n"
  "print('{} {} {}'.format(np.float32(1.5), np.int64(3), np.float64(0.25)), '{:>8}'.format(np.float32(1.5)), '{:.3f}'.format(np.float32(0.1)))\n"),
 ("PercentFormatting",
  "print('%d %5.2f %-5s| %r %x %e %g %%' % (5, 3.14159, 'ab', 'q', 255, 12345.678, 0.0001))\n"
  "print('%s' % 'single', '%s and %s' % ('a', 'b'), '%(k)s' % {'k': 'dict'}, '%05d' % 42, '%+.1f' % 2.25, '%i' % 3)\n"
  "print('%010f' % float('inf'), '%-6d|' % 5, '%.3d' % 5, '%+5d' % 5, '% d' % 5, '%#o' % 8, '%#x' % 255, '%#X' % 255)\n"
  "print('%5s|' % '\\u00e9', '%.2s' % 'abc', '%c' % 65, '%c' % 'z', '%d' % 3.7, '%d' % True, '%i' % -2.5, '%#g' % 1.0)\n"
  "print('%5.1f|' % float('nan'), '%*d' % (5, 3), '%-*.*f|' % (8, 2, 3.14159), '%05.1f' % -2.5, '%x' % -255, '%s' % {'a': 1})\n"
  "print('%(a)s-%(b)05.1f' % {'a': 'x', 'b': 2.25}, '%s' % ((1, 2),), '%d %s %.2f %r %x' % (np.int64(5), np.float32(0.1), np.float32(0.1), np.float64(0.5), np.int32(255)))\n"),
 ("NpFloatFunctions",
  "x = np.array([0.0, 0.5, 1.0, 2.0])\n"
  "print(np.sin(x), np.cos(x), np.tan(x), np.arctan(x))\n"
  "print(np.arcsin(x[:3]), np.arccos(x[:3]), np.log(x[1:]), np.log2(x[1:]), np.log10(np.array([1, 10, 1000])))\n"
  "print(np.sin(np.arange(3)).dtype, np.log(np.arange(1, 3, dtype=np.int8)).dtype, np.cos(np.float32(0.5)).dtype, np.floor(np.array([-1.5, 2.5])), np.ceil(np.array([-1.5, 2.5])))\n"),
 ("NpReductions",
  "a = np.array([[3, 7, 1], [9, 2, 8]])\nf = np.array([[0.5, -1.5], [2.25, 4.0]], dtype=np.float32)\n"
  "print(np.max(a), np.min(a), a.max(), a.min(axis=0), np.max(a, axis=1), np.amax(a, axis=-1), np.amin(f))\n"
  "print(np.argmax(a), np.argmin(a), a.argmax(axis=0), np.argmin(a, axis=1), np.argmax(np.array([1.0, np.nan, 3.0])), np.max(np.array([1.0, np.nan])))\n"
  "print(np.mean(a), a.mean(axis=0), np.mean(f), np.mean(f, axis=1), np.mean(np.arange(5, dtype=np.float16)), np.mean([1, 2]))\n"
  "print(np.std(a), a.std(axis=1), np.std(f), np.std([1, 2, 3, 4], ddof=1), np.var(a), np.std(np.array([1, 2, 3, 4], dtype=np.float32)))\n"
  "print(np.mean(a).dtype, np.mean(f).dtype, np.std(f, axis=0).dtype, np.max(f).dtype, np.argmax(f).dtype)\n"),
 ("NpCumsumSortWhere",
  "a = np.array([[3, 7, 1], [9, 2, 8]])\n"
  "print(np.cumsum(a), np.cumsum(a, axis=0), a.cumsum(axis=1), np.cumsum(np.array([0.1, 0.2, 0.3], dtype=np.float32)), np.cumsum([True, True]))\n"
  "print(np.sort(a), np.sort(a, axis=0), np.sort(a, axis=None), np.argsort(a), np.argsort(np.array([3, 1, 2, 1, 3])), np.sort(np.array([2.0, np.nan, -1.0])))\n"
  "b = np.array([5, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3])\nprint(np.argsort(b))\n"
  "c = a.copy()\nc.sort()\nprint(c, np.where(a > 4, a, 0), np.where(a > 4, a, 0.5), np.where([True, False], 1, 2), np.where(a > 6))\n"),
 ("NpClipJoinAndBuild",
  "a = np.array([[3, 7, 1], [9, 2, 8]])\n"
  "print(np.clip(a, 2, 7), np.clip(a, None, 5), a.clip(3), np.clip(np.array([1.5, np.nan, -3.0], dtype=np.float32), -1, 1))\n"
  "print(np.concatenate([a, a]), np.concatenate([a, a], axis=1), np.concatenate(([1, 2], [3.5])), np.concatenate([a, a], axis=None))\n"
  "print(np.stack([np.arange(3), np.arange(3) * 2]), np.stack([np.arange(2), np.arange(2)], axis=1), np.stack([np.float32(1), np.float32(2)]).dtype)\n"
  "print(np.isclose([1.0, 2.0, np.nan, np.inf], [1.0 + 1e-9, 2.1, np.nan, np.inf]), np.isclose(np.nan, np.nan, equal_nan=True), np.isclose(1, 1.00001))\n"
  "print(np.full_like(a, 7), np.full_like(np.zeros(2, dtype=np.float32), 2.5), np.full_like(a, 1.9, dtype=np.float64), np.eye(3), np.eye(2, 3, k=1, dtype=np.int32))\n"
  "print(a.reshape(-1), a.reshape((3, -1)), np.reshape(a, (-1, 2)), a.reshape(-1, 3).shape, np.minimum(a, 5), np.maximum(a, 5.0))\n"),
]

RAISES = [
 ("RoundNdarrayBuiltin", "", "round(np.zeros(3))"),
 ("RoundStr", "", "round('a')"),
 ("RoundOverflow", "", "round(1.7976931348623157e308, -308)"),
 ("RoundBoolArrayDecimals", "", "np.round(np.array([True]), 1)"),
 ("FormatPrecisionOnInt", "", "format(1, '.2d')"),
 ("FormatUnknownCode", "", "format(1.5, 'd')"),
 ("FormatInvalidSpec", "", "format(1, 'abc')"),
 ("FormatSignOnStr", "", "format('a', '+')"),
 ("FormatGroupingWithS", "", "format('a', ',')"),
 ("FormatMissingPrecision", "", "format(1, '.')"),
 ("FormatNone", "", "format(None, '>5')"),
 ("FormatArraySpec", "", "format(np.zeros(2), '>5')"),
 ("FormatSwitchNumbering", "", "'{0}{}'.format(1, 2)"),
 ("FormatIndexOutOfRange", "", "'{2}'.format(1)"),
 ("FormatMissingKey", "", "'{x}'.format()"),
 ("FormatBadConversion", "", "'{!x}'.format(1)"),
 ("FormatSingleBrace", "", "'}'.format()"),
 ("FStringRuntimeError", "x = 'a'\n", "print(f'{x:d}')"),
 ("PercentNotEnough", "", "'%s %s' % ('a',)"),
 ("PercentNotAll", "", "'%s' % ('a', 'b')"),
 ("PercentBadChar", "", "'%y' % 1"),
 ("PercentHexOfFloat", "", "'%x' % 3.5"),
 ("PercentNeedsMapping", "", "'%(a)s' % 1"),
 ("NpMaxEmpty", "", "np.max(np.zeros(0))"),
 ("NpArgmaxEmpty", "", "np.argmax(np.zeros(0))"),
 ("NpAxisOutOfBounds", "", "np.max(np.zeros((2, 2)), axis=3)"),
 ("NpConcatenateDims", "", "np.concatenate([np.zeros((2, 2)), np.zeros(3)])"),
 ("NpConcatenateShapes", "", "np.concatenate([np.zeros((2, 2)), np.zeros((2, 3))])"),
 ("NpConcatenateZeroD", "", "np.concatenate([np.zeros(()), np.zeros(3)])"),
 ("NpStackShapes", "", "np.stack([np.zeros(2), np.zeros(3)])"),
 ("NpClipNoBounds", "", "np.clip(np.zeros(2), None, None)"),
 ("NpReshapeBad", "", "np.arange(6).reshape(4, -1)"),
]

def run(code):
    p = subprocess.run(['/usr/bin/python3', '-c', 'import numpy as np\n' + code], capture_output=True, text=True)
    if p.returncode != 0:
        last = [l for l in p.stderr.splitlines() if l.strip()][-1]
        return None, last
    return p.stdout, None
def c(s):
    out = '"'
    for ch in s:
        if ch == '\\': out += '\\\\'
        elif ch == '"': out += '\\"'
        elif ch == '\n': out += '\\n"\n     "'
        elif ch == '\t': out += '\\t'
        else: out += ch
    out += '"'
    return out.replace('\\n"\n     ""', '\\n"')
lines = ['// Generated by gen_host_v2_cases.py from CPython 3.11 and NumPy 1.24.2 running the same',
         '// code: the expected text is theirs. Included by host_v2_test.cpp.', '']
lines.append('const OutputCase kOutputs[] = {')
for name, code in OUTPUTS:
    out, err = run(code)
    assert err is None, (name, err)
    lines.append('    {"%s",\n     %s,\n     %s},' % (name, c(code), c(out)))
lines.append('};\n')
lines.append('const RaiseCase kRaises[] = {')
for name, setup, failing in RAISES:
    out, err = run(setup + failing + '\n')
    assert err is not None, (name, out)
    lines.append('    {"%s", %s, %s, %s},' % (name, c(setup), c(failing), c(err)))
lines.append('};')
open(sys.argv[1], 'w').write('\n'.join(lines) + '\n')
