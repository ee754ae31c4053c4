"""The targets of the benchmark issue, each checked against the tables of this run: what was
measured, the bound, and whether it holds. Ratios only compare numbers from the same run."""
import gemm_kernels
import report

SEEDS = ("gather_even_rows", "accumulate_even_rows")


def _rows(table, **match):
    cols = table.columns
    for r in table.rows:
        d = dict(zip(cols, r))
        if all(d.get(k) == v for k, v in match.items()):
            yield d


def _one(table, **match):
    return next(_rows(table, **match), None)


def _verdict(ok):
    return "n/a" if ok is None else ("met" if ok else "MISSED")


def targets_table(tables):
    by = {t.name: t for t in tables}
    t = report.Table("targets", "Targets (from the tables above, this run)",
                     ["target", "case", "measured", "bound", "verdict"])
    comp = by.get("compile_latency")
    if comp:
        # Every kernel with an nvcc reference: the bound holds for each, the seeds also against Warp.
        kernels = list(dict.fromkeys(r[0] for r in comp.rows))
        for k in kernels:
            cold = _one(comp, kernel=k, compiler="tilec", path="source->PTX, cold process")
            nv = _one(comp, kernel=k, compiler="nvcc", path="-ptx")
            wp = _one(comp, kernel=k, compiler="warp")
            warm = _one(comp, kernel=k, compiler="tilec", path="source->PTX, warm in-process")
            c = cold and cold["median_ms"]
            peers = (("nvcc -ptx", nv), ("Warp first compile", wp)) if k in SEEDS else (("nvcc -ptx", nv),)
            for peer, row in peers:
                p = row and row["median_ms"]
                if not p and peer == "nvcc -ptx" and k not in SEEDS:
                    continue  # no CUDA reference for this kernel
                x = p / c if p and c else None
                t.add("cold tilec compile --emit=ptx >= 20x faster than " + peer, k,
                      x and f"{x:.1f}x ({c:.0f} vs {p:.0f} ms)", ">= 20x", _verdict(x and x >= 20))
            if k in SEEDS:
                w = warm and warm["ms_per_kernel"]
                t.add("warm in-process compile < 10 ms per kernel", k,
                      w and f"{w:.1f} ms ({warm['kernels']} kernels, {warm['median_ms']:.1f} ms)", "< 10 ms",
                      _verdict(w and w < 10))
    cpu = by.get("cpu_throughput")
    if cpu:
        cases = list(dict.fromkeys((r[0], r[1], r[2]) for r in cpu.rows))

        def impl(op, wb, size, name):
            return _one(cpu, op=op, row_B=wb, size_MiB=size, impl=name)

        def label(op, wb, size):
            return f"{op}, {wb} B, {size:g} MiB"

        # One line per target: how many cases it covers, the worst of them, and the verdict.
        def worst(target, bound, items, better_high, fmt, ok):
            if not items:
                t.add(target, "no case measured", None, bound, "n/a")
                return
            value, case = (min if better_high else max)(items, key=lambda it: it[0])
            failing = sum(1 for v, _ in items if not ok(v))
            t.add(target, f"{len(items)} cases; worst: {case}", fmt(value) + (f" ({failing} below)" if failing else ""),
                  bound, _verdict(failing == 0))

        vs_warp, gathers, vs_numpy, vs_add_at, vs_hand = [], [], [], [], []
        for op, wb, size in cases:
            tl = impl(op, wb, size, "tilec")
            if not tl or not tl["min_ms"]:
                continue
            wp, npy, hand = impl(op, wb, size, "warp cpu"), impl(op, wb, size, "numpy"), impl(op, wb, size, "hand C++")
            if wp and wp["min_ms"]:
                vs_warp.append((wp["min_ms"] / tl["min_ms"], label(op, wb, size)))
            if op == "gather" and wb >= 1024 and tl["pct_of_copy"] is not None:
                gathers.append((tl["pct_of_copy"], label(op, wb, size)))
            if npy and npy["min_ms"]:
                vs_numpy.append((npy["min_ms"] / tl["min_ms"], label(op, wb, size)))
                if op.startswith("scatter"):
                    vs_add_at.append((npy["min_ms"] / tl["min_ms"], label(op, wb, size)))
            if hand and hand["min_ms"]:
                vs_hand.append((hand["min_ms"] / tl["min_ms"], label(op, wb, size)))
        worst("CPU faster than Warp's CPU device on every gather/scatter case", "> 1x", vs_warp, True,
              lambda v: f"{v:.2f}x Warp's speed", lambda v: v > 1)
        worst("CPU faster than NumPy on every gather/scatter case", "> 1x", vs_numpy, True,
              lambda v: f"{v:.1f}x NumPy's speed", lambda v: v > 1)
        worst("CPU gather, rows >= 1 KiB: >= 60% of copy bandwidth", ">= 60%", gathers, True,
              lambda v: f"{v:.0f}%", lambda v: v >= 60)
        worst("CPU scatter-add >= 10x faster than np.add.at", ">= 10x", vs_add_at, True,
              lambda v: f"{v:.0f}x", lambda v: v >= 10)
        worst("CPU gather/scatter-add at or above the hand-written C++ loop", ">= 1.0x", vs_hand, True,
              lambda v: f"{v:.2f}x its speed", lambda v: v >= 1.0)
        for v, case in sorted(vs_hand):
            if v < 1.0:
                t.add("  slower than hand C++", case, f"{v:.2f}x its speed", ">= 1.0x", "MISSED")
        for v, case in sorted(vs_warp):
            if v <= 1:
                t.add("  slower than Warp", case, f"{v:.2f}x Warp's speed", "> 1x", "MISSED")
    red = by.get("cpu_reduce")
    if red:
        pcts, vs_numpy, vs_warp = [], [], []
        for r in red.rows:
            d = dict(zip(red.columns, r))
            if d["impl"] != "tilec" or not d["min_ms"]:
                continue
            case = f"{d['op']}, N={d['cols']}, {d['size_MiB']:g} MiB"
            if d["pct_of_copy"] is not None:
                pcts.append((d["pct_of_copy"], case))
            npy = _one(red, op=d["op"], cols=d["cols"], size_MiB=d["size_MiB"], impl="numpy")
            wp = _one(red, op=d["op"], cols=d["cols"], size_MiB=d["size_MiB"], impl="warp cpu")
            if npy and npy["min_ms"]:
                vs_numpy.append((npy["min_ms"] / d["min_ms"], case))
            if wp and wp["min_ms"]:
                vs_warp.append((wp["min_ms"] / d["min_ms"], case))
        for target, bound, items, fmt, ok in (
                ("CPU tile reductions (row sum, max, softmax): >= 50% of copy bandwidth", ">= 50%", pcts,
                 lambda v: f"{v:.0f}%", lambda v: v >= 50),
                ("CPU tile reductions faster than NumPy", "> 1x", vs_numpy, lambda v: f"{v:.2f}x NumPy's speed",
                 lambda v: v > 1),
                ("CPU tile reductions faster than Warp's CPU device", "> 1x", vs_warp,
                 lambda v: f"{v:.2f}x Warp's speed", lambda v: v > 1)):
            if not items:
                t.add(target, "no case measured", None, bound, "n/a")
                continue
            value, case = min(items, key=lambda it: it[0])
            failing = sum(1 for v, _ in items if not ok(v))
            t.add(target, f"{len(items)} cases; worst: {case}", fmt(value) + (f" ({failing} below)" if failing else ""),
                  bound, _verdict(failing == 0))
    mm = by.get("cpu_matmul")
    if mm:
        rows = [dict(zip(mm.columns, r)) for r in mm.rows]
        tl = {d["tile"]: d for d in rows if d["impl"] == "tilec" and d["min_ms"]}
        wp = {d["tile"]: d for d in rows if d["impl"] == "warp cpu" and d["min_ms"]}
        d = tl.get("64x64")
        t.add("CPU tile_matmul 64x64 float32: >= 50% of the measured FMA peak", d and f"64x64, {d['batch_MiB']:g} MiB",
              d and d["pct_of_peak"] is not None and f"{d['pct_of_peak']:.0f}% ({d['GFLOP/s']:.0f} GFLOP/s)", ">= 50%",
              _verdict(d and d["pct_of_peak"] is not None and d["pct_of_peak"] >= 50))
        items = [(wp[k]["min_ms"] / tl[k]["min_ms"], k) for k in tl if k in wp]
        target = "CPU tile_matmul faster than Warp's CPU device on every tile size"
        if items:
            value, case = min(items)
            failing = sum(1 for v, _ in items if v <= 1)
            t.add(target, f"{len(items)} cases; worst: {case}", f"{value:.1f}x Warp's speed" +
                  (f" ({failing} below)" if failing else ""), "> 1x", _verdict(failing == 0))
        else:
            t.add(target, "no case measured", None, "> 1x", "n/a")
    lanes = by.get("cpu_lanes")
    if lanes:
        items = [(d["lane/tile"], f"{d['elements']} floats, B={d['B']}")
                 for d in (dict(zip(lanes.columns, r)) for r in lanes.rows) if d["lane/tile"] is not None]
        target = "CPU per-lane code (wp.tile + tile_sum) within 2x of the tile-only kernel"
        if items:
            value, case = max(items, key=lambda it: it[0])
            failing = sum(1 for v, _ in items if v > 2)
            t.add(target, f"{len(items)} cases; worst: {case}",
                  f"{value:.2f}x its time" + (f" ({failing} above)" if failing else ""), "<= 2x", _verdict(failing == 0))
        else:
            t.add(target, "no case measured", None, "<= 2x", "n/a")
    ptx = by.get("ptx_quality")
    if ptx:
        # Every kernel the table has with nvcc's PTX beside it (seeds, bench kernels, throughput rows).
        for k in dict.fromkeys(r[0] for r in ptx.rows):
            tl, nv = _one(ptx, kernel=k, compiler="tilec"), _one(ptx, kernel=k, compiler="nvcc")
            if not tl or tl["registers"] is None:
                if k in SEEDS:
                    t.add("PTX of the seed kernels", k, None, "", "n/a")
                continue
            spills = (tl["spill_st_B"] or 0) + (tl["spill_ld_B"] or 0)
            t.add("PTX: no spills", k, f"{spills} B", "0 B", _verdict(spills == 0))
            if nv and nv["registers"]:
                x = tl["registers"] / nv["registers"]
                t.add("PTX: registers within 1.3x of nvcc", k, f"{tl['registers']} vs {nv['registers']} ({x:.2f}x)",
                      "<= 1.3x", _verdict(x <= 1.3))
            if tl["x_nvcc_instr"] is not None:
                t.add("PTX: instructions within 1.3x of nvcc", k,
                      f"{tl['ptx_instr']} vs {nv and nv['ptx_instr']} ({tl['x_nvcc_instr']:.2f}x)", "<= 1.3x",
                      _verdict(tl["x_nvcc_instr"] <= 1.3))
    gpu = by.get("gpu_bandwidth")
    measured = gpu and any(r for r in gpu.rows if "pct_of_copy" in gpu.columns
                           and dict(zip(gpu.columns, r)).get("pct_of_copy") is not None)
    if gpu and measured:
        cols = gpu.columns
        for r in gpu.rows:
            d = dict(zip(cols, r))
            if d.get("impl") == "tilec" and d.get("row_B", 0) >= 512 and "10%" not in str(d.get("op")) \
                    and "90%" not in str(d.get("op")) and d.get("pct_of_copy") is not None:
                t.add("GPU gather / scatter-add, rows >= 512 B: >= 75% of copy", f"{d['op']} {d['row_B']} B",
                      f"{d['pct_of_copy']:.0f}%", ">= 75%", _verdict(d["pct_of_copy"] >= 75))
    else:
        t.add("GPU gather / scatter-add, rows >= 512 B: >= 75% of copy", "cuda:0", None, ">= 75%",
              "n/a (no GPU in this run)")
    gm = by.get("gpu_matmul")
    target = f"GPU tile_matmul float16 (tiled GEMM, 1024^3-8192^3): >= {gemm_kernels.TARGET_PCT}% of cuBLAS"
    items = []
    if gm:
        for d in (dict(zip(gm.columns, r)) for r in gm.rows):
            if d["dtype"] == "float16" and d["impl"] == "tilec" and d["pct_of_cublas"] is not None \
                    and "WRONG RESULT" not in d["note"]:  # a wrong product meets no target
                items.append((d["pct_of_cublas"], f"{d['size']}^3"))
    if items:
        value, case = min(items)
        failing = sum(1 for v, _ in items if v < gemm_kernels.TARGET_PCT)
        t.add(target, f"{len(items)} sizes; worst: {case}", f"{value:.0f}%" + (f" ({failing} below)" if failing else ""),
              f">= {gemm_kernels.TARGET_PCT}%", _verdict(failing == 0))
    else:
        t.add(target, "cuda:0", None, f">= {gemm_kernels.TARGET_PCT}%",
              "n/a (tilec or cuBLAS float16 rows n/a: see gpu_matmul)" if gm and gm.rows else "n/a (no GPU in this run)")
    t.note("verdicts use the medians of the compile and per-lane tables and the best repetitions of the throughput table")
    return t
