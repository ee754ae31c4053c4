"""The benchmark's kernel sources: the two seed kernels cut from the specification pages,
the larger kernels in bench/kernels/*.tile, and the throughput module generated per row width.
Every Tile file is also valid Python for NVIDIA Warp, which runs the very same text."""
import os
import re

# Row widths in bytes and the rows per block program (TILE_M * TILE_W = 2048 floats); the
# CUDA references in bench/reference/throughput.cu are instantiated for the same pairs.
WIDTHS = [16, 64, 256, 1024, 4096]
TILE_FLOATS = 2048
SECTION_ONLY = {"reduce.tile", "lanes.tile", "gemm.tile"}  # bench/kernels files that only their own section uses


def tile_m(width_bytes):
    return TILE_FLOATS // (width_bytes // 4)


def spec_dir(root):
    for d in (os.path.join(root, "..", "shared", "spec"), os.path.join(root, "tests", "spec_pages")):
        if os.path.isdir(d):
            return os.path.normpath(d)
    return None


def extract_definitions(rst_text):
    """The testcode block's module constants, decorators and function definitions, without
    the host statements that follow (compile handles definitions only)."""
    m = re.search(r"\.\. testcode::[ \t]*\n(.*?)(?:\n[ \t]*\.\. testoutput::|\Z)", rst_text, re.S)
    if not m:
        return None
    lines = m.group(1).split("\n")
    indent = min(len(l) - len(l.lstrip()) for l in lines if l.strip())
    lines = [l[indent:] for l in lines]
    keep, in_def = [], False
    for l in lines:
        top = l[:1] not in (" ", "\t", "")
        if top:
            if l.startswith("@") or l.startswith("def ") or l.startswith("class "):
                in_def = l.startswith("def ") or l.startswith("class ") or in_def
                keep.append(l)
                continue
            if re.match(r"^[A-Z_][A-Z0-9_]*(\s*,\s*[A-Z_][A-Z0-9_]*)*\s*=", l):
                in_def = False
                keep.append(l)
                continue
            in_def = False
            continue
        if in_def or not l.strip():
            keep.append(l)
    body = "\n".join(keep).strip() + "\n"
    return "import warp as wp\nimport numpy as np\n\n" + body


def prepare(root, work):
    """Writes the seed kernels and the throughput module under work/kernels; returns
    (compile_kernels, throughput_path) where compile_kernels lists (name, tile, cuda, note)."""
    kdir = os.path.join(work, "kernels")
    os.makedirs(kdir, exist_ok=True)
    ref = os.path.join(root, "bench", "reference")
    kernels = []
    sdir = spec_dir(root)
    for page, name in (("tile_load_indexed.rst", "gather_even_rows"),
                       ("tile_atomic_add_indexed.rst", "accumulate_even_rows")):
        src = None
        if sdir and os.path.exists(os.path.join(sdir, page)):
            with open(os.path.join(sdir, page)) as f:
                src = extract_definitions(f.read())
        if src is None:
            continue
        path = os.path.join(kdir, name + ".tile")
        with open(path, "w") as f:
            f.write(src)
        kernels.append((name, path, os.path.join(ref, name + ".cu"), "seed (spec page)"))
    bdir = os.path.join(root, "bench", "kernels")
    for fn in sorted(os.listdir(bdir)):
        # reduce.tile, lanes.tile and gemm.tile hold the kernels of their own tables, not one
        # kernel named as the file, which the compile table's per-kernel columns assume.
        if fn.endswith(".tile") and fn not in SECTION_ONLY:
            name = fn[:-5]
            kernels.append((name, os.path.join(bdir, fn), os.path.join(ref, name + ".cu"), "bench"))
    with open(os.path.join(bdir, "throughput.tile.in")) as f:
        header, per_width = f.read().split("# --- per width ---\n")
    parts = [header]
    for b in WIDTHS:
        parts.append(per_width.replace("@B@", str(b)).replace("@TILE_M@", str(tile_m(b)))
                     .replace("@TILE_W@", str(b // 4)))
    tpath = os.path.join(kdir, "throughput.tile")
    with open(tpath, "w") as f:
        f.write("".join(parts))
    return kernels, tpath
