"""Inline SVG charts for the HTML report: no scripts, no network, every label escaped.

Every rung a chart draws sits in a ``<g class="rung" data-rung=LABEL>``, in the order of the
number table printed under the chart; axis labels carry ``class="axis-label"``. Labels are laid
out with the chart's own geometry: a label estimated wider than its slot switches the chart to
horizontal bars (profiles), rotates it upright (heatmap columns) or drops the tick (difficulty
axes), so no two labels overlap at any number of rungs. Reference-line labels sit in a margin,
never on a bar.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

from ladderbench.analysis.summary import CLEARED

WIDTH, HEIGHT, PAD = 560, 220, 36
FONT = 11
# The average advance of a sans-serif glyph, in ems, rounded up: an estimate that errs wide, so a
# label that fits by it fits on screen.
GLYPH_EM = 0.62
LONGEST_LABEL = 200  # pixels; a longer label is cut with an ellipsis (its full text in a tooltip)


def text_width(text: str, size: float = FONT) -> float:
    """An upper estimate of ``text``'s width in pixels at font ``size``."""
    return len(text) * size * GLYPH_EM


def _fit(text: str, width: float, size: float = FONT) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if text_width(text, size) <= width:
        return text
    keep = max(int(width / (size * GLYPH_EM)) - 1, 1)
    return text[:keep] + "…"


def _colour(rate: float) -> str:
    """Red (0) through amber to green (1)."""
    rate = min(max(rate, 0.0), 1.0)
    red = int(220 - 170 * rate)
    green = int(70 + 130 * rate)
    return f"rgb({red},{green},80)"


def _tooltip(label: str, rate: float, lo: float, hi: float) -> str:
    return f"{escape(label)}: {100 * rate:.1f}% (95% CI {100 * lo:.1f}–{100 * hi:.1f}%)"


def _reference_lines(
    baseline: float | None, threshold: float | None
) -> list[tuple[float, str, str]]:
    """(value, label, dash) of the reference lines drawn: the guessing baseline, the clear line."""
    lines = [(baseline, "baseline", "4 3"), (threshold, "cleared", "2 2")]
    return [
        (value, f"{name} {100 * value:.0f}%", dash)
        for value, name, dash in lines
        if value is not None
    ]


def profile_chart(
    title: str,
    points: Sequence[tuple[str, float | None, float, float]],
    baseline: float | None = None,
    threshold: float | None = None,
) -> Markup:
    """Bars per rung (label, rate, ci low, ci high) with 95% whiskers, baseline and clear line;
    a rung where nothing was scored (rate None) has its label and a dash, never a bar at 0%.

    Columns while every label fits its column's width, horizontal bars (one row per rung, the
    labels in a left margin) once one does not."""
    lines = _reference_lines(baseline, threshold)
    right = max((text_width(name, 10) for _, name, _ in lines), default=0) + 12
    step = (WIDTH - PAD - right) / max(len(points), 1)
    if all(text_width(label) + 6 <= step for label, *_ in points):
        body = _columns(points, lines, right)
        height = HEIGHT
    else:
        body, height = _rows(points, lines)
    return Markup(
        f'<svg class="chart profile" role="img" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
        f'height="{height}"><title>{escape(title)}</title>{body}</svg>'
    )


def _columns(
    points: Sequence[tuple[str, float | None, float, float]],
    lines: list[tuple[float, str, str]],
    right: float,
) -> str:
    """Vertical bars; the reference lines' labels in the right margin."""
    top, bottom = 16, HEIGHT - 24
    inner_w, inner_h = WIDTH - PAD - right, bottom - top
    step = inner_w / max(len(points), 1)

    def y(rate: float) -> float:
        return top + inner_h * (1 - rate)

    parts = [f'<line x1="{PAD}" y1="{bottom}" x2="{PAD + inner_w}" y2="{bottom}" stroke="#888"/>']
    for tick in (0, 0.5, 1.0):
        parts.append(
            f'<text class="axis-label" x="{PAD - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" '
            f'font-size="10">{int(tick * 100)}%</text>'
        )
    for i, (label, rate, lo, hi) in enumerate(points):
        x = PAD + i * step + step * 0.2
        w = step * 0.6
        cx = x + w / 2
        parts.append(
            f'<g class="rung" data-rung="{escape(label)}"><text class="axis-label" x="{cx:.1f}" '
            f'y="{bottom + 14}" text-anchor="middle" font-size="{FONT}">{escape(label)}</text>'
        )
        if rate is None:
            parts.append(
                f'<text class="unscored" x="{cx:.1f}" y="{bottom - 4}" text-anchor="middle" '
                f'font-size="{FONT}"><title>{escape(label)}: nothing scored</title>-</text></g>'
            )
            continue
        parts.append(
            f'<rect class="bar" x="{x:.1f}" y="{y(rate):.1f}" width="{w:.1f}" '
            f'height="{bottom - y(rate):.1f}" fill="{_colour(rate)}">'
            f"<title>{_tooltip(label, rate, lo, hi)}</title></rect>"
            f'<line class="whisker" x1="{cx:.1f}" y1="{y(lo):.1f}" x2="{cx:.1f}" y2="{y(hi):.1f}" '
            'stroke="#222"/></g>'
        )
    last = -100.0
    for value, name, dash in sorted(lines, key=lambda line: -line[0]):
        at = max(y(value) + 3, last + 12)  # two labels close together are stacked
        last = at
        parts.append(
            f'<line class="reference" x1="{PAD}" y1="{y(value):.1f}" x2="{PAD + inner_w}" '
            f'y2="{y(value):.1f}" stroke="#36c" stroke-dasharray="{dash}"/>'
            f'<text class="line-label" x="{PAD + inner_w + 6}" y="{at:.1f}" font-size="10" '
            f'fill="#36c">{name}</text>'
        )
    return "".join(parts)


def _rows(
    points: Sequence[tuple[str, float | None, float, float]],
    lines: list[tuple[float, str, str]],
) -> tuple[str, int]:
    """Horizontal bars, one row per rung; the reference lines' labels above the plot."""
    row = 20
    left = min(max((text_width(label) for label, *_ in points), default=0), LONGEST_LABEL) + 12
    top = 22 if lines else 8
    inner_w, inner_h = WIDTH - left - 24, row * len(points)
    height = int(top + inner_h + 24)

    def x(rate: float) -> float:
        return left + inner_w * rate

    parts = [
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + inner_h}" stroke="#888"/>',
    ]
    for tick in (0, 0.5, 1.0):
        parts.append(
            f'<text class="axis-label" x="{x(tick):.1f}" y="{top + inner_h + 14}" '
            f'text-anchor="middle" font-size="10">{int(tick * 100)}%</text>'
        )
    for i, (label, rate, lo, hi) in enumerate(points):
        y0 = top + i * row
        mid = y0 + row / 2
        parts.append(
            f'<g class="rung" data-rung="{escape(label)}"><text class="axis-label" '
            f'x="{left - 6}" y="{mid + 4:.1f}" text-anchor="end" font-size="{FONT}">'
            f"<title>{escape(label)}</title>{escape(_fit(label, LONGEST_LABEL))}</text>"
        )
        if rate is None:
            parts.append(
                f'<text class="unscored" x="{left + 4}" y="{mid + 4:.1f}" font-size="{FONT}">'
                f"<title>{escape(label)}: nothing scored</title>-</text></g>"
            )
            continue
        parts.append(
            f'<rect class="bar" x="{left}" y="{y0 + row * 0.2:.1f}" width="{x(rate) - left:.1f}" '
            f'height="{row * 0.6:.1f}" fill="{_colour(rate)}">'
            f"<title>{_tooltip(label, rate, lo, hi)}</title></rect>"
            f'<line class="whisker" x1="{x(lo):.1f}" y1="{mid:.1f}" x2="{x(hi):.1f}" '
            f'y2="{mid:.1f}" stroke="#222"/></g>'
        )
    for value, name, dash in lines:
        anchor = "end" if value > 0.5 else "start"
        parts.append(
            f'<line class="reference" x1="{x(value):.1f}" y1="{top - 4}" x2="{x(value):.1f}" '
            f'y2="{top + inner_h}" stroke="#36c" stroke-dasharray="{dash}"/>'
            f'<text class="line-label" x="{x(value):.1f}" y="{top - 8}" text-anchor="{anchor}" '
            f'font-size="10" fill="#36c">{name}</text>'
        )
    return "".join(parts), height


def heatmap(
    title: str,
    rows: list[str],
    columns: list[str],
    value: Mapping[tuple[str, str], str | None],
    shade: Mapping[tuple[str, str], float],
) -> Markup:
    """A grid of labelled, shaded cells (rows x columns); missing cells stay blank. Column labels
    wider than a cell stand upright."""
    cell = 46
    left = min(max((text_width(r) for r in rows), default=0), LONGEST_LABEL) + 12
    upright = any(text_width(c) + 4 > cell for c in columns)
    top = min(max(text_width(c) for c in columns), LONGEST_LABEL) + 12 if upright else 24
    width, height = int(left + cell * len(columns) + 8), int(top + cell * len(rows) + 8)
    parts = [
        f'<svg class="chart heatmap" role="img" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}"><title>{escape(title)}</title>'
    ]
    for j, column in enumerate(columns):
        cx = left + j * cell + cell / 2
        shown = escape(_fit(column, LONGEST_LABEL))
        if upright:
            parts.append(
                f'<text class="axis-label" x="{cx + 4:.1f}" y="{top - 6}" font-size="{FONT}" '
                f'transform="rotate(-90 {cx + 4:.1f} {top - 6})"><title>{escape(column)}</title>'
                f"{shown}</text>"
            )
        else:
            parts.append(
                f'<text class="axis-label" x="{cx:.1f}" y="{top - 8}" text-anchor="middle" '
                f'font-size="{FONT}">{shown}</text>'
            )
    for i, row in enumerate(rows):
        y = top + i * cell
        parts.append(
            f'<g class="rung" data-rung="{escape(row)}"><text class="axis-label" x="{left - 6}" '
            f'y="{y + cell / 2 + 4}" text-anchor="end" font-size="{FONT}"><title>{escape(row)}'
            f"</title>{escape(_fit(row, LONGEST_LABEL))}</text>"
        )
        for j, column in enumerate(columns):
            text = value.get((row, column))
            if text is None:
                continue
            x = left + j * cell
            parts.append(
                f'<rect class="cell" x="{x + 1}" y="{y + 1}" width="{cell - 2}" '
                f'height="{cell - 2}" '
                f'fill="{_colour(shade[(row, column)])}"><title>{escape(row)} · {escape(column)}: '
                f"{escape(text)}</title></rect>"
                f'<text x="{x + cell / 2}" y="{y + cell / 2 + 4}" text-anchor="middle" '
                f'font-size="10">{escape(text)}</text>'
            )
        parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))


def _spaced(ticks: list[int], at: dict[int, float], gap: float) -> list[int]:
    """The ticks at least ``gap`` pixels apart, left to right; the last one is always kept."""
    kept: list[int] = []
    for tick in ticks:
        if not kept or at[tick] - at[kept[-1]] >= gap:
            kept.append(tick)
    if ticks and kept[-1] != ticks[-1]:
        if at[ticks[-1]] - at[kept[-1]] < gap and len(kept) > 1:
            kept.pop()
        kept.append(ticks[-1])
    return kept


def difficulty_chart(
    title: str,
    points: list[tuple[int, float | None, float, float, int]],
    cleared: int | None = None,
    d50: tuple[float, float, float] | None = None,
) -> Markup:
    """Pass rate against difficulty (d, rate, ci low, ci high, n) with 95% whiskers, the 50%
    crossing as a line in its shaded 95% interval, and the highest cleared difficulty marked; a
    difficulty where nothing was scored (rate None) shows a dash. Tick labels that would touch
    are thinned (the number table lists every difficulty)."""
    width, height, pad = 300, 170, 30
    inner_w, inner_h = width - 2 * pad, height - 2 * pad
    top_d = max([d for d, *_ in points] + [int(d50[2]) + 1 if d50 else 0, 1])

    def x(d: float) -> float:
        return pad + inner_w * min(max(d, -0.5), top_d + 0.5) / (top_d + 0.5)

    def y(rate: float) -> float:
        return pad + inner_h * (1 - rate)

    parts = [
        f'<svg class="chart difficulty" role="img" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}"><title>{escape(title)}</title>',
        f'<text x="{pad}" y="14" font-size="11">{escape(title)}</text>',
        f'<line x1="{pad}" y1="{y(0):.1f}" x2="{pad + inner_w}" y2="{y(0):.1f}" stroke="#888"/>',
        f'<line x1="{pad}" y1="{y(CLEARED):.1f}" x2="{pad + inner_w}" y2="{y(CLEARED):.1f}" '
        'stroke="#36c" stroke-dasharray="2 2"/>',
    ]
    for tick in (0, 0.5, 1.0):
        parts.append(
            f'<text class="axis-label" x="{pad - 4}" y="{y(tick) + 3:.1f}" text-anchor="end" '
            f'font-size="9">{int(tick * 100)}%</text>'
        )
    if d50 is not None:
        mid, lo, hi = d50
        parts.append(
            f'<rect class="d50-interval" x="{x(lo):.1f}" y="{pad}" '
            f'width="{max(x(hi) - x(lo), 1):.1f}" height="{inner_h}" fill="#36c" opacity="0.12">'
            f"<title>50% crossing: d = {mid:.1f} (95% interval {lo:.1f}–{hi:.1f})</title></rect>"
            f'<line class="d50" x1="{x(mid):.1f}" y1="{pad}" x2="{x(mid):.1f}" '
            f'y2="{y(0):.1f}" stroke="#36c"/>'
        )
    if cleared is not None and cleared >= 0:
        parts.append(
            f'<text class="cleared" x="{x(cleared):.1f}" y="{y(1) - 4:.1f}" text-anchor="middle" '
            f'font-size="10" fill="#1a7f37">▼<title>highest cleared: d = {cleared}</title></text>'
        )
    for d, rate, lo, hi, n in points:
        parts.append(f'<g class="rung" data-rung="{d}">')
        if rate is None:
            parts.append(
                f'<text class="unscored" x="{x(d):.1f}" y="{y(0) - 3:.1f}" text-anchor="middle" '
                f'font-size="10"><title>d = {d}: nothing scored</title>-</text></g>'
            )
            continue
        parts.append(
            f'<line class="whisker" x1="{x(d):.1f}" y1="{y(lo):.1f}" x2="{x(d):.1f}" '
            f'y2="{y(hi):.1f}" stroke="#222"/>'
            f'<circle class="point" cx="{x(d):.1f}" cy="{y(rate):.1f}" r="3" '
            f'fill="{_colour(rate)}" stroke="#222"><title>d = {d}: {100 * rate:.0f}% of {n} '
            f"(95% CI {100 * lo:.0f}–{100 * hi:.0f}%)</title></circle></g>"
        )
    ticks = sorted({0, top_d, *(d for d, *_ in points)})
    at = {d: x(d) for d in ticks}
    for d in _spaced(ticks, at, text_width(str(top_d), 9) + 4):
        parts.append(
            f'<text class="axis-label" x="{at[d]:.1f}" y="{y(0) + 12:.1f}" text-anchor="middle" '
            f'font-size="9">{d}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
