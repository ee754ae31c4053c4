#!/usr/bin/python3
# Regenerates random_cases.inc: runs each np.random program below under NumPy 1.24 (the oracle)
# for seeds 0, 1, 42 and 2**32-1 (SEED in the code), and records the first 20 printed lines verbatim plus the line
# count and an FNV-1a hash of the whole output (10,000 draws each), for random_test.cpp.
# Usage: /usr/bin/python3 gen_random_cases.py random_cases.inc   (the tests need no Python)
import subprocess
import sys

SEEDS = [0, 1, 42, 2**32 - 1]

# Each program draws 10,000 values with SEED substituted and prints one per line (NumPy
# scalars or Python values, as the call returns them), then the whole array NumPy-style.
EACH = "for v in x:\n    print(v)\nprint(x)\n"
GEN = "rng = np.random.default_rng(SEED)\n"
LEG = "np.random.seed(SEED)\n"
CASES = [
    ("GenRandom", GEN + "x = rng.random(10000)\n" + EACH),
    ("GenRandomFloat32", GEN + "x = rng.random(size=(10000,), dtype=np.float32)\n" + EACH),
    ("GenRandomScalars", GEN + "for i in range(10000):\n    print(rng.random())\n"),
    ("GenIntegersInt64", GEN + "x = rng.integers(0, 1000, size=10000)\n" + EACH),
    ("GenIntegersWide", GEN + "x = rng.integers(-2**40, 2**50, size=10000)\n" + EACH),
    ("GenIntegersFullRange", GEN + "x = rng.integers(-9223372036854775807 - 1, 9223372036854775807, size=10000, endpoint=True)\n" + EACH),
    ("GenIntegersEndpoint", GEN + "x = rng.integers(1, 6, size=10000, endpoint=True)\n" + EACH),
    ("GenIntegersInt32", GEN + "x = rng.integers(-100, 100, size=10000, dtype=np.int32)\n" + EACH),
    ("GenIntegersUInt32Full", GEN + "x = rng.integers(0, 2**32 - 1, size=10000, dtype=np.uint32, endpoint=True)\n" + EACH),
    ("GenIntegersInt16", GEN + "x = rng.integers(-3000, 3000, size=10000, dtype=np.int16)\n" + EACH),
    ("GenIntegersUInt16", GEN + "x = rng.integers(7, 60000, size=10000, dtype=np.uint16)\n" + EACH),
    ("GenIntegersInt8", GEN + "x = rng.integers(-100, 27, size=10000, dtype=np.int8)\n" + EACH),
    ("GenIntegersUInt8Full", GEN + "x = rng.integers(0, 256, size=10000, dtype=np.uint8)\n" + EACH),
    ("GenIntegersUInt64", GEN + "x = rng.integers(5, 2**62, size=10000, dtype=np.uint64)\n" + EACH),
    ("GenIntegersBool", GEN + "x = rng.integers(0, 2, size=10000, dtype=bool)\n" + EACH),
    ("GenIntegersScalars", GEN + "for i in range(5000):\n    print(rng.integers(0, 7), rng.integers(3, dtype=np.uint8), rng.integers(10, 20, dtype=int))\n"),
    ("GenIntegersArrayBoundsUInt8", GEN + "x = rng.integers(0, np.arange(10000) % 200 + 1, dtype=np.uint8)\n" + EACH),
    ("GenIntegersArrayBoundsInt64", GEN + "x = rng.integers(np.arange(10000) - 5000, 2**33)\n" + EACH),
    ("GenStandardNormal", GEN + "x = rng.standard_normal(10000)\n" + EACH),
    ("GenStandardNormalFloat32", GEN + "x = rng.standard_normal(size=(10000,), dtype=np.float32)\n" + EACH),
    ("GenStandardNormalScalars", GEN + "for i in range(5000):\n    print(rng.standard_normal(), rng.standard_normal(dtype=np.float32))\n"),
    ("GenStandardNormalOut", GEN + "x = np.zeros((100, 100))\ny = rng.standard_normal(out=x)\nprint(y is x)\nfor v in x.reshape(-1):\n    print(v)\n"),
    ("GenStandardNormalMany", GEN + "x = rng.standard_normal(1000000)\nprint(x[:3], x[-3:], x.sum(), x.mean(), x.std(), x.min(), x.max())\n"
     "y = rng.standard_normal(1000000, dtype=np.float32)\nprint(y[:3], y[-3:], y.min(), y.max(), (y > 3.6541529).sum(), (x < -3.6541529).sum())\n"
     "for v in rng.standard_normal(9996):\n    print(v)\n"),
    ("GenNormal", GEN + "x = rng.normal(3.0, 0.5, 10000)\n" + EACH),
    ("GenNormalScalars", GEN + "for i in range(10000):\n    print(rng.normal(loc=-1.0, scale=3.0))\n"),
    ("GenNormalBroadcast", GEN + "x = rng.normal(np.arange(100.0), np.linspace(0.0, 2.0, 100), size=(100, 100))\nfor v in x.reshape(-1):\n    print(v)\n"),
    ("GenUniform", GEN + "x = rng.uniform(-2.0, 3.0, 10000)\n" + EACH),
    ("GenUniformScalars", GEN + "for i in range(10000):\n    print(rng.uniform(low=1, high=4))\n"),
    ("GenChoice", GEN + "x = rng.choice(100, 10000)\n" + EACH),
    ("GenChoiceP", GEN + "x = rng.choice(np.arange(5) * 1.5, size=10000, p=[0.1, 0.2, 0.3, 0.25, 0.15])\n" + EACH),
    ("GenChoiceTailShuffle", GEN + "x = rng.choice(20000, 10000, replace=False)\n" + EACH),
    ("GenChoiceFloyd", GEN + "x = rng.choice(1000000, 10000, replace=False)\n" + EACH),
    ("GenChoiceFloydNoShuffle", GEN + "x = rng.choice(1000000, 10000, replace=False, shuffle=False)\n" + EACH),
    ("GenChoicePNoReplace", GEN + "p = np.arange(1, 51) / 1275.0\nfor i in range(500):\n    print(rng.choice(50, 20, replace=False, p=p))\n"),
    ("GenChoiceScalars", GEN + "for i in range(10000):\n    print(rng.choice([3, 1, 4, 1, 5]))\n"),
    ("GenPermutation", GEN + "x = rng.permutation(10000)\n" + EACH),
    ("GenPermutationArray", GEN + "x = rng.permutation(np.linspace(0, 1, 10000))\n" + EACH),
    ("GenShuffleList", GEN + "x = list(range(10000))\nrng.shuffle(x)\n" + EACH),
    ("GenShuffleRows", GEN + "x = np.arange(20000).reshape(10000, 2)\nrng.shuffle(x)\n" + EACH),
    ("LegacyRand", LEG + "x = np.random.rand(10000)\n" + EACH),
    ("LegacyRandScalars", LEG + "for i in range(10000):\n    print(np.random.rand())\n"),
    ("LegacyRandn", LEG + "x = np.random.randn(100, 100)\nfor v in x.reshape(-1):\n    print(v)\nprint(x)\n"),
    ("LegacyRandnScalars", LEG + "for i in range(10000):\n    print(np.random.randn())\n"),
    ("LegacyRandint", LEG + "x = np.random.randint(0, 100, 10000)\n" + EACH),
    ("LegacyRandintWide", LEG + "x = np.random.randint(-2**40, 2**40, size=10000)\n" + EACH),
    ("LegacyRandintSmallTypes", LEG + "for i in range(2500):\n    print(np.random.randint(10), np.random.randint(-5, 5, dtype=np.int8), np.random.randint(1000, dtype=np.uint16), np.random.randint(2, dtype=bool))\n"),
    ("LegacyRandintUInt8", LEG + "x = np.random.randint(3, 200, size=10000, dtype=np.uint8)\n" + EACH),
    ("LegacyRandintArrayBounds", LEG + "x = np.random.randint(0, np.arange(1, 10001) % 1000 + 1, dtype=np.int16)\n" + EACH),
    ("LegacyRandom", LEG + "x = np.random.random(10000)\n" + EACH),
    ("LegacyRandomSample", LEG + "x = np.random.random_sample((100, 100))\nprint(x)\nfor v in x.reshape(-1):\n    print(v)\n"),
    ("LegacyUniform", LEG + "x = np.random.uniform(-1, 1, 10000)\n" + EACH),
    ("LegacyNormal", LEG + "x = np.random.normal(3, 0.5, 10000)\n" + EACH),
    ("LegacyNormalScalars", LEG + "for i in range(10000):\n    print(np.random.normal(loc=-1.0, scale=3.0))\n"),
    ("LegacySeedArray", "np.random.seed([SEED, 7, 2**31])\nx = np.random.rand(10000)\n" + EACH),
    ("LegacyRandomState", "rs = np.random.RandomState(SEED)\nx = rs.randn(10000)\n" + EACH),
]


def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def run(code):
    r = subprocess.run([sys.executable, "-c", "import numpy as np\n" + code], capture_output=True)
    if r.returncode != 0:
        sys.exit(r.stderr.decode())
    return r.stdout


def c_string(text, indent):
    lines = text.splitlines(keepends=True)
    out = []
    for ln in lines:
        esc = ln.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        out.append(indent + '"' + esc + '"')
    return "\n".join(out) if out else indent + '""'


def main():
    import numpy
    assert numpy.__version__.startswith("1.24"), numpy.__version__
    rows = []
    for name, code in CASES:
        per_seed = []
        for seed in SEEDS:
            out = run(code.replace("SEED", str(seed)))
            head = b"".join(out.splitlines(keepends=True)[:20]).decode()
            per_seed.append("      {%du, %d, 0x%016xull,\n%s},\n" % (
                seed, out.count(b"\n"), fnv1a(out), c_string(head, "       ")))
        rows.append("    {\"%s\",\n%s,\n     {\n%s     }},\n" % (name, c_string(code, "     "), "".join(per_seed)))
    with open(sys.argv[1], "w") as f:
        f.write("// Generated by gen_random_cases.py from NumPy %s running the same programs: the\n"
                "// line counts, hashes and first lines are its output. Included by random_test.cpp.\n\n"
                % numpy.__version__)
        f.write("const RandomCase kRandomCases[] = {\n" + "".join(rows) + "};\n")


if __name__ == "__main__":
    main()
