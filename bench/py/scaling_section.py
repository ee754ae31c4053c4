"""Compile scaling: generated kernels of N = 10, 100, 1,000 and 5,000 tile operations (scaling_gen.py)
compiled by tilec (PTX and host code, new process each; in-process where bench_compile is built),
nvcc -ptx on the CUDA equivalent and Warp's CPU build; time per op and the fit time = a + b*N^p."""
import os
import shutil
import sys
import tempfile
import time

import report
import scaling_gen
from tools import error_line, last_line, num, parse_csv, run, timed

ARCH = "sm_90"
SIZES = [10, 100, 1000, 5000]
SPLIT = 1000  # ops per kernel when tilec refuses one kernel of N ops (see the note it prints)
BUDGET_S = 600.0  # the whole section; each measurement is skipped when predicted to overrun it


def progress(msg):
    print(f"scaling: {msg}", file=sys.stderr, flush=True)


def fit_power(ns, ts):
    """Least squares of t = a + b * N^p, relative error (times span 3 orders of magnitude): for
    each p on a grid, a and b are the weighted linear least-squares solution. Returns (a, b, p)."""
    pts = [(n, t) for n, t in zip(ns, ts) if t]
    if len(pts) < 3:
        return None
    best = None
    for i in range(50, 301):
        p = i / 100
        # Weighted normal equations for [a, b] with weights 1/t^2.
        s00 = s01 = s11 = r0 = r1 = 0.0
        for n, t in pts:
            w, x = 1.0 / (t * t), float(n) ** p
            s00, s01, s11, r0, r1 = s00 + w, s01 + w * x, s11 + w * x * x, r0 + w * t, r1 + w * x * t
        det = s00 * s11 - s01 * s01
        if abs(det) < 1e-300:
            continue
        a, b = (r0 * s11 - r1 * s01) / det, (s00 * r1 - s01 * r0) / det
        if a < 0 or b <= 0:
            continue
        err = sum(((a + b * float(n) ** p) / t - 1.0) ** 2 for n, t in pts)
        if best is None or err < best[0]:
            best = (err, a, b, p)
    return best and best[1:]


class Clock:
    """The section's time budget: a step whose predicted time exceeds what is left is skipped."""
    def __init__(self, budget):
        self.end = time.time() + budget

    def left(self):
        return self.end - time.time()


def predict(prev, n):
    """Time of the next size from the measured ones: quadratic growth from the largest (the
    growth seen here for host code and Warp), so a skip errs on the side of skipping."""
    if not prev:
        return 0.0
    n0, t0 = max(prev)
    return t0 * (n / n0) ** 2 if n0 else t0


def measure(cmd, reps, clock, prev, n, env=None, check=None):
    """(min s, reps, why-not) of a command over `reps` new processes, within the budget."""
    guess = predict(prev, n)
    if guess > clock.left():
        return None, 0, f"skipped (about {guess:.0f} s predicted, {max(clock.left(), 0):.0f} s of the section's budget left)"
    times = []
    for _ in range(reps):
        dt, r = timed(cmd, timeout=max(60, int(clock.left()) + 60), env=env)
        if r.returncode != 0:
            return None, 0, "n/a (" + (error_line(r.stderr) or f"exit {r.returncode}") + ")"
        if check and not check():
            return None, 0, "n/a (no output)"
        times.append(dt)
        if clock.left() < dt * 2:
            break  # one repetition is a result; more would overrun the budget
    return min(times), len(times), ""


def run_section(tools, work, opts):
    sizes = getattr(opts, "scaling_sizes", None) or ([10, 100] if opts.quick else SIZES)
    clock = Clock(getattr(opts, "scaling_budget", None) or BUDGET_S)
    t = report.Table("compile_scaling",
                     "Compile scaling: one generated kernel of N tile operations (s; per op in ms)",
                     ["compiler", "path", "N", "kernels", "s", "reps", "ms_per_op", "marginal_ms_per_op",
                      "x_N10_marginal", "note"])
    out = os.path.join(work, "scaling")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    # tilec's kernel cache serves GPU launches only (`tilec compile` never reads it); it is
    # turned off and pointed at an empty folder anyway, and the folder is checked after the run.
    cache_dir = tempfile.mkdtemp(prefix="tilec-cache-", dir=out)
    env = dict(os.environ, TILEC_CACHE="0", TILEC_CACHE_DIR=cache_dir, XDG_CACHE_HOME=cache_dir)
    files = {n: scaling_gen.write(out, n) for n in [0] + sizes}
    kernels = {n: 1 for n in files}
    notes = {}
    results = {}  # (compiler, path) -> {n: (s, reps, why)}

    def contestant(key, cmd_of, reps_of, ns, check_of=None, env_=None):
        res = results.setdefault(key, {})
        for n in ns:
            prev = [(m, v[0]) for m, v in res.items() if v[0]]
            progress(f"{key[0]} {key[1]} N={n} ({clock.left():.0f} s left)")
            res[n] = measure(cmd_of(n), reps_of(n), clock, prev, n, env=env_,
                             check=check_of(n) if check_of else None)

    # The marginal cost per op at N = 10 is the difference of two times a few milliseconds
    # apart, divided by 10: the small kernels take many repetitions (they cost little).
    reps_of = lambda n: 11 if n <= 10 else (3 if n <= 100 else (2 if n <= 1000 else 1))  # noqa: E731
    ns = [0] + sizes
    if tools.has(tools.tilec):
        # tilec takes a statement of at most 5000 operators, calls, subscripts and attributes,
        # and a kernel definition is one statement: where the one-kernel file is refused, every
        # contestant compiles the same ops split into kernels of SPLIT ops in one module.
        for n in sizes:
            r = run([tools.tilec, "check", files[n][0]], env=env)
            if r.returncode != 0:
                notes[n] = f"split: {-(-n // SPLIT)} kernels of {SPLIT} ops (one kernel: E0017)"
                t.note(f"N = {n}: tilec refuses one kernel of {n} ops ({error_line(r.stderr).split(': ', 1)[-1][:150]}: "
                       f"a kernel definition is one statement); every contestant compiles {-(-n // SPLIT)} kernels of "
                       f"<= {SPLIT} ops in one module instead, so this row also measures module size, not one function")
                files[n] = scaling_gen.write(out, n, SPLIT)
                kernels[n] = -(-n // SPLIT)
        ptx = lambda n: [tools.tilec, "compile", "--target=nvptx", f"--arch={ARCH}", "--emit=ptx", files[n][0]]  # noqa: E731
        contestant(("tilec", "source->PTX, cold process"), ptx, reps_of, ns, env_=env)
        so = lambda n: os.path.join(out, f"scale_{n}.so")  # noqa: E731
        contestant(("tilec", "source->host .so, cold process"),
                   lambda n: [tools.tilec, "compile", "--target=host", "-o", so(n), files[n][0]], reps_of, ns,
                   check_of=lambda n: (lambda: os.path.exists(so(n))), env_=env)
        if os.listdir(cache_dir):
            t.note(f"WARNING: tilec wrote to its kernel cache ({cache_dir}) although TILEC_CACHE=0")
    else:
        for p in ("source->PTX, cold process", "source->host .so, cold process"):
            results[("tilec", p)] = {n: (None, 0, "n/a (no tilec)") for n in ns}
    if tools.has(tools.bench_compile):
        # In-process ("warm": the compiler's one-time set-up done) PTX and host JIT of each file.
        for mode, path in (("ptx", "source->PTX, warm in-process"), ("host-jit", "source->host JIT, warm in-process")):
            results[("tilec", path)] = {}
        for n in ns:
            if clock.left() < 30:
                break
            progress(f"bench_compile N={n}")
            r = run([tools.bench_compile, f"--reps={reps_of(n) if n <= 10 else min(reps_of(n), 2)}", f"--arch={ARCH}", files[n][0]],
                    timeout=max(60, int(clock.left())), env=env)
            rows = parse_csv("\n".join(l for l in r.stdout.splitlines() if not l.startswith("#")))
            for mode, path in (("ptx", "source->PTX, warm in-process"), ("host-jit", "source->host JIT, warm in-process")):
                row = next((x for x in rows if x["mode"] == mode), None)
                results[("tilec", path)][n] = (
                    (num(row["min_s"]), int(row["reps"]), "") if row and row["status"] == "ok"
                    else (None, 0, "n/a (" + ((row and row["note"]) or last_line(r.stderr) or "bench_compile failed") + ")"))
    else:
        t.note("tilec warm (in-process) rows: n/a, no bench/bench_compile in this build (bench/run.sh builds it); "
               "`tilec compile` has no warm path (the kernel cache serves GPU launches only)")
    if tools.nvcc:
        contestant(("nvcc", "-ptx, cold process"),
                   lambda n: [tools.nvcc, "-ptx", f"-arch={ARCH}", "-w", files[n][1], "-o", os.path.join(out, f"scale_{n}.nvcc.ptx")],
                   reps_of, ns)
    else:
        results[("nvcc", "-ptx, cold process")] = {n: (None, 0, "n/a (no nvcc)") for n in ns}
    key = ("warp", "source->CPU module, empty cache")
    results[key] = {}
    if tools.warp_python:
        # One process per size: warp_peer.py warms Warp's compiler up, then builds with a fresh
        # kernel cache; its own timer excludes the interpreter's start.
        for n in ns:
            prev = [(m, v[0]) for m, v in results[key].items() if v[0]]
            guess = predict(prev, n)
            if guess > clock.left():
                results[key][n] = (None, 0, f"skipped (about {guess:.0f} s predicted, "
                                   f"{max(clock.left(), 0):.0f} s of the section's budget left)")
                continue
            progress(f"warp N={n} ({clock.left():.0f} s left)")
            cache_root = tempfile.mkdtemp(prefix="warp-", dir=out)
            r = run([tools.warp_python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "warp_peer.py"),
                     "compile", "--cache-root", cache_root, "--reps", "1", files[n][0]],
                    timeout=max(60, int(clock.left()) + 60))
            row = next(iter(parse_csv(r.stdout, "CSV:")), None)
            results[key][n] = ((num(row["min_s"]), 1, "") if row and row["status"] == "ok" else
                               (None, 0, "n/a (" + ((row and row["note"][:160]) or last_line(r.stderr) or "warp failed") + ")"))
            shutil.rmtree(cache_root, ignore_errors=True)
    else:
        results[key] = {n: (None, 0, "n/a (" + tools.warp_note + ")") for n in ns}

    fits = []
    for (comp, path), res in results.items():
        base = res.get(0, (None,))[0]
        m10 = None
        for n in ns:
            s, reps, why = res.get(n, (None, 0, "n/a (not run: budget)"))
            per = s / n * 1e3 if s and n else None
            marg = (s - base) / n * 1e3 if s and base is not None and n else None
            if n == min(sizes):
                m10 = marg
            note = why or notes.get(n, "")
            t.add(comp, path, n, kernels[n], s, reps, per, marg,
                  marg / m10 if marg and m10 and m10 > 0 else None, note)
        ratios = [r[8] for r in t.rows if (r[0], r[1]) == (comp, path) and r[8] is not None]
        if len(ratios) > 1:
            flat = all(0.5 <= x <= 2.0 for x in ratios)
            t.note(f"{comp} {path}: marginal ms per op from N = {min(sizes)} to the largest measured N within "
                   f"{min(ratios):.2f}x..{max(ratios):.2f}x of N = {min(sizes)}'s: " + ("flat within 2x" if flat else "NOT flat within 2x"))
        f = fit_power([n for n in ns if res.get(n, (None,))[0]], [res[n][0] for n in ns if res.get(n, (None,))[0]])
        pts = sum(1 for n in ns if res.get(n, (None,))[0])
        fits.append(f"{comp} {path}: " + (f"t = {f[0]:.3g} s + {f[1]:.3g} s * N^{f[2]:.2f} ({pts} points)" if f
                                           else f"no fit ({pts} points)"))
    t.note(f"machine: {os.cpu_count()} cores; load average at the end "
           f"{open('/proc/loadavg').read().split()[0] if os.path.exists('/proc/loadavg') else '?'}; "
           "all times and ratios come from this one run (min of reps, new process each except warm and Warp)")
    t.note("N = 0 is the kernel skeleton alone (index load, first load, last store): the fixed cost; "
           "marginal_ms_per_op = (s - s(N=0)) / N; x_N10_marginal = marginal per op / that of N = "
           f"{min(sizes)} (flat within 2x: 0.5..2)")
    t.note("op mix (scaling_gen.OPS, cycled): tile_load at 7k mod 61 offsets, tile*tile, tile*scalar, +, -, "
           "(t + a*a) / 3.0, tile_map(sin | exp | max | a @wp.func), tile_load_indexed, tile_sum, tile_store; "
           "CUDA: one element per thread (TILE = block = 256), the same per-element work, tile_sum as a block reduction")
    for f in fits:
        t.note("fit " + f)
    if opts.out:
        plot(t, os.path.join(opts.out, "compile_scaling.png"))
    return t


def plot(t, path):
    plt = report.load_pyplot()
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(8, 5))
    series = list(dict.fromkeys((r[0], r[1]) for r in t.rows))
    for i, (c, p) in enumerate(series):
        pts = [(r[2], r[4]) for r in t.rows if (r[0], r[1]) == (c, p) and r[2] and r[4]]
        if pts:
            ax.plot([x for x, _ in pts], [y for _, y in pts], "o-", label=f"{c}: {p}", color=f"C{i}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("tile operations N")
    ax.set_ylabel("compile time (s)")
    ax.set_title("Compile scaling")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
