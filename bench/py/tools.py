"""What the benchmark can run on this machine: the tilec CLI and bench binaries from the
build directory, nvcc/ptxas, the Warp venv. Each lookup says why when something is missing,
so that tables print "n/a (not available)" with the reason instead of failing."""
import os
import shutil
import subprocess
import time


class Tools:
    def __init__(self, root, build):
        self.root = root
        self.build = build
        self.tilec = os.path.join(build, "tilec")
        self.bench_cpu = os.path.join(build, "bench", "bench_cpu")
        self.bench_compile = os.path.join(build, "bench", "bench_compile")
        self.bench_gpu = os.path.join(build, "bench", "bench_gpu")
        self.bench_gpu_prepare = os.path.join(build, "bench", "bench_gpu_prepare")
        cuda_bin = "/usr/local/cuda/bin"
        self.nvcc = shutil.which("nvcc") or (os.path.join(cuda_bin, "nvcc") if os.path.exists(os.path.join(cuda_bin, "nvcc")) else None)
        self.ptxas = shutil.which("ptxas") or (os.path.join(cuda_bin, "ptxas") if os.path.exists(os.path.join(cuda_bin, "ptxas")) else None)
        # TILEC_BENCH_WARP_PYTHON: a Python with warp-lang elsewhere (a venv made by hand).
        vpy = os.environ.get("TILEC_BENCH_WARP_PYTHON") or os.path.join(build, "warp-venv", "bin", "python")
        self.warp_python = vpy if os.path.exists(vpy) else None
        self.warp_note = ""
        if self.warp_python:
            r = run([self.warp_python, "-c", "import warp; print(warp.__version__)"], timeout=120)
            if r.returncode == 0:
                self.warp_version = r.stdout.strip().splitlines()[-1]
            else:
                self.warp_note = "warp-lang does not import: " + last_line(r.stderr)
                self.warp_python = None
        else:
            self.warp_note = "warp-lang is not installed (no venv at build-bench/warp-venv)"

    def has(self, path):
        return path is not None and os.path.exists(path) and os.access(path, os.X_OK)


def run(cmd, timeout=600, **kw):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired as e:
        return subprocess.CompletedProcess(cmd, 124, e.stdout or "", f"timed out after {timeout} s")


def timed(cmd, timeout=600, **kw):
    t0 = time.perf_counter()
    r = run(cmd, timeout=timeout, **kw)
    return time.perf_counter() - t0, r


def last_line(text):
    lines = [l for l in (text or "").strip().splitlines() if l.strip()]
    return lines[-1][:200] if lines else ""


def error_line(text):
    """The line that says why a command failed: the first one naming an error, else the last."""
    lines = [l for l in (text or "").strip().splitlines() if l.strip()]
    for l in lines:
        if "error" in l.lower():
            return l[:200]
    return lines[-1][:200] if lines else ""


def first_line(text):
    lines = [l for l in (text or "").strip().splitlines() if l.strip()]
    return lines[0][:200] if lines else ""


def parse_csv(text, prefix=""):
    """Rows of a CSV that a bench binary printed, as dicts (header = first matching line)."""
    lines = [l[len(prefix):] for l in text.splitlines() if l.startswith(prefix)] if prefix else text.splitlines()
    lines = [l for l in lines if l.strip()]
    if not lines:
        return []
    head = lines[0].split(",")
    out = []
    for l in lines[1:]:
        cells = l.split(",", len(head) - 1)
        if len(cells) == len(head):
            out.append(dict(zip(head, cells)))
    return out


def run_warp_peer(toolset, subcommand, module, configs, opts, timeout):
    """warp_peer.py's `subcommand` over `configs` (dicts, sent as JSON) in Warp's venv: its CSV rows
    in the order of `configs` (None where it printed none), and the last line of its stderr."""
    import json
    r = run([toolset.warp_python, os.path.join(os.path.dirname(__file__), "warp_peer.py"), subcommand,
             "--module", module, "--cache", os.path.join(toolset.build, "warp-cache"), "--configs", json.dumps(configs),
             "--reps", str(opts.reps), "--budget", str(opts.budget)], timeout=timeout)
    got = parse_csv(r.stdout, "CSV:")
    return [got[i] if i < len(got) else None for i in range(len(configs))], last_line(r.stderr)


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None
