"""Inline SVG charts for the HTML report: no scripts, no network, every label escaped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from markupsafe import Markup, escape

WIDTH, HEIGHT, PAD = 560, 220, 36


def _colour(rate: float) -> str:
    """Red (0) through amber to green (1)."""
    rate = min(max(rate, 0.0), 1.0)
    red = int(220 - 170 * rate)
    green = int(70 + 130 * rate)
    return f"rgb({red},{green},80)"


def profile_chart(
    title: str,
    points: Sequence[tuple[str, float | None, float, float]],
    baseline: float | None = None,
    threshold: float | None = None,
) -> Markup:
    """Bars per rung (label, rate, ci low, ci high) with 95% whiskers, baseline and clear line;
    a rung where nothing was scored (rate None) has its label and a dash, never a bar at 0%."""
    inner_w, inner_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD
    step = inner_w / max(len(points), 1)
    parts = [
        f'<svg class="chart profile" role="img" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}"><title>{escape(title)}</title>',
        f'<line x1="{PAD}" y1="{PAD + inner_h}" x2="{PAD + inner_w}" y2="{PAD + inner_h}" '
        'stroke="#888"/>',
    ]
    for tick in (0, 0.5, 1.0):
        y = PAD + inner_h * (1 - tick)
        parts.append(
            f'<text x="{PAD - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="10">'
            f"{int(tick * 100)}%</text>"
        )
    for i, (label, rate, lo, hi) in enumerate(points):
        x = PAD + i * step + step * 0.2
        w = step * 0.6
        cx = x + w / 2
        parts.append(
            f'<text x="{cx:.1f}" y="{PAD + inner_h + 14}" text-anchor="middle" font-size="11">'
            f"{escape(label)}</text>"
        )
        if rate is None:
            parts.append(
                f'<text class="unscored" x="{cx:.1f}" y="{PAD + inner_h - 4}" '
                f'text-anchor="middle" font-size="11"><title>{escape(label)}: nothing scored'
                "</title>-</text>"
            )
            continue
        top = PAD + inner_h * (1 - rate)
        parts.append(
            f'<rect class="bar" x="{x:.1f}" y="{top:.1f}" width="{w:.1f}" '
            f'height="{PAD + inner_h - top:.1f}" fill="{_colour(rate)}">'
            f"<title>{escape(label)}: {100 * rate:.1f}% (95% CI {100 * lo:.1f}–{100 * hi:.1f}%)"
            "</title></rect>"
        )
        y_lo, y_hi = PAD + inner_h * (1 - lo), PAD + inner_h * (1 - hi)
        parts.append(
            f'<line class="whisker" x1="{cx:.1f}" y1="{y_lo:.1f}" x2="{cx:.1f}" y2="{y_hi:.1f}" '
            'stroke="#222"/>'
        )
    for value, name, dash in (
        (baseline, "guessing baseline", "4 3"),
        (threshold, "cleared", "2 2"),
    ):
        if value is not None:
            y = PAD + inner_h * (1 - value)
            parts.append(
                f'<line x1="{PAD}" y1="{y:.1f}" x2="{PAD + inner_w}" y2="{y:.1f}" stroke="#36c" '
                f'stroke-dasharray="{dash}"/><text x="{PAD + inner_w}" y="{y - 3:.1f}" '
                f'text-anchor="end" font-size="10" fill="#36c">{name} {100 * value:.0f}%</text>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))


def heatmap(
    title: str,
    rows: list[str],
    columns: list[str],
    value: Mapping[tuple[str, str], str | None],
    shade: Mapping[tuple[str, str], float],
) -> Markup:
    """A grid of labelled, shaded cells (rows x columns); missing cells stay blank."""
    cell, left, top = 46, 130, 24
    width, height = left + cell * len(columns) + 8, top + cell * len(rows) + 8
    parts = [
        f'<svg class="chart heatmap" role="img" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}"><title>{escape(title)}</title>'
    ]
    for j, column in enumerate(columns):
        parts.append(
            f'<text x="{left + j * cell + cell / 2}" y="{top - 8}" text-anchor="middle" '
            f'font-size="11">{escape(column)}</text>'
        )
    for i, row in enumerate(rows):
        y = top + i * cell
        parts.append(
            f'<text x="{left - 6}" y="{y + cell / 2 + 4}" text-anchor="end" font-size="11">'
            f"{escape(row)}</text>"
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
    parts.append("</svg>")
    return Markup("".join(parts))


def difficulty_chart(
    title: str,
    points: list[tuple[int, float, float, float, int]],
    cleared: int | None = None,
    d50: tuple[float, float, float] | None = None,
) -> Markup:
    """Pass rate against difficulty (d, rate, ci low, ci high, n) with 95% whiskers, the 50%
    crossing as a line in its shaded 95% interval, and the highest cleared difficulty marked."""
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
        f'<line x1="{pad}" y1="{y(0.9):.1f}" x2="{pad + inner_w}" y2="{y(0.9):.1f}" '
        'stroke="#36c" stroke-dasharray="2 2"/>',
    ]
    for tick in (0, 0.5, 1.0):
        parts.append(
            f'<text x="{pad - 4}" y="{y(tick) + 3:.1f}" text-anchor="end" font-size="9">'
            f"{int(tick * 100)}%</text>"
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
        parts.append(
            f'<line class="whisker" x1="{x(d):.1f}" y1="{y(lo):.1f}" x2="{x(d):.1f}" '
            f'y2="{y(hi):.1f}" stroke="#222"/>'
            f'<circle class="point" cx="{x(d):.1f}" cy="{y(rate):.1f}" r="3" '
            f'fill="{_colour(rate)}" stroke="#222"><title>d = {d}: {100 * rate:.0f}% of {n} '
            f"(95% CI {100 * lo:.0f}–{100 * hi:.0f}%)</title></circle>"
        )
    for d in sorted({0, top_d, *(d for d, *_ in points)}):
        parts.append(
            f'<text x="{x(d):.1f}" y="{y(0) + 12:.1f}" text-anchor="middle" font-size="9">'
            f"{d}</text>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))
