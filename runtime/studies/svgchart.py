"""Small hand-written SVG charts for balance reports: bars with error bars, and lines.

No plotting library: a chart is a few dozen elements written as text. Every chart is
self-contained (inline styles, a system sans-serif font, a white background), has a title and
a ``<title>``/``<desc>`` for screen readers, scales to the page width (``viewBox``), and tells
its series apart by shade *and* pattern, so it reads in a browser and in black-and-white print.
All text passes through :func:`escape` (variant names are author text).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["MARKER", "Bar", "Line", "bar_chart", "line_chart"]


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` written as entities (as ``xml.sax.saxutils``'s
    ``escape`` does; that module imports ``urllib.request`` and ``http.client``, a fifth of
    the start of every ``fivehundred balance``, which needs no network)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


#: The comment every chart starts with; the report writer recognises its own files by it.
MARKER = "<!-- written by fivehundred balance -->"

#: Series styles: fill, stroke, dash pattern, whether hatched (for print).
_FILLS = ("#3b5b92", "#e0a040", "#6a9f58", "#b04a5a")
_HATCH = (False, True, False, True)
_DASH = ("", "6 4", "2 3", "8 3 2 3")
_FONT = "font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif"


@dataclass(frozen=True)
class Bar:
    """One bar: a value and, optionally, its interval (both in the chart's units)."""

    value: float | None
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True)
class Line:
    """One line series: a name and (x, y) points."""

    name: str
    points: Sequence[tuple[float, float]]
    dashed: int = 0  # index into the dash styles


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") if x == x else "0"


def _nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values covering [lo, hi]."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    ticks = []
    v = start
    while v <= hi + step * 1e-9:
        ticks.append(round(v, 10))
        v += step
    if ticks[-1] < hi:
        ticks.append(round(v, 10))
    return ticks


def _head(width: int, height: int, title: str, desc: str, hatch: bool) -> list[str]:
    out = [
        MARKER,
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" style="{_FONT};font-size:12px">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(desc)}</desc>",
    ]
    if hatch:
        out.append(
            '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
            'patternTransform="rotate(45)"><rect width="6" height="6" fill="'
            + _FILLS[1]
            + '"/><line x1="0" y1="0" x2="0" y2="6" stroke="#000" stroke-width="1.2" '
            'stroke-opacity="0.45"/></pattern></defs>'
        )
    out.append(f'<rect width="{width}" height="{height}" fill="#fff"/>')
    out.append(
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15" '
        f'font-weight="600">{escape(title)}</text>'
    )
    return out


def _legend(
    names: Sequence[str], x: float, y: float, dashes: Sequence[int] | None = None
) -> list[str]:
    out = []
    for i, name in enumerate(names):
        yy = y + 16 * i
        if dashes is not None:
            style = _DASH[dashes[i] % 4]
            dash = f' stroke-dasharray="{style}"' if style else ""
            out.append(
                f'<line x1="{x}" y1="{yy - 4}" x2="{x + 22}" y2="{yy - 4}" '
                f'stroke="{_FILLS[i % 4]}" stroke-width="2.5"{dash}/>'
            )
        else:
            out.append(
                f'<rect x="{x}" y="{yy - 10}" width="14" height="10" fill="{_fill(i)}" '
                'stroke="#333" stroke-width="0.6"/>'
            )
        out.append(f'<text x="{x + 28}" y="{yy}">{escape(name)}</text>')
    return out


def _fill(i: int) -> str:
    return "url(#hatch)" if _HATCH[i % 4] else _FILLS[i % 4]


def bar_chart(
    title: str,
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[Bar]]],
    *,
    percent: bool = True,
    desc: str = "",
    y_label: str = "",
) -> str:
    """Vertical grouped bars, one group per category and one bar per series, with error bars.

    ``percent`` shows values (fractions 0..1) as percentages on an axis from 0.
    """
    n_cat, n_ser = len(categories), max(1, len(series))
    group = max(22.0, 10.0 + 16.0 * n_ser)
    longest = max((len(c) for c in categories), default=1)
    # rotated labels need about 5 px of height per character, then a line for the note
    left, right, top, bottom = 62, 20, 56 + 16 * max(0, n_ser - 1), 36 + int(5.2 * longest)
    width = int(left + right + max(360, group * n_cat))
    height = 270 + top - 56 + bottom
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [
        v for _, bars in series for b in bars for v in (b.value, b.high) if v is not None and v == v
    ]
    hi = max(values, default=1.0)
    lo = min([0.0, *values])
    ticks = _nice_ticks(lo, hi if hi > lo else lo + 1)
    y0, y1 = ticks[0], ticks[-1]

    def y(v: float) -> float:
        return top + plot_h * (1 - (v - y0) / (y1 - y0))

    out = _head(width, height, title, desc or title, any(_HATCH[i] for i in range(len(series))))
    for t in ticks:
        label = f"{t * 100:g}%" if percent else f"{t:g}"
        out.append(
            f'<line x1="{left}" y1="{y(t):.1f}" x2="{width - right}" y2="{y(t):.1f}" '
            f'stroke="#ccc" stroke-width="{1.2 if t == 0 else 0.6}"/>'
        )
        out.append(f'<text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end">{label}</text>')
    if y_label:
        out.append(
            f'<text transform="translate(16 {top + plot_h / 2:.1f}) rotate(-90)" '
            f'text-anchor="middle">{escape(y_label)}</text>'
        )
    step = plot_w / max(1, n_cat)
    bar_w = min(26.0, (step - 8) / n_ser)
    for c, cat in enumerate(categories):
        cx = left + step * (c + 0.5)
        for s, (_, bars) in enumerate(series):
            bar = bars[c] if c < len(bars) else Bar(None)
            x = cx - bar_w * n_ser / 2 + bar_w * s
            if bar.value is None:
                out.append(
                    f'<text x="{x + bar_w / 2:.1f}" y="{y(0) - 4:.1f}" '
                    'text-anchor="middle" fill="#888" font-size="10">\u2013</text>'
                )
                continue
            top_v, base = max(bar.value, 0.0), min(bar.value, 0.0)
            out.append(
                f'<rect x="{x:.1f}" y="{y(top_v):.1f}" width="{bar_w - 2:.1f}" '
                f'height="{max(0.5, y(base) - y(top_v)):.1f}" fill="{_fill(s)}" '
                f'stroke="#333" stroke-width="0.6"><title>{escape(cat)}: '
                f"{_fmt(bar.value, percent)}</title></rect>"
            )
            if bar.low is not None and bar.high is not None:
                mx = x + (bar_w - 2) / 2
                out.append(
                    f'<path d="M{mx:.1f} {y(bar.low):.1f}V{y(bar.high):.1f}'
                    f'M{mx - 3:.1f} {y(bar.low):.1f}h6M{mx - 3:.1f} {y(bar.high):.1f}h6" '
                    'stroke="#000" stroke-width="1" fill="none"/>'
                )
        anchor = f'transform="translate({cx:.1f} {height - bottom + 14}) rotate(-40)"'
        out.append(f'<text {anchor} text-anchor="end">{escape(cat)}</text>')
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#333"/>')
    out.extend(_legend([name for name, _ in series], left + 8, 44))
    out.append(
        f'<text x="{width - right}" y="{height - 6}" text-anchor="end" fill="#555" '
        'font-size="10">error bars: 95% confidence intervals</text>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _fmt(v: float, percent: bool) -> str:
    return f"{v * 100:.1f}%" if percent else f"{v:.1f}"


def line_chart(
    title: str,
    lines: Sequence[Line],
    *,
    x_label: str,
    y_label: str,
    desc: str = "",
    guide: tuple[float, str] | None = None,
) -> str:
    """Lines over a shared x axis; ``guide`` draws a labelled horizontal rule (a target)."""
    left, right, top, bottom = 62, 20, 56 + 16 * max(0, len(lines) - 1), 48
    width, height = 640, 380 + top - 56
    plot_w, plot_h = width - left - right, height - top - bottom
    xs = [p[0] for ln in lines for p in ln.points] or [1.0]
    ys = [p[1] for ln in lines for p in ln.points] or [0.0]
    if guide is not None:
        ys.append(guide[0])
    xt = _nice_ticks(min(xs), max(xs), 6)
    yt = _nice_ticks(min([0.0, *ys]), max(ys), 6)

    def px(v: float) -> float:
        return left + plot_w * (v - xt[0]) / ((xt[-1] - xt[0]) or 1)

    def py(v: float) -> float:
        return top + plot_h * (1 - (v - yt[0]) / ((yt[-1] - yt[0]) or 1))

    out = _head(width, height, title, desc or title, False)
    for t in yt:
        out.append(
            f'<line x1="{left}" y1="{py(t):.1f}" x2="{width - right}" y2="{py(t):.1f}" '
            f'stroke="#ccc" stroke-width="{1.2 if t == 0 else 0.6}"/>'
        )
        out.append(f'<text x="{left - 6}" y="{py(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    for t in xt:
        out.append(
            f'<text x="{px(t):.1f}" y="{top + plot_h + 16}" text-anchor="middle">{t:g}</text>'
        )
    out.append(
        f'<text x="{left + plot_w / 2}" y="{height - 10}" text-anchor="middle">'
        f"{escape(x_label)}</text>"
    )
    out.append(
        f'<text transform="translate(16 {top + plot_h / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle">{escape(y_label)}</text>'
    )
    if guide is not None:
        gy = py(guide[0])
        out.append(
            f'<line x1="{left}" y1="{gy:.1f}" x2="{width - right}" y2="{gy:.1f}" '
            'stroke="#b00" stroke-width="1" stroke-dasharray="3 3"/>'
        )
        out.append(
            f'<text x="{width - right - 4}" y="{gy - 4:.1f}" text-anchor="end" fill="#b00">'
            f"{escape(guide[1])}</text>"
        )
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#333"/>')
    for i, ln in enumerate(lines):
        if not ln.points:
            continue
        d = " ".join(
            f"{'M' if j == 0 else 'L'}{px(x):.1f} {py(y):.1f}" for j, (x, y) in enumerate(ln.points)
        )
        dash = _DASH[ln.dashed % 4]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<path d="{d}" fill="none" stroke="{_FILLS[i % 4]}" stroke-width="2.2"{dash_attr}>'
            f"<title>{escape(ln.name)}</title></path>"
        )
    out.extend(_legend([ln.name for ln in lines], left + 8, 44, [ln.dashed for ln in lines]))
    out.append("</svg>")
    return "\n".join(out) + "\n"
