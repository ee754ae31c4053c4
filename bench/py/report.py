"""Tables for the benchmark run: aligned text on stdout, one CSV and one PNG per table.

A Table is a title, column names and rows of plain values; cells that are None print as
"n/a". Plots are optional: without matplotlib the PNG is skipped with a note.
"""
import csv
import math
import os


def fmt(v):
    if v is None:
        return "n/a"
    if isinstance(v, float):
        if math.isnan(v):
            return "n/a"
        a = abs(v)
        if a == 0:
            return "0"
        if a >= 1000:
            return f"{v:.0f}"
        if a >= 100:
            return f"{v:.1f}"
        if a >= 1:
            return f"{v:.2f}"
        return f"{v:.3g}"
    return str(v)


class Table:
    def __init__(self, name, title, columns):
        self.name = name
        self.title = title
        self.columns = columns
        self.rows = []
        self.notes = []

    def add(self, *cells):
        assert len(cells) == len(self.columns), (self.name, cells)
        self.rows.append(list(cells))

    def note(self, text):
        if text not in self.notes:
            self.notes.append(text)

    def text(self):
        cells = [[fmt(c) for c in r] for r in self.rows]
        widths = [len(c) for c in self.columns]
        for r in cells:
            widths = [max(w, len(c)) for w, c in zip(widths, r)]
        def line(vals):
            return "  ".join(v.rjust(w) if i else v.ljust(w)
                             for i, (v, w) in enumerate(zip(vals, widths))).rstrip()
        out = [self.title, "=" * len(self.title), line(self.columns),
               line(["-" * w for w in widths])]
        out += [line(r) for r in cells]
        out += ["  * " + n for n in self.notes]
        return "\n".join(out) + "\n"

    def write_csv(self, out_dir):
        path = os.path.join(out_dir, self.name + ".csv")
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(self.columns)
            for r in self.rows:
                w.writerow(["n/a" if c is None else c for c in r])
        return path


def load_pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except Exception:  # plots are optional: the tables and CSV stand alone
        return None


def bar_plot(path, title, groups, series, values, ylabel, log=False, hline=None):
    """Grouped bars: values[s][g] for series s in group g (None: no bar)."""
    plt = load_pyplot()
    if plt is None:
        return False
    n = max(1, len(series))
    fig, ax = plt.subplots(figsize=(max(10, 0.9 * len(groups) * (n + 1) / 3 + 7), 5))
    width = 0.8 / n
    for i, s in enumerate(series):
        xs, ys = [], []
        for g in range(len(groups)):
            v = values[i][g]
            if v is not None and not (isinstance(v, float) and math.isnan(v)) and v > 0:
                xs.append(g + (i - (n - 1) / 2) * width)
                ys.append(v)
        if xs:  # an all-n/a series gets no legend entry; colours stay tied to the series
            ax.bar(xs, ys, width, label=s, color=f"C{i % 10}")
    if hline is not None:
        ax.axhline(hline, color="black", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if log:
        ax.set_yscale("log")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True
