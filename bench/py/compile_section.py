"""Compile latency (source -> PTX / cubin / host code) and PTX quality (ptxas -v registers,
spills, shared memory; PTX instruction count) for tilec, nvcc and Warp on the same kernels."""
import os
import re
import statistics

import report
from tools import error_line, last_line, num, parse_csv, run, timed

ARCH = "sm_90"
SHARED_BYTES = {}  # tilec kernel -> dynamic shared bytes, as bench_compile reports them


def _stats(times):
    return (min(times), statistics.median(times)) if times else (None, None)


def _cold(cmd, reps, check=None):
    """Times a command `reps` times; returns (min, median, reps, why-not)."""
    times = []
    for _ in range(reps):
        dt, r = timed(cmd)
        if r.returncode != 0:
            return None, None, 0, "n/a (not available: " + (error_line(r.stderr) or f"exit {r.returncode}") + ")"
        if check and not check():
            return None, None, 0, "n/a (no output written)"
        times.append(dt)
    mn, med = _stats(times)
    return mn, med, len(times), ""


def compile_latency(tools, kernels, work, opts):
    t = report.Table("compile_latency", "Compile latency: source -> PTX / cubin / host code (ms)",
                     ["kernel", "compiler", "path", "min_ms", "median_ms", "kernels", "ms_per_kernel", "reps",
                      "x_nvcc_ptx", "note"])
    ptx_files = {}  # (kernel, "tilec"|"nvcc") -> PTX path
    out = os.path.join(work, "compile")
    os.makedirs(out, exist_ok=True)
    inc = os.path.join(tools.root, "runtime", "include")

    warm = {}
    if tools.has(tools.bench_compile):
        # The throughput module rides along for its kernels' shared-memory sizes (PTX table).
        extra = [opts.throughput_tile] if getattr(opts, "throughput_tile", None) else []
        r = run([tools.bench_compile, f"--reps={opts.reps}", f"--arch={ARCH}"] + [k[1] for k in kernels] + extra,
                timeout=900)
        for row in parse_csv("\n".join(l for l in r.stdout.splitlines() if not l.startswith("#"))):
            warm[(row["kernel"], row["mode"])] = row
        for l in r.stdout.splitlines():  # "#smem,<kernel>,<dynamic shared bytes>"
            if l.startswith("#smem,"):
                _, k, b = l.split(",")
                SHARED_BYTES[k] = int(b)
        if r.returncode != 0 and not warm:
            warm_why = "n/a (bench_compile failed: " + last_line(r.stderr) + ")"
        else:
            warm_why = ""
    else:
        warm_why = "n/a (not available: no compiler facade in this build)"

    warp = {}
    warp_why = "n/a (" + tools.warp_note + ")" if not tools.warp_python else ""
    if tools.warp_python and opts.warp_compile_reps > 0:
        cache_root = os.path.join(work, "warp-compile-cache")
        os.makedirs(cache_root, exist_ok=True)
        r = run([tools.warp_python, os.path.join(os.path.dirname(__file__), "warp_peer.py"), "compile",
                 "--cache-root", cache_root, "--reps", str(opts.warp_compile_reps)] + [k[1] for k in kernels],
                timeout=1200)
        for row in parse_csv(r.stdout, "CSV:"):
            warp[row["kernel"]] = row
        if not warp:
            warp_why = "n/a (warp failed: " + last_line(r.stderr) + ")"
    elif tools.warp_python:
        warp_why = "n/a (skipped: --warp-compile-reps 0)"

    for name, tile, cu, origin in kernels:
        rows = []
        # tilec, cold process: the CLI as a user runs it.
        ptx = os.path.join(out, name + ".tilec.ptx")
        if tools.has(tools.tilec):
            def write_ptx():
                r = run([tools.tilec, "compile", "--target=nvptx", f"--arch={ARCH}", "--emit=ptx", tile])
                if r.returncode == 0 and ".entry" in r.stdout:
                    with open(ptx, "w") as f:
                        f.write(r.stdout)
                    return True
                return False
            mn, med, n, why = _cold([tools.tilec, "compile", "--target=nvptx", f"--arch={ARCH}", "--emit=ptx", tile],
                                    opts.reps)
            if not why and not write_ptx():
                mn = med = None
                why = "n/a (no .entry in the output)"
            if not why:
                ptx_files[(name, "tilec")] = ptx
            rows.append(("tilec", "source->PTX, cold process", mn, med, n, why))
        else:
            rows.append(("tilec", "source->PTX, cold process", None, None, 0, "n/a (not available: no build/tilec)"))
        w = warm.get((name, "ptx"))
        rows.append(("tilec", "source->PTX, warm in-process", num(w and w["min_s"]), num(w and w["median_s"]),
                     int(w["reps"]) if w and w["reps"] else 0,
                     (w["note"] and "n/a (" + w["note"] + ")") if w and w["status"] != "ok" else warm_why if not w else ""))
        if tools.nvcc and os.path.exists(cu):
            nv_ptx = os.path.join(out, name + ".nvcc.ptx")
            mn, med, n, why = _cold([tools.nvcc, "-ptx", f"-arch={ARCH}", "-I", inc, cu, "-o", nv_ptx], opts.nvcc_reps,
                                    check=lambda: os.path.exists(nv_ptx))
            if not why:
                ptx_files[(name, "nvcc")] = nv_ptx
            rows.append(("nvcc", "-ptx", mn, med, n, why))
            cubin = os.path.join(out, name + ".nvcc.cubin")
            mn, med, n, why = _cold([tools.nvcc, "-cubin", f"-arch={ARCH}", "-I", inc, cu, "-o", cubin], opts.nvcc_reps)
            rows.append(("nvcc", "-cubin", mn, med, n, why))
        else:
            rows.append(("nvcc", "-ptx", None, None, 0, "n/a (not available: no nvcc or reference)"))
        so = os.path.join(out, name + ".so")
        if tools.has(tools.tilec):
            if os.path.exists(so):
                os.remove(so)
            mn, med, n, why = _cold([tools.tilec, "compile", "--target=host", "-o", so, tile], opts.reps,
                                    check=lambda: os.path.exists(so))
            rows.append(("tilec", "source->host .so, cold process", mn, med, n, why))
        else:
            rows.append(("tilec", "source->host .so, cold process", None, None, 0, "n/a (not available: no build/tilec)"))
        w = warm.get((name, "host-jit"))
        rows.append(("tilec", "source->host JIT, warm in-process", num(w and w["min_s"]), num(w and w["median_s"]),
                     int(w["reps"]) if w and w["reps"] else 0,
                     (w["note"] and "n/a (" + w["note"] + ")") if w and w["status"] != "ok" else warm_why if not w else ""))
        w = warp.get(name)
        rows.append(("warp", "source->CPU module, empty cache", num(w and w["min_s"]), num(w and w["median_s"]),
                     int(w["reps"]) if w and w["reps"] else 0,
                     ("n/a (" + w["note"] + ")") if w and w["status"] != "ok" else warp_why if not w else ""))
        nvcc_med = next((r[3] for r in rows if r[0] == "nvcc" and r[1] == "-ptx"), None)
        # Kernels each compile produces: tilec's module lists its adjoints (as bench_compile
        # reports them), Warp builds a backward function unless enable_backward=False, and the
        # CUDA references hold the forward kernel only.
        tilec_kernels = sum(1 for k in SHARED_BYTES if k == name or k.startswith(name + "$")) or 1
        counts = {"tilec": tilec_kernels, "nvcc": 1, "warp": 2 if origin.startswith("seed") else 1}
        for comp, path, mn, med, n, why in rows:
            ratio = med / nvcc_med if med and nvcc_med else None
            per = med / counts[comp] if med else None
            t.add(name, comp, path, mn and mn * 1e3, med and med * 1e3, counts[comp], per and per * 1e3, n, ratio,
                  why or ("adjoint built too (seed kernel)" if origin.startswith("seed") and comp in ("tilec", "warp") else ""))
    t.note(f"cold = a new process per compile; warm = in one process after a warm-up compile; "
           f"tilec/nvcc {opts.reps}/{opts.nvcc_reps} reps, Warp {opts.warp_compile_reps} rep(s) with an empty kernel cache, "
           "after a warm-up compile of another kernel (Warp's one-time compiler set-up)")
    t.note("x_nvcc_ptx = median / median of `nvcc -ptx` for the same kernel, in this run")
    t.note("bench kernels use enable_backward=False (forward only, like the CUDA references); the seed "
           "kernels are compiled as the spec pages write them")
    if opts.out:
        groups = [k[0] for k in kernels]
        series = sorted({(r[1], r[2]) for r in t.rows}, key=lambda s: [(r[1], r[2]) for r in t.rows].index(s))
        vals = [[next((r[4] for r in t.rows if r[0] == g and (r[1], r[2]) == s), None) for g in groups] for s in series]
        report.bar_plot(os.path.join(opts.out, "compile_latency.png"), "Compile latency (median, ms, log scale)",
                        groups, [f"{a}: {b}" for a, b in series], vals, "ms", log=True)
    return t, ptx_files


# ---------------------------------------------------------------------------------------
# PTX quality

_DIRECTIVE = re.compile(r"^\s*(\.|//|\{|\}|$|[A-Za-z_$][\w$]*:)")


def ptx_functions(text):
    """name -> (instruction count, called function names) for every .entry and .func."""
    funcs = {}
    for m in re.finditer(r"\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)\s*\(", text):
        name = m.group(2)
        depth, i = 1, m.end()
        while i < len(text) and depth:  # skip the parameter list
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        brace, semi = text.find("{", i), text.find(";", i)
        if brace < 0 or (0 <= semi < brace):
            continue  # a declaration, no body
        start = brace
        depth, i = 0, start
        while i < len(text):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        body = text[start + 1:i]
        count, calls = 0, set()
        for line in body.split("\n"):
            s = line.split("//")[0].strip()
            if not s or _DIRECTIVE.match(s) or not s.endswith(";"):
                continue
            count += 1
            c = re.search(r"\bcall(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([\w$]+)", s)
            if c:
                calls.add(c.group(1))
        funcs[name] = (count, calls)
    return funcs


def ptx_instructions(funcs, entry):
    seen, total, stack = set(), 0, [entry]
    while stack:
        f = stack.pop()
        if f in seen or f not in funcs:
            continue
        seen.add(f)
        total += funcs[f][0]
        stack.extend(funcs[f][1])
    return total


def ptxas_info(tools, ptx):
    """entry -> dict(registers, spill_stores, spill_loads, smem, stack) from ptxas -v."""
    r = run([tools.ptxas, f"-arch={ARCH}", "-v", ptx, "-o", os.devnull])
    info, cur = {}, None
    for line in (r.stderr + r.stdout).splitlines():
        m = re.search(r"(?:Compiling entry function|Function properties for) '?([\w$]+)'?", line)
        if m:
            cur = m.group(1)
            info.setdefault(cur, {})
        if cur is None:
            continue
        d = info[cur]
        for key, pat in (("stack", r"(\d+) bytes stack frame"), ("spill_stores", r"(\d+) bytes spill stores"),
                         ("spill_loads", r"(\d+) bytes spill loads"), ("registers", r"Used (\d+) registers"),
                         ("smem", r"(\d+) bytes smem")):
            mm = re.search(pat, line)
            if mm:
                d[key] = int(mm.group(1))
    return info, (r.returncode, error_line(r.stderr) if r.returncode else "")


def ptx_quality(tools, kernels, ptx_files, work, opts, throughput_ptx=None):
    t = report.Table("ptx_quality", f"PTX quality ({ARCH}, ptxas -v)",
                     ["kernel", "compiler", "registers", "spill_st_B", "spill_ld_B", "smem_B", "stack_B",
                      "ptx_instr", "x_nvcc_instr", "note"])
    if not tools.ptxas:
        t.note("n/a (not available: no ptxas)")
        return t
    entries = [(k[0], k[0]) for k in kernels]
    if throughput_ptx:
        entries += [(n, "throughput") for n in throughput_ptx]
    cache = {}
    for name, group in entries:
        res = {}
        for comp, prefix in (("tilec", "tilec_kernel_"), ("nvcc", "ref_")):
            key = (group, comp) if group != name and group == "throughput" else (name, comp)
            path = ptx_files.get(key)
            if not path:
                res[comp] = None
                continue
            if path not in cache:
                with open(path) as f:
                    text = f.read()
                cache[path] = (ptx_functions(text), ptxas_info(tools, path))
            funcs, (info, (rc, err)) = cache[path]
            entry = prefix + name
            if entry not in funcs:
                res[comp] = ("missing", f"n/a (no entry {entry})")
                continue
            if rc != 0:
                res[comp] = ("missing", "n/a (ptxas rejected the PTX: " + err + ")")
                continue
            res[comp] = (info.get(entry, {}), ptx_instructions(funcs, entry))
        nv = res.get("nvcc")
        nv_instr = nv[1] if nv and nv[0] != "missing" else None
        for comp in ("tilec", "nvcc"):
            r = res.get(comp)
            if r is None:
                t.add(name, comp, None, None, None, None, None, None, None, "n/a (not available)")
            elif r[0] == "missing":
                t.add(name, comp, None, None, None, None, None, None, None, r[1])
            else:
                d, n = r
                smem, note = d.get("smem"), ""
                if comp == "tilec" and name in SHARED_BYTES:
                    smem, note = (smem or 0) + SHARED_BYTES[name], "smem includes dynamic shared memory"
                t.add(name, comp, d.get("registers"), d.get("spill_stores"), d.get("spill_loads"), smem,
                      d.get("stack"), n, (n / nv_instr) if nv_instr and comp == "tilec" else None, note)
    t.note("ptx_instr counts the entry's PTX instructions plus those of the .func bodies it calls; the same "
           "ptxas (CUDA toolkit) assembles both compilers' PTX")
    if opts.out:
        groups = list(dict.fromkeys(r[0] for r in t.rows))
        vals = [[next((r[7] for r in t.rows if r[0] == g and r[1] == c), None) for g in groups] for c in ("tilec", "nvcc")]
        report.bar_plot(os.path.join(opts.out, "ptx_quality.png"), "PTX instructions per kernel (sm_90)",
                        groups, ["tilec", "nvcc"], vals, "PTX instructions", log=True)
    return t
