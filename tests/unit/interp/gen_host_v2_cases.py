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
 ("NpRandomScalarsShapesAndBroadcasting",
  "rng = np.random.default_rng(12345)\n"
  "print(repr(rng.random()), repr(rng.integers(5)), repr(rng.integers(5, dtype=int)), repr(rng.integers(0, 2, dtype=bool)), repr(rng.integers(3, dtype=np.uint8)), repr(rng.random(dtype=np.float32)))\n"
  "print(rng.random((2, 3)), rng.integers(0, 10, size=(2, 2), dtype=np.int16).dtype, rng.uniform([0, 10], [1, 20]))\n"
  "print(rng.choice(5), rng.choice([1.5, 2.5]), rng.choice(np.arange(6).reshape(3, 2)), rng.choice(np.arange(6).reshape(3, 2), 2), rng.permutation(np.arange(6).reshape(3, 2)))\n"
  "print(rng.integers(5, size=0), rng.choice(3, size=(2, 2)), rng.choice(3, 0), rng, rng.integers(7, 8), rng.integers(2, 2, endpoint=True))\n"
  "np.random.seed(5)\nprint(np.random.rand(), np.random.rand(2), np.random.randn(2, 2), np.random.randint(3, size=(2, 2)), repr(np.random.randint(4)), np.random.permutation(5))\n"
  "l = [1, 2, 3]\nnp.random.shuffle(l)\nprint(l, np.random.uniform([0, 10], 20), np.random.normal(size=2), np.random.standard_normal(3), np.random.random_sample())\n"
  "rs = np.random.RandomState(3)\nprint(rs.rand(2), rs.randint(5, size=3, dtype=np.int8), rs, np.random.default_rng([1, 2, 3]).random(), np.random.default_rng(2**40).random())\n"),
 ("NpRandomArrayBounds",
  "rng = np.random.default_rng(5)\n"
  "print(rng.integers([0, 10, 100], [5, 20, 1000]), rng.integers(0, [3, 300, 2**40], size=(2, 3)), rng.integers([1, 2], 9, dtype=np.uint8), rng.integers([0, 0], [2, 2], dtype=bool))\n"
  "print(rng.integers(np.array([[0], [5]]), [10, 20, 30], dtype=np.int16), rng.integers([-5, 5], [5, 15], endpoint=True, dtype=np.int8), rng.integers(0, np.arange(1, 6), dtype=np.int32))\n"
  "np.random.seed(3)\nprint(np.random.randint([0, 10], [5, 20]), np.random.randint(0, [2, 3, 4], dtype=np.uint16), np.random.randint([0, 1], 2, size=(3, 2)))\n"),
 ("Comprehensions",
  "print([x * x for x in range(5) if x > 1], [(i, j) for i in range(3) for j in range(i) if i + j > 1], [c for c in 'ab'])\n"
  "print({k: v * 2 for k, v in [(1, 2), ('a', 3)]}, {i: i % 2 == 0 for i in range(3) if i}, sum(x for x in range(4)), list(x + 1 for x in [1, 2]))\n"
  "print(max(len(w) for w in ['a', 'bbb']), [[j for j in range(i)] for i in range(3)], [x for x in np.arange(3) if x > 0], tuple(i for i in 'xy'))\n"
  "i = 'outer'\nprint([i for i in range(2)], i, [y for y in [i]], {k: 0 for k in []}, [])\n"
  "def f(n):\n    return [n * k for k in range(n)]\nprint(f(3), [f(k) for k in range(3)])\n"),
 ("Lambdas",
  "f = lambda x, y=2: x + y\nprint(f(1), f(1, y=5), f(y=1, x=3), (lambda: 7)())\n"
  "print(sorted([3, 1, 2], key=lambda v: -v), sorted(['bb', 'a', 'ccc'], key=len, reverse=True), sorted([(1, 'b'), (0, 'c'), (1, 'a')], key=lambda t: t[0]))\n"
  "def outer(n):\n    g = lambda k: k * n\n    return [g(i) for i in range(n)]\nprint(outer(3), list(map(str, [1])) if False else 'm', (lambda a, b: a * b)(3, 4))\n"
  "fs = [lambda x, k=k: x + k for k in range(3)]\nprint([h(10) for h in fs], sorted(['b', 'A', 'c'], key=lambda s: s.lower()), sorted([2, 1], reverse=True))\n"),
 ("AnyAllSortedReversedIsinstance",
  "print(any([0, 1]), any([]), all([]), all([1, 0]), any(x > 2 for x in [1, 2]), all(x > 0 for x in [1, 2]), any(np.array([0, 2])))\n"
  "print(list(reversed([1, 2, 3])), list(reversed(range(3))), list(reversed('ab')), sorted('bca'), sorted([1.5, -2, 0]), sorted((3, 1)))\n"
  "print(isinstance(1, int), isinstance(True, int), isinstance(1.0, (int, float)), isinstance('a', str), isinstance([], list), isinstance(1, str))\n"),
 ("TryExceptElseFinally",
  "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    print('caught', e, repr(e), e.args)\nelse:\n    print('no')\nfinally:\n    print('fin')\n"
  "try:\n    print('body')\nexcept ValueError:\n    print('bad')\nelse:\n    print('else ran')\n"
  "def g():\n    try:\n        return 1\n    finally:\n        print('finally in g')\nprint(g())\n"
  "def h():\n    for i in range(3):\n        try:\n            if i == 1:\n                continue\n            if i == 2:\n                return 'ret'\n            print('i', i)\n        finally:\n            print('f', i)\nprint(h())\n"
  "try:\n    {}['k']\nexcept KeyError as e:\n    print('key', e, repr(e))\nexcept Exception:\n    print('no')\n"
  "try:\n    [1][3]\nexcept LookupError as e:\n    print('lookup', e)\n"
  "try:\n    np.zeros(2).reshape(3)\nexcept ValueError as e:\n    print('np', e)\n"
  "try:\n    np.max(np.zeros((2, 2)), axis=3)\nexcept IndexError as e:\n    print('axis', e)\n"
  "try:\n    undefined_name\nexcept NameError as e:\n    print('name', e)\n"
  "try:\n    int('x')\nexcept (TypeError, ValueError) as e:\n    print('conv', e, isinstance(e, ValueError), isinstance(e, Exception), isinstance(e, TypeError))\n"
  "def swallow():\n    try:\n        raise RuntimeError('x')\n    finally:\n        return 'swallowed'\nprint(swallow())\n"
  "try:\n    try:\n        raise KeyError('inner')\n    except KeyError:\n        raise\nexcept KeyError as e:\n    print('reraised', e)\n"
  "try:\n    pass\nexcept:\n    pass\nfinally:\n    print('only finally')\n"),
 ("RaiseAndExceptionObjects",
  "try:\n    raise ValueError('bad value', 3)\nexcept Exception as e:\n    print(e, repr(e), e.args, str(e))\n"
  "try:\n    raise TypeError\nexcept TypeError as e:\n    print(repr(e), str(e) == '', e.args)\n"
  "try:\n    raise KeyError('k') from None\nexcept KeyError as e:\n    print(e, repr(e))\n"
  "err = RuntimeError('stored')\ntry:\n    raise err\nexcept RuntimeError as e:\n    print(e is err, e)\n"
  "print(ValueError, ValueError('x'), str(KeyError('a')), repr(RuntimeError()), repr(IndexError(1, 'b')), ZeroDivisionError.__name__)\n"
  "print(isinstance(KeyError(), LookupError), isinstance(ValueError(), (TypeError, ValueError)), isinstance(ZeroDivisionError(), ArithmeticError))\n"),
 ("Sets",
  "print({3, 1, 2}, {x % 5 for x in range(20)}, set(), set([5, 3, 5]), {-1, -2, 10, 8, 100, 16}, {1.5, 2.0, 0.25, -3.75}, {True, 1, 1.0}, {(1, 2), (0, 1), (2, 3)})\n"
  "s = set(range(30))\nprint(s, len(s), 3 in s, 99 in s, 2 not in s)\ns.discard(3)\ns.add(100)\ns.add(3)\ns.remove(4)\nprint(s)\n"
  "a = {1, 2, 3, 40, 50}\nb = {3, 50, 60, 1000}\n"
  "print(a | b, b | a, a & b, b & a, a - b, b - a, a ^ b, b ^ a, set(a), a.union(b, [99, 98]), a.copy(), a.intersection([50, 1, 7]), a.difference([1], {2}))\n"
  "print(a <= {1, 2, 3, 40, 50, 6}, a < a, a == {50, 40, 3, 2, 1}, a != b, a.issubset(range(100)), a.issuperset([1, 2]), sorted({9, 1, 5}), bool(set()), {0.1, 0.2, 0.3})\n"
  "s = {i for i in range(100)}\nfor i in range(0, 100, 3):\n    s.discard(i)\ns.add(3)\ns.add(1000)\ns.update([7, 2000])\nprint(s)\n"
  "print({x * 7919 % 1000 for x in range(50)}, {2**40, 3, -7, 2**33, 12, 13, 14, 15, 16, 17, 18}, hash(0.1), hash(-1), hash((1, 2.5)), hash(2**62), {-5, -4, -3, -2, -1, 0, 1, 2})\n"),
 ("MapFilterKeysAndType",
  "print(list(map(str, [1, 2])), list(map(lambda a, b: a * b, [1, 2, 3], [4, 5])), list(filter(None, [0, 1, '', 'a'])), list(filter(lambda x: x % 2, range(7))))\n"
  "m = map(abs, [-1, 2])\nprint(list(m), list(m), max([3, -7, 2], key=abs), min(['bb', 'a', 'ccc'], key=len), max([], default=5), max(1, 3, 2), min((4, 'x'), (4, 'a')))\n"
  "print(sum(map(lambda x: x * x, range(4))), sorted(map(lambda s: s.upper(), ['b', 'a'])), any(map(bool, [0, 0])), max({'a': 3, 'b': 1}, key=lambda k: -ord(k)), ord('A'), chr(97), chr(233), ord(chr(0x1F600)))\n"
  "print(type(1), type(1.5), type('a'), type([]), type(True), type(np.zeros(2)), type(np.float32(1)), type({}), type((1,)), type(set()))\n"
  "print(type(1) is int, type(1.0) == float, type(ValueError('x')), type(ValueError('x')) is ValueError, type(1).__name__, type(np.zeros(1)).__name__)\n"),
 ("NpLargeSumsChunkedPairwise",
  "rng = np.random.default_rng(3)\n"
  "for n in [8192, 8193, 10000, 16385, 100000, 1000003]:\n"
  "    x = rng.random(n) * 10.0 - 3.0\n"
  "    print(n, x.sum(), x.mean(), x.std(), x.var(), x.astype(np.float32).sum(), np.mean(x.astype(np.float32)))\n"
  "x = rng.random((3, 40000))\n"
  "print(x.sum(), x.sum(axis=1), x.mean(axis=1), x.astype(np.float32).sum(axis=1), x.T.sum(axis=0))\n"),
 ("StringMethods",
  "print('a,b,,c'.split(','), ' a  b '.split(), 'a b c'.split(' ', 1), 'a b c'.split(maxsplit=1), 'xxhixx'.strip('x'), '  hi '.lstrip(), ' hi  '.rstrip(), 'aaa'.replace('a', 'b', 2))\n"
  "print('-'.join(str(i) for i in range(3)), ''.join([]), 'Hello'.startswith(('He', 'x')), 'Hello'.startswith('l', 2), 'hello'.endswith('lo'), 'AbC'.upper(), 'AbC'.lower())\n"
  "print('abcabc'.find('c'), 'abc'.find('z'), 'abcabc'.rfind('b'), 'abcabc'.count('b'), '12'.isdigit(), 'ab'.isalpha(), 'a b'.title(), 'ab'.capitalize(), 'x'.center(5, '*'), 'x'.ljust(3) + '|', 'x'.rjust(3), '-5'.zfill(4))\n"
  "print('a\\nb\\r\\nc'.splitlines(), 'abc'.index('b'), 'a'.join('xyz'), 'ab'.rsplit('b'), 'a-b-c'.rsplit('-', 1), 'aXbXc'.partition('X'), 'aXbXc'.rpartition('X'), 'ab'.center(5), 'abc'.center(6))\n"
  "print(' a b '.split(None, 1), '  a b'.rsplit(None, 1), 'x'.replace('', '-'), 'abab'.count(''), 'aaaa'.count('aa'), 'ab'.find('b', -1), 'AB'.isupper(), 'aB'.islower(), ''.split(','), 'a'.strip(None))\n"),
 ("AdvIndexMask1D",
  "x = np.arange(10) * 3\n"
  "print(x[x > 4], x[(x > 4) & (x < 20)], x[x > 100], x[[True, False] * 5], x[x % 2 == 0].shape)\n"),
 ("AdvIndexIntLists1D",
  "x = np.arange(10) * 3\n"
  "print(x[[1, 3, -1]], x[[0, 0, 2]], x[[-10, 9]], x[[[0, 1], [2, 3]]], x[(0, 2),], x[[0, 2],], x[[True, 1]])\n"),
 ("AdvIndexIntArraysOfDtypes",
  "x = np.arange(10) * 3\n"
  "print(x[np.array([0, 2])], x[np.array([1, 2], dtype=np.uint8)], x[np.array([-1, -10], dtype=np.int8)], x[np.array([4], dtype=np.int32)])\n"
  "print(x[np.array([[0, 1], [2, 3]])], x[np.array([[[5]], [[6]]])].shape, x[np.arange(3)[::-1]], x[[np.int64(1), 2]])\n"),
 ("AdvIndex2DIntsAndSlices",
  "y = np.arange(20).reshape(4, 5)\n"
  "print(y[:, [0, 4]], y[1, [2, 3]], y[[0, 2]], y[[0, 1], [1, 2]], y[[-1, 0], -1], y[1:3, [4, 0]], y[[3, 1], ::2])\n"),
 ("AdvIndex2DMasks",
  "y = np.arange(20).reshape(4, 5)\n"
  "print(y[y % 3 == 0], y[y[:, 0] > 5], y[:, y[0] > 1], y[np.array([True, False, True, False]), 1:3], y[[True, False, True, True], [0, 1, 4]])\n"),
 ("AdvIndex3DAdjacent",
  "a = np.arange(24).reshape(2, 3, 4)\n"
  "print(a[:, [0, 1], :], a[:, [0, 2], [1, 3]], a[1, [2, 0], [3, 3]], a[:, :, [-1]].shape, a[[1], [2]].shape)\n"),
 ("AdvIndex3DNonAdjacent",
  "a = np.arange(24).reshape(2, 3, 4)\n"
  "print(a[[0, 1], :, [1, 2]], a[0, :, [0, 1]], a[[1, 0], 1:, 0], a[:, [0, 1, 2], None, [0, 1, 2]].shape)\n"
  "print(a[[0], None, [0]].shape, a[None, [1, 0]].shape, a[:, None, [1, 0], None].shape, a[1, None, [2, 0], 1:3])\n"),
 ("AdvIndexBroadcastIndexArrays",
  "a = np.arange(24).reshape(2, 3, 4)\n"
  "print(a[np.array([[0], [1]]), np.array([0, 2])], a[[[0]], [1, 2], [[3], [0]]], a[[1, 0], [[2], [1]], 0])\n"),
 ("AdvIndex3DMasks",
  "a = np.arange(24).reshape(2, 3, 4)\n"
  "print(a[a[:, :, 0] > 4], a[np.ones((2, 3), bool)].shape, a[:, [True, False, True]], a[a > 20], a[0, a[0, :, 0] > 0, 1:3])\n"),
 ("AdvIndexScalarBoolAndNewaxis",
  "x = np.arange(5)\na = np.arange(24).reshape(2, 3, 4)\n"
  "print(x[True], x[False].shape, x[[0, 1], None], x[None, [0, 1]], a[True, 0].shape, a[0, True, [0, 1]], x[True, [0, 1]], np.array(5)[True])\n"),
 ("AdvIndexEmptySelections",
  "x = np.arange(5)\ny = np.arange(20).reshape(4, 5)\n"
  "print(repr(x[x > 100]), repr(x[[]]), repr(y[[], 0]), repr(y[:, []]), np.zeros((2, 0))[[1, 0]].shape)\n"
  "print(repr(x[np.array([], dtype=np.int64)]), repr(x[[[]]]), repr(y[y < 0]), repr(x[False]))\n"),
 ("AdvIndexKeepsDtype",
  "f = np.arange(6, dtype=np.float32).reshape(2, 3)\nb = np.array([True, False, True])\ni = np.arange(4, dtype=np.int32)\n"
  "print(repr(f[[1, 0]]), repr(f[f > 2]), repr(b[[0, 0, 1]]), repr(b[b]), repr(i[[3, 3]]), repr(i[i > 1]), i[[0]].dtype)\n"),
 ("AdvIndexResultsAreCopies",
  "x = np.arange(6)\ns = x[[1]]\ns[0] = 99\nm = x[x > 2]\nm[:] = 0\nt = x[[1, 2]]\nt += 5\n"
  "print(x, s, m, t)\n"),
 ("AdvIndexTransposedSource",
  "t = np.arange(12).reshape(3, 4).T\n"
  "print(t[[0, 3]], t[:, [2, 0]], t[t > 6], t[[1, 2], [0, 2]])\n"
  "t[[0, 3], 1] = -1\nprint(t)\n"),
 ("AdvAssignScalars",
  "z = np.zeros(5)\nz[[0, 2]] = 7\nz[np.array([4])] = 1.5\nprint(z)\nz[z > 5] = -1\nprint(z)\n"
  "y = np.arange(12).reshape(3, 4)\ny[:, [1, 2]] = 0\ny[[0, 1], [3, 3]] = 9\ny[y == 0] = 100\ny[[0, 2], 0] = 2.9\nprint(y)\n"),
 ("AdvAssignBroadcastValues",
  "w = np.arange(12).reshape(3, 4)\nw[:, [1, 2]] = [10, 20]\nprint(w)\nw[[0, 2]] = [[1], [2]]\nprint(w)\n"
  "v = np.arange(5)\nv[[3, 4]] = [[7, 8]]\nv[[0, 1]] = [[[5, 6]]]\nprint(v)\n"
  "m = np.arange(6).reshape(2, 3)\nm[m > 2] = [7, 8, 9]\nprint(m)\nm[m > 7] = [5]\nprint(m)\nm[np.array([True, False])] = [1, 2, 3]\nprint(m)\n"),
 ("AdvAssignRepeatedAndCast",
  "x = np.arange(5)\nx[[0, 0, 0]] = [1, 2, 3]\nx[np.array([1, 1])] = [5, 6]\nprint(x)\nx[[2, 3]] = 2.7\nx[[4]] = np.array([True])\nprint(x)\n"
  "b = np.array([True, False, True])\nb[[0, 1]] = [0, 5]\nprint(b)\n"
  "f = np.zeros(3, dtype=np.float32)\nf[[0, 2, 0]] = np.array([1, 2, 3], dtype=np.int64)\nprint(repr(f))\n"),
 ("AdvAssignOverlappingValue",
  "x = np.arange(6)\nx[[1, 0]] = x[0:2]\nprint(x)\n"
  "x = np.arange(6)\nx[[2, 3]] = x[1:3]\nprint(x)\n"
  "x = np.arange(6)\nx[x > -1] = x[::-1]\nprint(x)\n"
  "x = np.arange(12).reshape(3, 4)\nx[:, [1, 0]] = x[:, 0:2]\nprint(x)\n"),
 ("AdvInplaceThroughMask",
  "w = np.arange(12).reshape(3, 4)\nw[w > 5] += 100\nprint(w)\n"
  "f = np.arange(5, dtype=np.float32)\nf[f > 1] *= 2\nprint(repr(f))\n"
  "i = np.arange(5, dtype=np.int32)\ni[i % 2 == 0] -= 10\nprint(repr(i))\n"
  "w[1:3] += 1\nprint(w)\n"),
 ("AdvInplaceRepeatedIndices",
  "w = np.arange(12).reshape(3, 4)\nw[[0, 0], [0, 0]] += 100\nw[[0, 1]] -= np.array([1, 2, 3, 4])\nprint(w)\n"
  "z = np.zeros((2, 3), dtype=np.float32)\nz[[0, 1, 0], [2, 1, 2]] += np.array([1.5, 2, 3])\nprint(z, z.dtype)\n"
  "x = np.arange(6)\nx[[1, 0, 1]] += x[0:3]\nx[[]] += 1\nprint(x)\n"),
 ("NpNonzeroAndArgwhere",
  "y = np.array([[0, 1, 0], [2, 0, 3]])\n"
  "print(y.nonzero(), np.nonzero(y[0]), np.argwhere(y), np.argwhere([1, 0, 3]), np.argwhere(np.array(5)).shape, np.argwhere(np.array(0)).shape)\n"
  "print(y[y.nonzero()], y[y != 0], np.argwhere(y > 5).shape, np.argwhere(y).dtype)\n"),
 ("StarredArgumentsAndDisplays",
  "def f(a, b, c=0, d=1):\n    return (a, b, c, d)\n"
  "xs = [1, 2]\nkw = {'d': 5, 'c': 4}\n"
  "print(f(*xs), f(*xs, **kw), f(0, *[7], d=3), f(**{'a': 1, 'b': 2}), (*xs, 3), [0, *xs, *range(2)], (*'ab',), [*(i * i for i in xs)])\n"
  "print(np.zeros((*xs, 3)).shape, [*xs] == xs, ..., type(...).__name__ if False else 'ellipsis')\n"),
 ("NestedFunctionsReadEnclosingLocals",
  "def outer(n):\n    base = [n]\n    def inner(k):\n        return base[0] * k + later\n    later = 100\n    return inner\n"
  "fs = [outer(i) for i in range(3)]\nprint([f(10) for f in fs])\n"
  "def counter():\n    def go(i):\n        return go_twice(i) + 1\n    def go_twice(i):\n        return 2 * i\n    return go\nprint(counter()(5))\n"),
 ("ClassesDeriveSetattrIsinstance",
  "class Base:\n    kind = 'base'\n    def hello(self):\n        return 'hello from ' + self.kind\n"
  "class Child(Base):\n    kind = 'child'\n"
  "c = Child()\nsetattr(Child, 'extra', lambda self: 42)\nsetattr(c, 'x', 7)\n"
  "print(c.hello(), c.extra(), c.x, isinstance(c, Base), isinstance(c, Child), isinstance(Base(), Child), isinstance(c, (int, Base)))\n"),
 ("VariadicAndKeywordOnlyParameters",
  "def f(a, *args, scale=2, **kw):\n    return a, args, scale, sorted(kw.items())\n"
  "print(f(1), f(1, 2, 3), f(1, 2, scale=5, z=0, y=1), f(*range(4), **{'scale': 0}))\n"
  "def g(*, key, flag=False):\n    return key, flag\n"
  "def h(x, y=10, *rest):\n    return x + y + sum(rest)\n"
  "def fwd(*args, **kwargs):\n    return f(*args, **kwargs)\n"
  "print(g(key=3), g(flag=True, key='k'), h(1), h(1, 2, 3, 4), fwd(7, 8, scale=1, q=2))\n"),
 ("StarredAssignmentTargets",
  "first, *rest = [1, 2, 3, 4]\n*init, last = 'abc'\na, *mid, b = range(5)\nx, *empty = (9,)\n"
  "print(first, rest, init, last, a, mid, b, x, empty)\n"
  "for h, *t in [(1, 2, 3), (4,)]:\n    print(h, t)\n"
  "[p, *q] = (1, 2)\nsource, *_ = ('src', 'x', 'y')\nprint(p, q, source, _)\n"),
 ("ComprehensionsAndLambdasInNestedDefsSeeOuterScopes",
  "def outer(size, n=3):\n    def inner():\n        f = lambda k: k * size\n        return [size * i for i in range(n)], tuple(slice(0, size, 2) for _ in range(2)), f(2), {i: size for i in range(2)}\n    return inner\n"
  "print(outer(5)())\n"),
 ("SliceBuiltin",
  "x = np.arange(12).reshape(3, 4)\ns = slice(1, None)\nprint(s, slice(3), slice(0, 4, 2), x[s], x[slice(None, 2), slice(0, 4, 2)], list(range(10))[slice(2, 8, 3)])\n"
  "print(x[tuple(slice(0, d, 2) for d in x.shape)], 'abcdef'[slice(None, None, -2)])\n"),
 ("ParenthesizedWithItems",
  "class M:\n    def __init__(self, n):\n        self.n = n\n    def __enter__(self):\n        print('enter', self.n)\n        return self.n\n"
  "    def __exit__(self, *exc):\n        print('exit', self.n)\n        return False\n"
  "with (M(1) as a, M(2) as b):\n    print(a + b)\n"
  "with (M(3) as c,\n      M(4)):\n    print(c)\n"),
 ("FromImportStarAndTyping",
  "from math import *\nfrom typing import Any, Literal\nprint(floor(2.5), sqrt(16.0), pi > 3)\n"
  "def g(x: Any, y: Literal[2] = 2):\n    return x * y\nprint(g(3))\n"),
 ("NpTileAndRepeat",
  "a = np.arange(6).reshape(2, 3)\n"
  "print(np.tile(np.arange(3), 2), np.tile(a, (2, 1)), np.tile(5, 3), np.tile(np.array([1.5, 2.5], dtype=np.float32), (2, 2)))\n"
  "print(np.tile(a, 2).shape, np.tile(np.arange(2), (2, 1, 2)).shape, np.tile(a, 0), np.tile([True, False], 2))\n"
  "print(np.repeat(np.arange(3), 2), np.repeat(a, 2), np.repeat(a, 2, axis=0), np.repeat(a, [1, 0, 2], axis=1), np.repeat(7, 3), a.repeat(2, axis=-1))\n"
  "print(np.repeat(np.array([1, 2], dtype=np.int8), 2).dtype, np.repeat(np.arange(3), 1.5), np.repeat(np.array(5), 2, axis=0))\n"),
 ("NpOuterRollFlipExpandDims",
  "a = np.arange(6).reshape(2, 3)\n"
  "print(np.outer([1, 2, 3], [4, 5]), np.outer(a, [1, 10]), np.outer(np.arange(2, dtype=np.float32), np.arange(3, dtype=np.int8)).dtype, np.outer(2, 3))\n"
  "print(np.roll(np.arange(5), 2), np.roll(np.arange(5), -7), np.roll(a, 1), np.roll(a, 1, axis=1), np.roll(a, -1, axis=0), np.roll(a, (1, 2), axis=(0, 1)), np.roll(a, (1, 2)), repr(np.roll(5, 1)))\n"
  "print(np.flip(np.arange(4)), np.flip(a), np.flip(a, 0), np.flip(a, axis=1), np.flip(a, (0, 1)), repr(np.flip(5)))\n"
  "f = np.flip(a, 1)\n"
  "f[0, 0] = 99\n"
  "print(a, f.T, np.expand_dims(np.arange(3), 0), np.expand_dims(np.arange(3), 1).shape, np.expand_dims(a, (0, 3)).shape, np.expand_dims(a, -1).shape, repr(np.expand_dims(5, 0)))\n"),
 ("NpBroadcastToCopyEmptyLikeFortran",
  "a = np.arange(6).reshape(2, 3)\n"
  "b = np.broadcast_to(np.arange(3), (2, 3))\n"
  "print(b, b.shape, np.broadcast_to(5, (2, 2)), np.broadcast_to(np.array([[1.5], [2.5]], dtype=np.float32), (2, 3)), np.broadcast_to(np.arange(3), 3))\n"
  "c = np.copy(a)\n"
  "c[0, 0] = 9\n"
  "print(a[0, 0], c, repr(np.copy(5)), repr(np.copy([1.5, 2])), repr(np.copy(np.float32(2))))\n"
  "e = np.empty_like(a, dtype=np.float32)\n"
  "print(e.shape, e.dtype, np.empty_like([1.5, 2]).shape, np.empty_like(np.zeros((2, 2), dtype=np.int8)).dtype)\n"
  "f = np.asfortranarray(a)\n"
  "print(f, f.T, f[1], f[:, 1], f[1, 2], f.shape, f.dtype, f.reshape(-1), f.sum(axis=0), f + 1, repr(np.asfortranarray(5)), np.asfortranarray([[1, 2], [3, 4]], dtype=np.float32))\n"
  "g = np.arange(3)\n"
  "print(np.asfortranarray(g) is g, np.ndim(5), np.ndim([[1, 2]]), np.ndim(a), np.ndim(np.float32(1)))\n"),
 ("NpProdAndCountNonzero",
  "a = np.arange(1, 7).reshape(2, 3)\n"
  "print(np.prod(a), np.prod(a, axis=0), a.prod(axis=1), np.prod([]), np.prod([True, True]), repr(np.prod(np.array([1, 2], dtype=np.uint8))), np.prod(3))\n"
  "print(repr(np.prod(np.array([1.5, 2.5], dtype=np.float32))), np.prod(a, dtype=np.float32), np.prod(np.array([100, 100], dtype=np.int8), dtype=np.int8), a.prod(axis=-1, dtype=np.float64), np.prod(np.arange(1, 30)))\n"
  "h = np.array([1.1, 1.3, 1.7, 1.9, 2.3, 1.01, 1.77, 3.3], dtype=np.float16)\n"
  "print(np.prod(h), np.prod(h.reshape(2, 4), axis=1), np.prod(h.reshape(4, 2), axis=0), np.prod(h.reshape(2, 4).T, axis=0), np.prod(h.reshape(2, 2, 2), axis=1), np.prod(np.zeros((0, 2)), axis=0))\n"
  "print(np.count_nonzero([1, 0, 2]), np.count_nonzero(np.eye(3), axis=0), repr(np.count_nonzero([1, 0, 2], axis=0)), np.count_nonzero(5), np.count_nonzero([[True, False], [True, True]], axis=1), type(np.count_nonzero([1])).__name__)\n"),
 ("NpAnyAllAlongAnAxis",
  "m = np.array([[0, 1, 0], [0, 0, 0]])\n"
  "print(np.any(m, axis=0), np.any(m, axis=1), m.all(axis=0), np.all(m == 0, axis=-1), np.any(m), m.any(axis=1).dtype)\n"
  "f = np.array([[0.0, np.nan], [0.5, 0.0]])\n"
  "print(np.any(f, axis=0), f.all(axis=1), np.any(np.ones((2, 2, 2)) > 0, axis=2))\n"),
 ("NpIsnanBitwiseAndDiagIndicesUfuncs",
  "x = np.array([1.0, np.nan, np.inf, -np.inf, 0.0])\n"
  "print(np.isnan(x), np.isfinite(x), np.isinf(x), repr(np.isnan(1.0)), repr(np.isnan(np.float32(np.nan))), np.isfinite([1, 2]), np.isnan(np.array([[1.5, np.nan]], dtype=np.float16)), repr(np.isfinite(3)))\n"
  "print(np.bitwise_and(3, 5), np.bitwise_and([True, False], True), np.bitwise_and(np.array([3, 12], dtype=np.uint8), 255), np.bitwise_and(np.arange(6), 3), repr(np.bitwise_and(np.int32(7), 2)))\n"
  "m = np.zeros((3, 3))\n"
  "idx = np.diag_indices_from(m)\n"
  "m[idx] = 1\n"
  "print(idx, m, np.diag_indices_from(np.zeros((2, 2, 2))))\n"
  "print(np.add, np.minimum, np.fmax, type(np.add).__name__, np.add(1, 2), np.add([1, 2], 0.5), np.minimum(np.array([1, 5]), 3), np.maximum([1, 5], 3.0), np.fmin([1, np.nan, 3], [np.nan, np.nan, 2]), np.fmax(np.float32(1), 2), np.fmin(1, 2))\n"),
 ("NpAddAtAndAccumulate",
  "a = np.zeros(4, dtype=int)\n"
  "np.add.at(a, [0, 0, 2], 1)\n"
  "print(a)\n"
  "np.add.at(a, [1, 1], [5, 6])\n"
  "np.add.at(a, 3, 2)\n"
  "print(a, np.add.at(a, [0], 1), a)\n"
  "b = np.zeros((2, 3))\n"
  "np.add.at(b, (np.array([0, 0, 1]), np.array([1, 1, 2])), 1.5)\n"
  "np.add.at(b, [0, 0], np.arange(3))\n"
  "print(b)\n"
  "c = np.zeros(3, dtype=np.float32)\n"
  "np.add.at(c, [0, 0, 1], 0.1)\n"
  "u = np.zeros(3, dtype=np.uint8)\n"
  "np.add.at(u, [0, 0, 1], 200)\n"
  "i = np.zeros(3, dtype=int)\n"
  "np.add.at(i, [0, 0], 1.5)\n"
  "bb = np.zeros(3, dtype=bool)\n"
  "np.add.at(bb, [0, 0], True)\n"
  "print(c, c.dtype, u, i, bb)\n"
  "x = np.array([3, 1, 4, 1, 5, 0])\n"
  "y = np.array([[3.0, np.nan, 1.0], [0.0, 2.0, np.nan]])\n"
  "print(np.minimum.accumulate(x), np.maximum.accumulate(x), np.minimum.accumulate(y), np.maximum.accumulate(y, axis=1), np.fmin.accumulate(y, axis=1), np.fmax.accumulate(y, axis=-1))\n"
  "print(np.minimum.accumulate([True, False]), np.minimum.accumulate([1, 2], dtype=np.float32), np.minimum.accumulate(np.zeros((0, 3))), np.maximum.accumulate(np.array([[3, 1]], dtype=np.int8), axis=1), np.fmin.accumulate(np.arange(3), axis=None))\n"),
 ("NpFinfoAndAssertArrayLess",
  "for t in (np.float16, np.float32, np.float64):\n"
  "    f = np.finfo(t)\n"
  "    print(f.eps, f.max, f.min, f.tiny, f.resolution, f.bits, f.dtype, repr(f.eps), f.smallest_normal, f.epsneg, f.precision)\n"
  "    print(repr(f))\n"
  "    print(f)\n"
  "print(np.finfo(float).eps, np.finfo('float32').max, np.finfo(1.0).bits, np.finfo(np.float32(1)).dtype, np.finfo(np.dtype('float16')).tiny, np.finfo(np.float32).eps * 2, type(np.finfo(np.float32).max).__name__)\n"
  "np.testing.assert_array_less([1, 2], [2, 3])\n"
  "np.testing.assert_array_less(1, [2, 3])\n"
  "np.testing.assert_array_less([1.0, np.nan], [2.0, np.nan])\n"
  "np.testing.assert_array_less([1, 5], [2, np.inf])\n"
  "for x, y in [([1, 2, 3], [2, 2, 4]), ([1.0, np.nan], [2.0, 3]), ([1.0, 2.0], [2.0, 3.0, 4]), (np.array([1, 5], dtype=np.float32), 3),\n"
  "             ([[1, 4], [2, 0]], [[2, 3], [3, 1]]), ([1, np.inf], [2, np.inf]), (2, 1), (np.array([5, 1], dtype=np.uint8), np.array([3, 2], dtype=np.uint8)),\n"
  "             ([0.5, 3.25], [0, 0]), ([True, True], [False, True])]:\n"
  "    try:\n"
  "        np.testing.assert_array_less(x, y)\n"
  "    except AssertionError as e:\n"
  "        print(str(e))\n"
  "try:\n"
  "    np.testing.assert_array_less([3, 4], [1, 2], err_msg='hi')\n"
  "except AssertionError as e:\n"
  "    print(str(e))\n"),
 ("NpAddAtOnViewAndViewResults",
  "v = np.arange(6)\nnp.add.at(v[2:], [0, 0], 10)\ne = np.expand_dims(v, 0)\ne[0, 1] = -1\nf = np.flip(v)\nf[0] = 50\n"
  "np.add.at(v.reshape(2, 3), (1, [0, 2]), 100)\nprint(v, e.shape, np.asfortranarray(v.reshape(2, 3)).T.sum(axis=1))\n"),
 ("NpSumOverAxisTuple",
  "a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)\n"
  "print(a.sum(axis=(0, 2)), np.sum(a, axis=(1,)), np.sum(a, axis=(-1, 0)), a.sum(axis=(0, 1, 2)), np.sum(a, axis=(2, 1)).dtype)\n"),
 ("NpSumDtypeKeepdimsAtleast1d",
  "a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)\n"
  "print(a.sum(axis=1, keepdims=True).shape, np.sum(a, axis=(0, 2), keepdims=True), a.sum(keepdims=True), np.sum(a, dtype=np.float64).dtype)\n"
  "print(a.sum(axis=0, dtype=np.int32), np.atleast_1d(np.float32(3.5)), np.atleast_1d(a).shape, np.sum(a, 2, np.float64, None, True).shape)\n"),
 ("ComplexViewArithmeticAndPrinting",
  "x = np.arange(8, dtype=np.float32) - 2.5\n"
  "c = x.view(np.complex64)\n"
  "print(c, repr(c), c.shape, c.dtype, c.real, c.imag, c.size, c.itemsize)\n"
  "print(repr(c * 2.0), repr(2 * c), repr(c * c), repr(c / c), repr(c / 2), repr(1.0 / c))\n"
  "print(repr(c + 1), repr(1 - c), repr(-c), repr(c - c), repr(c * x[:4]), repr(c + np.arange(4.0)))\n"
  "print(np.abs(c), abs(c), np.real(c), np.imag(c), repr(np.conj(c)), repr(c.conj()), c == c, c != c.conj())\n"
  "print(repr(c * 1e6), repr(c * 1e-6), repr(c.view(np.float32)), repr(c.view(np.int32)), x.view(np.uint32)[:2])\n"
  "y = np.arange(12, dtype=np.float64).reshape(2, 6)\n"
  "cy = y.view(np.complex128).reshape(2, 3)\n"
  "cy[0, 1] = 7.5\n"
  "print(repr(cy), repr(cy[1]), repr(cy[1, 2]), cy[0, 0], repr(cy.flatten()), repr(cy[:, 1:]), y[0])\n"
  "print(repr(np.complex64(2)), repr(np.complex128(np.float32(0.1))), np.complex64, np.dtype('float32') == np.complex64, cy.dtype == np.complex128)\n"
  "print([repr(v) for v in cy[1]], len(cy), repr(np.array([np.inf, np.nan, -np.inf, 1.0]).view(np.complex128)))\n"),
 ("NpFftMatchesPocketfft",
  "c = (np.arange(8, dtype=np.float32) - 2.5).view(np.complex64)\n"
  "f = np.fft.fft(c)\n"
  "print(repr(f), repr(np.fft.ifft(f)))\n"
  "y = np.arange(12, dtype=np.float64).reshape(2, 6).view(np.complex128).reshape(2, 3)\n"
  "print(repr(np.fft.fft(y, axis=-1)), repr(np.fft.ifft(y, axis=0) * 3), repr(np.fft.fft(y, n=4)), repr(np.fft.fft(y, n=2, axis=0)))\n"
  "print(repr(np.fft.fft(np.arange(5.0))), repr(np.fft.fft(np.arange(4), norm='ortho')), repr(np.fft.ifft(np.arange(4.0), norm='forward')))\n"
  "z = np.fft.fft(np.sin(np.arange(48.0)))\n"
  "print(np.round(z.real, 6)[:5], np.round(z.imag, 6)[:5], np.abs(z - np.fft.fft(np.sin(np.arange(48.0)), n=48)).max())\n"
  "np.testing.assert_allclose(np.fft.ifft(np.fft.fft(y)), y, atol=1e-12)\n"
  "np.testing.assert_allclose(np.fft.ifft(np.fft.fft(np.arange(7.0))), np.arange(7.0), atol=1e-12)\n"
  "try:\n"
  "    np.testing.assert_allclose(y, y + 1, atol=1e-4)\n"
  "except AssertionError as e:\n"
  "    print(e)\n"),
 ("MatmulStacksOfMatrices",
  "a = np.arange(24.0).reshape(2, 3, 4)\n"
  "b = np.arange(8.0).reshape(4, 2)\n"
  "print(a @ b, np.matmul(a, np.arange(4.0)), (np.arange(3.0) @ a).shape)\n"
  "c = np.arange(2 * 1 * 2 * 3, dtype=np.float32).reshape(2, 1, 2, 3)\n"
  "print(repr(c @ np.ones((3, 3, 2), dtype=np.float32)), (np.zeros((0, 2, 3)) @ np.zeros((3, 4))).shape)\n"
  "print(np.arange(12).reshape(2, 2, 3) @ np.arange(6).reshape(3, 2))\n"),
 ("ZipStrict",
  "print(list(zip([1, 2], 'ab', strict=True)), list(zip([1, 2], [3], strict=False)), list(zip(strict=True)))\n"),
 ("DelStatements",
  "a = 1\nb = [0, 1, 2, 3, 4, 5]\nd = {'x': 1, 'y': 2}\ndel a\n"
  "try:\n    print(a)\nexcept NameError as e:\n    print('NameError', e)\n"
  "del b[1], b[::2]\nprint(b)\ndel d['x']\nprint(d)\n"
  "try:\n    del d['z']\nexcept KeyError as e:\n    print('KeyError', e)\n"
  "class C:\n    pass\nc = C()\nc.v = 3\ndel c.v\nprint(hasattr(c, 'v'))\n"
  "def f():\n    x = [1, 2]\n    y = 3\n    del x[0], y\n    return x\nprint(f())\n"
  "p, q = 1, 2\ndel (p, q)\ntry:\n    print(q)\nexcept NameError as e:\n    print('NameError', e)\n"
  "t = (1, 2)\ntry:\n    del t[0]\nexcept TypeError as e:\n    print('TypeError', e)\n"),
 ("EllipsisIndexing",
  "a = np.arange(12.0).reshape(2, 3, 2)\n"
  "print(a[..., 0], a[..., 1].shape, a[0, ...], a[..., 1, :].shape, a[...].shape)\n"
  "b = a.copy()\nb[..., 0] = 5\nprint(b)\n"
  "print(a[..., [1, 0]].shape, a[..., np.array([True, False])].shape, a[None, ..., 0].shape)\n"),
 ("FftFreq",
  "print(np.fft.fftfreq(8), np.fft.fftfreq(7, 0.5), np.fft.rfftfreq(8, 0.1), np.fft.rfftfreq(5))\n"
  "print(np.fft.fftfreq(512)[250:260], np.fft.fftfreq(1), np.fft.fftfreq(2, d=0.25).dtype)\n"),
 ("ImaginaryLiterals",
  "z = 1 + 2j\n"
  "print(1j, 2.5j, 1e3J, 0j, .5j, 1_0j, z, z * (3 - 1j), z.real, z.imag, abs(3 + 4j), -z, z / 2, z == 1 + 2j)\n"
  "a = np.arange(4.0).reshape(2, 2)\nc = a + 1j * a\nprint(c, c.dtype, (1j * a).dtype)\n"
  "x = np.zeros((2, 3, 2))\nx[..., 0] = 1.0\nx[..., 1] = 2.0\ny = x[..., 0] + 1j * x[..., 1]\n"
  "print(y, np.fft.ifft(np.fft.fft(y)))\n"),
 ("Meshgrid",
  "k = np.fft.fftfreq(4, d=0.25)\nkx, ky = np.meshgrid(k, k[:3])\nprint(kx, ky, kx.dtype)\n"
  "a, b, c = np.meshgrid([1, 2], [3, 4, 5], [6.0, 7.0], indexing='ij')\n"
  "print(a.shape, b.shape, c.shape, a[1, 2, 0], b[1, 2, 1], c[0, 0, 1])\n"
  "a, b, c = np.meshgrid([1, 2], [3, 4, 5], [6.0, 7.0])\nprint(a.shape, b[2, 1, 0], c.dtype)\n"
  "x, y = np.meshgrid(np.arange(3), np.arange(2), sparse=True)\nprint(x, y, type(np.meshgrid([1], [2])).__name__)\n"
  "m = np.meshgrid(np.array([[1, 2], [3, 4]]), [5])\nprint(m, len(np.meshgrid()))\n"),
 ("AssignmentExpressions",
  "if (n := len([1, 2, 3])) > 2:\n    print('n is', n)\ndata = [4, 5, 6]\ni = 0\n"
  "while (x := data[i]) != 6:\n    print(x)\n    i += 1\nprint((y := 3 * 2) + y, y)\n"
  "if m := np.arange(3).sum():\n    print('m', m)\nelif (q := 0):\n    pass\n"
  "print([v for v in range(6) if (r := v % 3) == 1], [(w := k) * w for k in range(3)])\n"),
 ("ListSort",
  "a = [3, 1, 2]\na.sort()\nprint(a)\nb = ['bb', 'a', 'ccc']\nb.sort(key=len, reverse=True)\nprint(b)\n"
  "c = [(1, 'x'), (0, 'y'), (1, 'a')]\nc.sort(key=lambda t: t[0])\nprint(c, c.sort(), c)\n"
  "d = [2.5, -1, 7]\nd.sort(reverse=True)\nprint(d)\n"),
 ("TimeModule",
  "import time\nt0 = time.perf_counter()\nm0 = time.monotonic_ns()\ntime.sleep(0.02)\n"
  "print(time.perf_counter() - t0 >= 0.02, time.monotonic_ns() - m0 >= 20000000, type(t0).__name__)\n"
  "print(time.time() > 1.7e9, type(time.time_ns()).__name__, time.process_time() >= 0.0, time.sleep(0))\n"),
 ("StdStreamsAndStringIO",
  "import sys, io, contextlib\nprint('a', 1, file=sys.stdout)\nf = io.StringIO()\n"
  "with contextlib.redirect_stdout(f) as g:\n    print('hidden', 1, 2)\n    print('x', end='')\n    print(g is f)\n"
  "print(repr(f.getvalue()))\nprint('to f', file=f, sep='-')\nprint(repr(f.getvalue()[-5:]), f.tell())\n"
  "s = io.StringIO('l1\\nl2\\nl3')\nprint(repr(s.readline()), repr(s.read(2)), repr(s.read()), s.seek(0), s.readlines())\n"
  "t = io.StringIO()\nt.write('abcdef')\nt.seek(2)\nt.write('XY')\nprint(t.getvalue(), t.truncate(3), t.getvalue(), sys.stdout is sys.__stdout__)\n"),
 ("ContextlibManagers",
  "import sys, io, contextlib\n"
  "with contextlib.redirect_stderr(io.StringIO()) as e:\n    print('err', file=sys.stderr)\nprint(repr(e.getvalue()))\n"
  "with contextlib.suppress(ValueError, KeyError):\n    raise KeyError('k')\nprint('after')\n"
  "try:\n    with contextlib.suppress(KeyError):\n        raise ValueError('v')\nexcept ValueError as x:\n    print('passed through', x)\n"
  "with contextlib.ExitStack() as st:\n    st.callback(print, 'cb1')\n    st.callback(print, 'cb2', end='!\\n')\n"
  "    print(st.enter_context(contextlib.nullcontext(5)))\n    print(st.enter_context(contextlib.redirect_stdout(io.StringIO())) is sys.stdout)\n"
  "print('back')\nwith contextlib.nullcontext() as n:\n    print(n)\n"),
 ("WarningsFiltersAndRecords",
  "import warnings, io, contextlib\n"
  "def f():\n    warnings.warn('deprecated thing', DeprecationWarning, stacklevel=2)\n"
  "with contextlib.redirect_stderr(io.StringIO()) as e:\n    warnings.warn('hello')\n    f()\n"
  "    for i in range(3):\n        warnings.warn('loop')\n"
  "print([l.split(':', 2)[2] for l in e.getvalue().splitlines() if not l.startswith(' ')])\n"
  "with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n"
  "    warnings.warn('rec', RuntimeWarning)\n    warnings.warn('rec', RuntimeWarning)\n    warnings.warn(UserWarning('inst'))\n"
  "print(len(w), w[0].category.__name__, str(w[0].message), w[2].category.__name__, str(w[2].message))\n"
  "with warnings.catch_warnings():\n    warnings.simplefilter('error')\n    try:\n        warnings.warn('boom')\n"
  "    except UserWarning as ex:\n        print('caught', ex)\n"
  "with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n    warnings.filterwarnings('ignore', message='SKIP')\n"
  "    warnings.filterwarnings('ignore', category=RuntimeWarning)\n"
  "    warnings.warn('skip me'); warnings.warn('show me'); warnings.warn('rt', RuntimeWarning)\n"
  "print([str(x.message) for x in w])\n"
  "with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('once')\n"
  "    for i in range(3):\n        warnings.warn('once')\nprint(len(w))\n"),
 ("RegularExpressions",
  "import re\nprint(re.findall(r'void (dot_\\w+)\\(', 'void dot_1_2(x) void dot_3(y)'))\n"
  "m = re.search(r'only (\\d+) bytes are available', 'xx only 1024 bytes are available yy')\n"
  "print(int(m.group(1)), m.span(), m.start(1), m.end(), m.group(0), m)\n"
  "print(re.match(r'a+', 'baa'), re.match(r'a+', 'aab').group(), re.fullmatch(r'a|ab', 'ab'))\n"
  "p = re.compile(r'(?P<key>\\w+)=(?P<val>\\d+)')\nprint(p, p.groups, p.groupindex)\n"
  "m = p.search('x k=42 y')\nprint(m.group('key'), m['val'], m.groupdict(), m.groups(), m.lastindex, m.group(1, 2))\n"
  "print(re.sub(r'(\\w+)@(\\w+)', r'\\2 at \\g<1>', 'joe@site and ann@home'), re.sub(r'x*', '-', 'abxd'))\n"
  "print(re.subn(r'\\d', lambda m: str(int(m.group()) * 2), 'a1b2c3'), re.sub('a', 'b', 'aaa', count=2))\n"
  "print(re.split(r'(,)\\s*', 'a, b,c'), re.split(r'\\s+', 'a b  c', maxsplit=1))\n"
  "print(re.escape('a.b*c'), re.findall(r'(\\d)(\\w)', '1a 2b'))\n"
  "print(re.search(r'^b', 'a\\nb', re.M) is not None, re.search(r'^b', 'a\\nb') is None)\n"
  "print(re.search(r'a.b', 'a\\nb', re.S) is not None, re.search(r'a.b', 'a\\nb') is None, re.search(r'A', 'a', re.I).group())\n"
  "print([m.span() for m in re.finditer(r'\\d+', '12 ab 345')], re.findall(r'\\Aab', 'abab'), re.search(r'(?i)X', 'x'))\n"
  "print(re.compile('\\\\d+  # digits\\n  [a-z]', re.X).findall('12a 3b'), re.search(r'(a)|(b)', 'b').groups('-'))\n"
  "try:\n    re.compile('(a')\nexcept re.error:\n    print('re.error')\n"),
 ("TempfileAndPathlib",
  "import tempfile, os\nfrom pathlib import Path\n"
  "with tempfile.TemporaryDirectory(prefix='tt') as d:\n    print(os.path.basename(d).startswith('tt'), os.path.exists(d))\n"
  "    p = Path(d) / 'sub'\n    p.mkdir()\n    (p / 'a.cu').write_text('void dot_1()')\n    (p / 'b.txt').write_text('hello\\n')\n"
  "    print(sorted(x.name for x in p.glob('*.cu')), next(p.glob('*.cu')).read_text())\n"
  "    print([x.name for x in Path(d).glob('**/*.txt')], [x.name for x in Path(d).rglob('*.cu')])\n"
  "    try:\n        p.mkdir()\n    except FileExistsError:\n        print('exists')\n"
  "    p.mkdir(exist_ok=True)\n    (p / 'b.txt').unlink()\n    print([x.name for x in p.iterdir()], p.exists(), p.is_dir(), (p / 'a.cu').is_file())\n"
  "    saved = d\nprint(os.path.exists(saved))\n"
  "q = Path('a/b/c.tar.gz')\nprint(q, repr(q), q.name, q.stem, q.suffix, q.parent, q.parts, q.with_suffix('.zip'), 'x' / Path('y'), Path('a') == Path('a/'))\n"
  "t = tempfile.mkdtemp(suffix='_s')\nprint(t.endswith('_s'), Path(t).is_dir())\nPath(t).rmdir()\nprint(Path(t).exists())\n"),
 ("UnittestMock",
  "from unittest import mock\nimport os\n"
  "class Core:\n    def f(self, x):\n        return x + 1\ncore = Core()\n"
  "with mock.patch.object(core, 'f', return_value=-1) as m:\n    print(core.f(3), m.called, m.call_count, m.call_args)\n    m.assert_called_once_with(3)\n"
  "print(core.f(3))\nwith mock.patch.object(os, 'getenv', lambda k: 'patched'):\n    print(os.getenv('HOME'))\n"
  "print(os.getenv('NO_SUCH_VAR_X') is None)\n"
  "m = mock.Mock(side_effect=[1, 2, ValueError('no')])\nprint(m(), m(7), m.call_args_list)\n"
  "try:\n    m()\nexcept ValueError as e:\n    print('raised', e)\n"
  "m2 = mock.MagicMock()\nm2.child.method(5)\nm2.child.method.assert_called_with(5)\n"
  "try:\n    m2.child.method.assert_called_with(6)\nexcept AssertionError as e:\n    print(e)\n"
  "m3 = mock.Mock(return_value=3)\nprint(m3(), m3.return_value)\n"
  "@mock.patch.object(os, 'getenv')\ndef g(mocked):\n    mocked.return_value = 'deco'\n    return os.getenv('x')\n"
  "print(g(), os.getenv('NO_SUCH_VAR_X'))\n"
  "p = mock.patch('os.getenv', return_value='started')\np.start()\nprint(os.getenv('a'))\np.stop()\nprint(os.getenv('NO_SUCH_VAR_X'))\n"
  "m4 = mock.Mock()\nm4.assert_not_called()\nm4.configure_mock(x=1)\nprint(m4.x)\n"),
 ("BytesAndIterators",
  "x = b'lto'\nprint(x, len(x), x == b'lto', x == 'lto', x[0], list(b'ab'), b'a\\x00\\'', b'\"', x + b'!', x.decode(), 'h\\u00e9'.encode())\n"
  "print(dict.fromkeys(('a', 'b'), b'lto'), dict.fromkeys([1, 2]), {b'k': 1}[b'k'])\n"
  "it = iter([1, 2, 3])\nprint(next(it), list(it), next(it, 'done'), iter(it) is it)\n"),
 ("DataclassesAndNamedTuples",
  "from dataclasses import dataclass, field\nfrom typing import Any, NamedTuple\n"
  "@dataclass\nclass D:\n    a: Any\n    b: float = 2.0\n    c: list = field(default_factory=list)\n"
  "    def total(self):\n        return self.a + self.b\n"
  "    def __post_init__(self):\n        self.c.append(self.a)\n"
  "d = D(1.0)\nprint(d, d.total(), d == D(1.0), d == D(2.0), D(3, c=[0]), D(b=1, a=0).c)\n"
  "class N(NamedTuple):\n    x: float = None\n    y: float = None\n"
  "n = N(x=3.0, y=4.0)\nprint(n, n[0], n[-1], len(n), list(n), n == (3.0, 4.0), N())\n"
  "for i, v in enumerate(n):\n    print(i, v)\na, b = n\nprint(a, b, n.x)\n"
  "import gc, importlib\nprint(gc.collect() >= 0, gc.isenabled(), importlib.import_module('math').sqrt(4.0))\n"
  "def f():\n    pass\nf.tag = 'x'\nprint(f.__name__, f.tag)\n"
  "print(np.byte is np.int8, np.double is np.float64, np.intc, np.ubyte, np.half, np.single, np.dtype(np.int8) == np.byte)\n"),
 ("UnittestSequenceEqual",
  "import unittest\nclass T(unittest.TestCase):\n    pass\nt = T()\n"
  "t.assertSequenceEqual([1, 2], (1, 2))\nt.assertSequenceEqual(range(2), [0, 1])\n"
  "try:\n    t.assertSequenceEqual([1, 2], [1, 3])\nexcept AssertionError:\n    print('differs')\n"),
 ("ClassMethodsAndSetUpClass",
  "import unittest, sys\nclass A(unittest.TestCase):\n    log = []\n"
  "    @classmethod\n    def setUpClass(cls):\n        cls.log.append('setup ' + cls.__name__)\n"
  "    @classmethod\n    def tearDownClass(cls):\n        print('teardown', cls.log)\n"
  "    @classmethod\n    def make(cls, x):\n        return cls.__name__ + str(x)\n"
  "    def test_a(self):\n        self.assertEqual(self.make(1), 'A1')\n        self.assertEqual(A.make(2), 'A2')\n"
  "    def test_b(self):\n        self.assertEqual(self.log, ['setup A'])\n"
  "unittest.main(argv=['t'], exit=False, verbosity=0)\nprint(A.make(3))\n"),
 ("NdarrayToBytes",
  "a = np.array([1.5, 2.0], dtype=np.float32)\n"
  "print(a.tobytes(), a.tobytes().hex(), np.arange(3, dtype=np.int16)[::2].tobytes(), np.array([[1, 2], [3, 4]], dtype=np.uint8).T.tobytes())\n"),
 ("MathModuleFunctions",
  "import math\n"
  "print(math.isnan(float('nan')), math.isinf(-math.inf), math.isfinite(1e308), math.copysign(2, -0.0), math.atan2(1, -1), math.hypot(3, 4))\n"
  "print(math.asin(0.5), math.acos(-1), math.atan(1), math.sinh(1), math.cosh(1), math.tanh(0.5), math.asinh(1), math.acosh(2), math.atanh(0.5))\n"
  "print(math.log2(8), math.log10(1000), math.expm1(1e-5), math.log1p(1e-5), math.erf(0.5), math.erfc(0.5), math.degrees(math.pi), math.radians(180), math.tau)\n"
  "print(math.fmod(-7, 3), math.pow(2, 10), math.pow(-8, 1), math.trunc(-2.7), math.trunc(5), type(math.trunc(2.5)).__name__)\n"),
 ("NumpyMoreUfuncs",
  "x = np.array([-1.5, 0.0, 2.25, np.inf, -np.inf, np.nan])\n"
  "print(np.sign(x), np.trunc(x), np.fix(x), np.sinh(0.5), np.cosh(x[:3]), np.tanh(x[:3]))\n"
  "print(np.heaviside(x, 0.5), np.modf(x), np.arctan2(x, 2.0), np.arcsinh(1.0), np.expm1(1e-10), np.log1p(0.0))\n"
  "print(np.arctan2(np.array([1, 2], dtype=np.int8), 3).dtype, np.sign(np.array([-3, 0, 5])), np.sign(np.array([0, 7], dtype=np.uint8)))\n"
  "print(np.cbrt(np.array([8, 27]), dtype=np.float64), np.power(np.array([2, 3]), 3), np.floor_divide(np.array([-7, 7]), 2), np.remainder(np.array([-7.5]), 2), np.mod(7, -3))\n"
  "print(np.subtract(np.uint8(3), 5), np.multiply([1, 2], 2.5), np.divide(np.array([1], dtype=np.int16), 4), np.true_divide(3, 4), np.bitwise_or(5, 2), np.bitwise_xor(np.uint8(7), 2))\n"
  "print(np.sign(np.float32(-0.0)), np.modf(np.float32(2.5)), np.heaviside(np.array([0, 1], dtype=np.int16), 0.5).dtype)\n"),
 ("GlobalAndNonlocal",
  "count = 0\n"
  "def bump(n):\n    global count\n    count += n\n    return count\n"
  "bump(2)\nprint(bump(3), count)\n"
  "def outer():\n    x = 1\n    def inner():\n        nonlocal x\n        x += 10\n        return x\n    inner()\n    return inner(), x\n"
  "print(outer())\n"
  "def forget():\n    global count\n    del count\n"
  "forget()\ntry:\n    print(count)\nexcept NameError as e:\n    print('NameError')\n"),
 ("StructPackUnpack",
  "import struct\n"
  "print(struct.pack('I', 0x7f800001), struct.unpack('f', struct.pack('I', 0x3f800000)), struct.calcsize('@bi'), struct.calcsize('=bi'))\n"
  "print(struct.pack('<hHe', -2, 65535, 1.5), struct.unpack('>iQ?', struct.pack('>iQ?', -7, 2**40, True)), struct.unpack('<e', b'\\x00\\x7c'))\n"
  "print(struct.pack('>d', -0.1).hex(), struct.unpack('<2h', b'\\x01\\x80\\xff\\x7f'), struct.pack('=3B', 1, 2, 255))\n"
  "import types\nprint(types.NoneType is type(None), type(1) is type(2))\n"),
 ("IsSubclass",
  "class A:\n    pass\nclass B(A):\n    pass\n"
  "print(issubclass(bool, int), issubclass(int, bool), issubclass(KeyError, LookupError), issubclass(ValueError, (KeyError, Exception)))\n"
  "print(issubclass(B, A), issubclass(A, B), issubclass(B, (int, A)), issubclass(float, float))\n"),
("EnumMembers",
  "import enum\nclass Color(enum.Enum):\n    RED = 1\n    GREEN = enum.auto()\n    CRIMSON = 1\n    def shade(self):\n        return self.name.lower()\n"
  "print(Color.RED, repr(Color.GREEN), Color.CRIMSON is Color.RED, Color(2) is Color.GREEN, Color['GREEN'].value)\n"
  "print([m.name for m in Color], len(Color), list(Color.__members__), Color.RED == 1, Color.RED == Color.RED)\n"
  "print(type(Color.RED) is Color, isinstance(Color.RED, Color), isinstance(Color.RED, int), Color.GREEN.shade(), Color.RED in Color)\n"
  "print({Color.RED: 'r'}[Color.CRIMSON], bool(Color.RED), str(Color.GREEN))\n"),
("IntEnumAndIntFlag",
  "from enum import IntEnum, IntFlag, auto\nclass K(IntEnum):\n    A = 1\n    B = 2\n    C = 3\nclass F(IntFlag):\n    A = 1\n    B = auto()\n    C = auto()\n"
  "print(K.A + K.B, K.A + K.B == K.C, K.C > K.A, K.B * 2.5, str(K.A), repr(K.B), f'{K.C}', int(K.B), isinstance(K.A, int))\n"
  "print(repr(F.A | F.B), F.A | F.B | F.C, repr(F.A | 8), repr(~F.A), repr(F.B & F.A), F.C.value, F(3) is (F.A | F.B))\n"
  "print(K(2) is K.B, {1: 'one'}[K.A], [10, 20, 30][K.B], K.A < 2, -K.C, sorted([K.C, K.A, K.B]), bool(F.A & F.B))\n"),
("Generators",
  'import contextlib\n\ndef count(n):\n    print("start")\n    for i in range(n):\n        print("before", i)\n        yield i * 10\n        print("after", i)\n    print("end")\n\nfor v in count(3):\n    print("got", v)\n\ng = count(2)\nprint(next(g), next(g))\ntry:\n    next(g)\nexcept StopIteration:\n    print("stop")\nprint(list(count(2)))\nprint(sum(x for x in count(4)))\n\ndef inner():\n    yield 1\n    yield 2\n\ndef outer():\n    yield 0\n    yield from inner()\n    yield from [3, 4]\n\nprint(list(outer()))\n\n'),
("ContextManagerGenerators",
  'import contextlib\n@contextlib.contextmanager\ndef scope(name):\n    print("enter", name)\n    try:\n        yield name.upper()\n    finally:\n        print("exit", name)\n\nwith scope("a") as s:\n    print("body", s)\n\ntry:\n    with scope("b"):\n        raise ValueError("boom")\nexcept ValueError as e:\n    print("caught", e)\n\n@contextlib.contextmanager\ndef swallow():\n    try:\n        yield\n    except KeyError:\n        print("swallowed")\n\nwith swallow():\n    raise KeyError("k")\nprint("after swallow")\n\ndef gen_close():\n    try:\n        yield 1\n        yield 2\n    finally:\n        print("cleanup")\n\nc = gen_close()\nprint(next(c))\nc.close()\nprint(list(c))\n\ndef bad():\n    yield 1\n    raise RuntimeError("inside")\n\nb = bad()\nprint(next(b))\ntry:\n    next(b)\nexcept RuntimeError as e:\n    print("err", e)\n\n'),
("LambdaStarArgsAndIterators",
  'f = lambda *args, **kw: (args, kw)\nprint(f(1, 2, x=3), f())\nh = lambda a, *rest: (a, rest)\nprint(h(1), h(1, 2, 3))\nit = iter([1, 2, 3])\nprint(next(it), list(it))\ndef fib():\n    a, b = 0, 1\n    while True:\n        yield a\n        a, b = b, a + b\nfg = fib()\nprint([next(fg) for _ in range(10)])\nprint(type(fg).__name__)\n'),
("NumpyUniqueEinsumMatrixPower",
  'a = np.array([3, 1, 2, 3, 1, 5], dtype=np.int32)\nprint(np.unique(a))\nu, idx, inv, cnt = np.unique(a, return_index=True, return_inverse=True, return_counts=True)\nprint(u, idx, inv, cnt)\nprint(np.unique(np.array([2.5, np.nan, 1.0, 2.5, np.nan])))\nx = np.arange(6, dtype=np.float32).reshape(2, 3)\ny = np.arange(12, dtype=np.float32).reshape(3, 4)\nprint(np.einsum("ij,jk->ik", x, y))\nprint(np.einsum("ij,ij->i", x, x), np.einsum("ii", np.eye(3) * 2), np.einsum("ij->ji", x).shape, np.einsum("i,j", [1, 2], [3, 4, 5]))\nprint(list(np.ndindex(2, 2)), list(np.ndindex((1, 3))))\nm = np.array([[1.0, 2.0], [3.0, 4.0]])\nprint(np.linalg.matrix_power(m, 5), np.linalg.matrix_power(m, 0), np.linalg.matrix_power(m, -1))\nprint(np.issubdtype(np.float32, np.floating), np.issubdtype(np.int32, np.integer), np.issubdtype(np.uint8, np.signedinteger), np.issubdtype(np.float64, np.float64), np.issubdtype(np.int8, np.number), np.issubdtype(x.dtype, np.floating))\n'),
("CtypesScalars",
  'import ctypes\nprint(ctypes.c_int8(200).value, ctypes.c_uint16(-1).value, ctypes.c_float(0.1).value, ctypes.c_bool(3).value, ctypes.c_int(7))\nprint(ctypes.sizeof(ctypes.c_double), ctypes.c_int32 is ctypes.c_int, ctypes.c_int64(-5).value, ctypes.c_uint32(-1).value, ctypes.sizeof(ctypes.c_uint16(1)))\n'),
("IntMethodsRngBytesFrombuffer",
  'r = np.random.default_rng(5)\nprint(r.bytes(10), r.bytes(0), r.bytes(4), np.frombuffer(r.bytes(8), dtype=np.int32), (45).bit_count(), (-7).bit_length(), (2.0).is_integer())\nprint(np.frombuffer(b"\\x01\\x00\\x02\\x00", dtype=np.uint16))\n'),
("Itertools",
  'import itertools\nprint(list(itertools.product([1, 2], "ab")), list(itertools.product(range(2), repeat=2)))\nprint(list(itertools.combinations("abcd", 2)), list(itertools.combinations_with_replacement([1, 2], 2)))\nprint(list(itertools.permutations([1, 2, 3], 2)), list(itertools.permutations("ab")))\nprint(list(itertools.chain([1], (2, 3), "x")), list(itertools.chain.from_iterable([[1, 2], [3]])))\nprint(list(itertools.pairwise([1, 2, 4, 7])), list(itertools.accumulate([1, 2, 3, 4])), list(itertools.accumulate([3, 1, 4], max, initial=2)))\nprint(list(itertools.islice(itertools.count(5, 2), 4)), list(itertools.islice("abcdefg", 1, 6, 2)), list(itertools.islice(range(10), 3)))\nprint(list(itertools.zip_longest([1, 2, 3], "ab", fillvalue=0)), list(itertools.starmap(pow, [(2, 3), (3, 2)])), list(itertools.repeat("z", 3)))\nc = itertools.count()\nprint(next(c), next(c), next(c), list(itertools.combinations([1, 2], 3)))\nfor i, v in zip(itertools.count(1), "xyz"):\n    print(i, v)\nprint(list(zip((x*x for x in range(4)), "abc")), list(zip([1,2],[3,4,5])))\n'),
]

RAISES = [
 ("GeneratorIgnoresExit", 'def g():\n    while True:\n        try:\n            yield 1\n        except GeneratorExit:\n            pass\nit = g()\nnext(it)\n', "it.close()"),
 ("ContextManagerNoYield", 'import contextlib\n@contextlib.contextmanager\ndef cm():\n    if False:\n        yield\n', "cm().__enter__()"),
 ("EnumBadValue", "import enum\nclass E(enum.Enum):\n    A = 1\n", "E(5)"),
 ("EnumBadName", "import enum\nclass E(enum.Enum):\n    A = 1\n", "E['B']"),
 ("EnumNoOrder", "import enum\nclass E(enum.Enum):\n    A = 1\n    B = 2\n", "E.A < E.B"),
 ("IsSubclassNotAClass", "", "issubclass(1, int)"),
 ("StructPackRange", "import struct\n", "struct.pack('h', 70000)"),
 ("StructUnpackSize", "import struct\n", "struct.unpack('I', b'ab')"),
 ("NonlocalUnbound", "def f():\n    def g():\n        nonlocal zz\n    g()\n", "f()"),
 ("MathAsinDomain", "import math\n", "math.asin(2)"),
 ("MathPowDomain", "import math\n", "math.pow(-8, 0.5)"),
 ("MathFmodZero", "import math\n", "math.fmod(1, 0)"),
 ("DataclassMissingField", "from dataclasses import dataclass\n@dataclass\nclass D:\n    a: int\n    b: int = 0\n", "D(b=1)"),
 ("DataclassUnknownKeyword", "from dataclasses import dataclass\n@dataclass\nclass D:\n    a: int\n", "D(1, z=2)"),
 ("NamedTupleTooMany", "from typing import NamedTuple\nclass N(NamedTuple):\n    a: int\n", "N(1, 2)"),
 ("ListSortPositional", "a = [2, 1]\n", "a.sort(len)"),
 ("MeshgridIndexing", "", "np.meshgrid([1], [2], indexing='xx')"),
 ("TimeSleepNegative", "import time\n", "time.sleep(-1)"),
 ("EllipsisTwice", "a = np.zeros((2, 2))\n", "a[..., ..., 0]"),
 ("FftFreqZero", "", "np.fft.fftfreq(0)"),
 ("NpSumAxisTupleDuplicate", "a = np.ones((2, 3))\n", "a.sum(axis=(1, -1))"),
 ("StarredNotIterable", "", "print(*5)"),
 ("KeywordOnlyMissing", "def g(*, key):\n    return key\n", "g()"),
 ("KeywordOnlyGivenPositionally", "def g(a, *, key):\n    return key\n", "g(1, 2)"),
 ("VarKeywordsUnexpected", "def g(*args):\n    return args\n", "g(x=1)"),
 ("StarredUnpackTooFew", "", "a, b, *c = [1]"),
 ("DoubleStarNotMapping", "", "print(**[1])"),
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
  ("RandomIntegersHighOutOfBounds", "rng = np.random.default_rng(0)\n", "rng.integers(0, 300, dtype=np.int8)"),
  ("RandomIntegersLowOutOfBounds", "rng = np.random.default_rng(0)\n", "rng.integers(-1, 3, dtype=np.uint8)"),
  ("RandomIntegersLowGeHigh", "rng = np.random.default_rng(0)\n", "rng.integers(5, 3)"),
  ("RandomIntegersHighLeZero", "rng = np.random.default_rng(0)\n", "rng.integers(0)"),
  ("RandomIntegersClosedLowGtHigh", "rng = np.random.default_rng(0)\n", "rng.integers(5, 3, endpoint=True)"),
  ("RandomIntegersClosedHighLtZero", "rng = np.random.default_rng(0)\n", "rng.integers(-1, endpoint=True)"),
  ("RandomIntegersBoolHigh", "rng = np.random.default_rng(0)\n", "rng.integers(0, 3, dtype=bool)"),
  ("RandomIntegersFloatDtype", "rng = np.random.default_rng(0)\n", "rng.integers(0, 3, dtype=np.float64)"),
  ("RandomUniformReversed", "rng = np.random.default_rng(0)\n", "rng.uniform(2, 1)"),
  ("RandomUniformInfinite", "rng = np.random.default_rng(0)\n", "rng.uniform(0, float('inf'))"),
  ("RandomRandomIntDtype", "rng = np.random.default_rng(0)\n", "rng.random(dtype=np.int32)"),
  ("RandomChoiceZero", "rng = np.random.default_rng(0)\n", "rng.choice(0)"),
  ("RandomChoiceFloat", "rng = np.random.default_rng(0)\n", "rng.choice(1.5)"),
  ("RandomChoiceEmpty", "rng = np.random.default_rng(0)\n", "rng.choice([])"),
  ("RandomChoiceTooMany", "rng = np.random.default_rng(0)\n", "rng.choice(3, 5, replace=False)"),
  ("RandomChoicePSum", "rng = np.random.default_rng(0)\n", "rng.choice([1, 2], p=[0.5, 0.6])"),
  ("RandomChoicePSize", "rng = np.random.default_rng(0)\n", "rng.choice(3, p=[0.5, 0.5])"),
  ("RandomChoicePNegative", "rng = np.random.default_rng(0)\n", "rng.choice(2, p=[1.5, -0.5])"),
  ("RandomChoicePNaN", "rng = np.random.default_rng(0)\n", "rng.choice(2, p=[float('nan'), 1.0])"),
  ("RandomChoicePTwoD", "rng = np.random.default_rng(0)\n", "rng.choice(2, p=[[0.5, 0.5]])"),
  ("RandomChoiceFewNonZero", "rng = np.random.default_rng(0)\n", "rng.choice(3, 2, replace=False, p=[1.0, 0.0, 0.0])"),
  ("RandomSizeNegative", "rng = np.random.default_rng(0)\n", "rng.random(-1)"),
  ("RandomDefaultRngNegative", "", "np.random.default_rng(-1)"),
  ("RandomDefaultRngFloat", "", "np.random.default_rng(1.5)"),
  ("RandomLegacyRandintHighLeZero", "", "np.random.randint(0)"),
  ("RandomLegacyRandintFloatDtype", "", "np.random.randint(5, dtype=np.float32)"),
  ("ExcRaiseNonException", "", "raise 5"),
  ("ExcRaiseClass", "", "raise ValueError"),
  ("ExcRaiseInstance", "", "raise KeyError('missing')"),
  ("ExcBareRaiseOutside", "", "raise"),
  ("ExcInListComp", "", "[1 / x for x in [1, 0]]"),
  ("ExcInLambda", "f = lambda x: 1 / x\n", "f(0)"),
  ("ExcLambdaMissingArg", "", "(lambda x: x)()"),
  ("ExcLambdaUnexpectedKw", "", "(lambda x: x)(y=1)"),
  ("ExcCompTargetDoesNotLeak", "y = [q for q in range(3)]\n", "print(q)"),
  ("ExcUnhashableDictCompKey", "", "{k: 1 for k in [[1]]}"),
  ("ExcRaiseFromNonException", "", "raise ValueError('a') from 5"),
  ("ExcHandlerFinallyStillRaises", "def f():\n    try:\n        1 / 0\n    finally:\n        print('cleanup')\n", "f()"),
  ("ExcUncaughtType", "def f():\n    try:\n        [][1]\n    except KeyError:\n        print('no')\n", "f()"),
  ("SetUnhashable", "", "{[1], 2}"),
  ("SetRemoveMissing", "s = {1}\n", "s.remove(5)"),
  ("SetAddUnhashable", "s = set()\n", "s.add({})"),
  ("HashUnhashable", "", "hash([1])"),
  ("MapOneArgument", "", "map(str)"),
  ("MaxDefaultWithMany", "", "max(1, 2, default=0)"),
  ("MinEmpty", "", "min([])"),
  ("StrJoinNonStr", "", "','.join([1, 2])"),
  ("StrSplitEmptySep", "", "'a'.split('')"),
  ("StrIndexNotFound", "", "'abc'.index('z')"),
  ("StrStartswithInt", "", "'a'.startswith(1)"),
  ("StrStartswithTupleItem", "", "'a'.startswith(('b', 1))"),
  ("StrReplaceInt", "", "'a'.replace(1, 2)"),
  ("StrStripInt", "", "'a'.strip(1)"),
  ("StrSplitInt", "", "'a'.split(1)"),
  ("StrFindInt", "", "'a'.find(1)"),
  ("StrCenterFill", "", "'a'.center(3, 'ab')"),
  ("StrUpperArgs", "", "'a'.upper(1)"),
  ("StrCountNoArgs", "", "'a'.count()"),
  ("StrReplaceOneArg", "", "'a'.replace('a')"),
  ("StrZfillNoArgs", "", "'a'.zfill()"),
  ("StrPartitionEmpty", "", "'a'.partition('')"),
  ("SortedTwoPositional", "", "sorted([1, 2], 1)"),
  ("AnyNotIterable", "", "any(5)"),
  ("RandomArrayLowOutOfBounds", "rng = np.random.default_rng(0)\n", "rng.integers([0, -1], 5, dtype=np.uint8)"),
  ("RandomArrayHighOutOfBounds", "rng = np.random.default_rng(0)\n", "rng.integers(0, [5, 300], dtype=np.uint8)"),
  ("RandomArrayHighLeZero", "rng = np.random.default_rng(0)\n", "rng.integers([0, 0], [5, 0])"),
  ("RandomArrayLowGeHigh", "rng = np.random.default_rng(0)\n", "rng.integers([3, 0], [5, 0])"),
  ("RandomLegacySeedNegative", "", "np.random.seed(-1)"),
  ("RandomLegacySeedTooLarge", "", "np.random.seed(2**32)"),
  ("RandomLegacySeedFloat", "", "np.random.seed(1.5)"),
  ("RandomLegacySeedEmpty", "", "np.random.seed([])"),
  ("RandomLegacySeedArrayRange", "", "np.random.seed([1, -2])"),
  ("RandomLegacyNormalNegativeScale", "", "np.random.normal(0, -1)"),
  ("RandomLegacyUniformInfinite", "", "np.random.uniform(float('-inf'), 0)"),
  ("RandomLegacyRandFloatDim", "", "np.random.rand(1.5)"),
  ("RandomLegacyRandNegativeDim", "", "np.random.rand(-1)"),
  ("RandomShuffleTuple", "rng = np.random.default_rng(0)\n", "rng.shuffle((1, 2))"),
  ("RandomNormalNegativeScale", "rng = np.random.default_rng(0)\n", "rng.normal(0.0, -1.0)"),
  ("RandomNormalNegativeScaleArray", "rng = np.random.default_rng(0)\n", "rng.normal(0.0, [1.0, -1.0])"),
  ("RandomStandardNormalIntDtype", "rng = np.random.default_rng(0)\n", "rng.standard_normal(dtype=np.int32)"),
  ("RandomStandardNormalOutDtype", "rng = np.random.default_rng(0)\n", "rng.standard_normal(out=np.zeros(3, np.float32))"),
  ("RandomStandardNormalOutSize", "rng = np.random.default_rng(0)\n", "rng.standard_normal(size=4, out=np.zeros(3))"),
  ("RandomRandomOutList", "rng = np.random.default_rng(0)\n", "rng.random(out=[1.0, 2.0])"),
  ("RandomMissingMethod", "rng = np.random.default_rng(0)\n", "rng.foo(1.0)"),
 ("AdvIndexOutOfBounds", "x = np.arange(5)\n", "x[[0, 10]]"),
 ("AdvIndexNegativeOutOfBounds", "x = np.arange(5)\n", "x[np.array([1, -6])]"),
 ("AdvIndexOutOfBoundsLaterAxis", "a = np.arange(24).reshape(2, 3, 4)\n", "a[[0, 1], :, 7]"),
 ("AdvIndexIntOutOfBoundsWithArray", "a = np.arange(24).reshape(2, 3, 4)\n", "a[[0, 1], -4]"),
 ("AdvIndexBoolLengthMismatch", "x = np.arange(3)\n", "x[np.array([True, False])]"),
 ("AdvIndexBoolListLengthMismatch", "x = np.arange(5)\n", "x[[True, False]]"),
 ("AdvIndexBoolShapeMismatch2D", "a = np.arange(24).reshape(2, 3, 4)\n", "a[:, np.ones((2, 2), bool)]"),
 ("AdvIndexFloatArray", "x = np.arange(5)\n", "x[np.array([1.0, 2.0])]"),
 ("AdvIndexFloatList", "x = np.arange(5)\n", "x[[1.0, 2.0]]"),
 ("AdvIndexArraysDontBroadcast", "a = np.arange(24).reshape(2, 3, 4)\n", "a[[0, 1], 0, [0, 1, 2]]"),
 ("AdvIndexTooManyIndices", "x = np.arange(5)\n", "x[[0, 1], 0]"),
 ("AdvIndexMaskTooDeep", "x = np.arange(5)\n", "x[np.array([[True]])]"),
 ("AdvAssignValueShapeMismatch", "x = np.arange(5)\n", "x[[0, 1]] = [1, 2, 3]"),
 ("AdvAssignMaskValueCount", "x = np.arange(5)\n", "x[x > 2] = [9, 8, 7]"),
 ("AdvAssignMaskValueDims", "x = np.arange(5)\n", "x[x > 2] = [[9, 8, 7]]"),
 ("AdvInplaceSameKindCasting", "x = np.arange(5)\n", "x[[0, 1]] += 1.5"),
 ("TileNegativeReps", "", "np.tile(np.arange(3), -1)"),
 ("TileFloatReps", "", "np.tile(np.arange(3), 1.5)"),
 ("RepeatNegative", "", "np.repeat(np.arange(3), -1)"),
 ("RepeatCountMismatch", "", "np.repeat(np.arange(3), [1, 2])"),
 ("RepeatAxisOutOfBounds", "", "np.repeat(np.arange(6).reshape(2, 3), 2, axis=2)"),
 ("RollAxisOutOfBounds", "", "np.roll(np.arange(5), 2, axis=1)"),
 ("RollShiftAxisMismatch", "", "np.roll(np.arange(6).reshape(2, 3), (1, 1), axis=(0, 1, 1))"),
 ("FlipAxisOutOfBounds", "", "np.flip(np.arange(3), axis=1)"),
 ("FlipRepeatedAxis", "", "np.flip(np.arange(4).reshape(2, 2), (0, 0))"),
 ("ExpandDimsOutOfBounds", "", "np.expand_dims(np.arange(3), 2)"),
 ("ExpandDimsRepeatedAxis", "", "np.expand_dims(np.arange(3), (0, 0))"),
 ("BroadcastToIncompatible", "", "np.broadcast_to(np.arange(3), (2, 2))"),
 ("BroadcastToIncompatible2d", "", "np.broadcast_to(np.ones((2, 3)), (4, 3))"),
 ("BroadcastToNegative", "", "np.broadcast_to(np.arange(3), (-1, 3))"),
 ("BroadcastToTooFewDims", "", "np.broadcast_to(np.ones((2, 3)), (3,))"),
 ("ProdAxisOutOfBounds", "", "np.prod(np.arange(6).reshape(2, 3), axis=2)"),
 ("CountNonzeroAxisOutOfBounds", "", "np.count_nonzero(np.eye(3), axis=2)"),
 ("IsnanString", "", "np.isnan('a')"),
 ("BitwiseAndFloat", "", "np.bitwise_and(1.0, 2)"),
 ("DiagIndicesFromNotSquare", "", "np.diag_indices_from(np.zeros((2, 3)))"),
 ("DiagIndicesFrom1d", "", "np.diag_indices_from(np.zeros(3))"),
 ("AddAtNotArray", "", "np.add.at([1, 2], [0, 0], 1)"),
 ("AddAtOutOfBounds", "a = np.zeros(3)\n", "np.add.at(a, [0, 5], 1)"),
 ("AddAtNotBroadcastable", "a = np.zeros(3)\n", "np.add.at(a, [0, 1], [1, 2, 3])"),
 ("AddAtFloatIndex", "a = np.zeros(3)\n", "np.add.at(a, [0.5], 1)"),
 ("AccumulateScalar", "", "np.minimum.accumulate(5)"),
 ("AccumulateAxisNone", "", "np.maximum.accumulate(np.zeros((2, 2)), axis=None)"),
 ("AccumulateAxisOutOfBounds", "", "np.fmin.accumulate([[1, 2], [0, 3]], axis=2)"),
 ("UfuncNoAttribute", "", "np.add.foo"),
 ("FinfoInteger", "", "np.finfo(np.int32)"),
 ("FinfoPythonInt", "", "np.finfo(int)"),
 ("FinfoArray", "", "np.finfo(np.zeros(2, dtype=np.float32))"),
 ("ViewComplexOddLastAxis", "", "np.arange(3.0).view(np.complex128)"),
 ("ViewNonContiguousLastAxis", "", "np.zeros((4, 4))[:, ::2].view(np.complex128)"),
 ("ViewZeroDim", "", "np.float64(1.0).view(np.complex128)"),
 ("ComplexScalarTwoArguments", "", "np.complex64(1, 2)"),
 ("FftBadNorm", "", "np.fft.fft(np.arange(4.0), norm='x')"),
 ("FftZeroPoints", "", "np.fft.fft(np.arange(4.0), n=0)"),
 ("FftAxisOutOfBounds", "", "np.fft.fft(np.arange(4.0), axis=1)"),
 ("MatmulStackCoreMismatch", "", "np.ones((2, 3, 4)) @ np.ones((3, 2))"),
 ("ZipStrictShorter", "", "list(zip([1, 2], [3], strict=True))"),
 ("ZipStrictLonger", "", "list(zip([1], [2], [3, 4], strict=True))"),
 ("ZipUnknownKeyword", "", "zip([1], fill=0)"),
 ("WarningsBadAction", "import warnings\n", "warnings.simplefilter('bogus')"),
 ("WarningsAsErrors", "import warnings\nwarnings.simplefilter('error')\n", "warnings.warn('boom')"),
 ("WarningsCategoryNotWarning", "import warnings\n", "warnings.warn('x', ValueError)"),
 ("NextExhausted", "", "next(iter([]))"),
 ("NextOnList", "", "next([1])"),
 ("MockAssertCalledOnce", "from unittest import mock\nm = mock.Mock()\n", "m.assert_called_once()"),
 ("StringIOClosed", "import io\nf = io.StringIO()\nf.close()\n", "f.write('x')"),
 ("PathReadMissing", "from pathlib import Path\n", "Path('/nonexistent_dir_x/a.txt').read_text()"),
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
