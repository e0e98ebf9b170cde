"""Inline SVG charts for the HTML report: no scripts, no network, every label escaped."""

from __future__ import annotations

from collections.abc import Mapping

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
    points: list[tuple[str, float, float, float]],
    baseline: float | None = None,
    threshold: float | None = None,
) -> Markup:
    """Bars per rung (label, rate, ci low, ci high) with 95% whiskers, baseline and clear line."""
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
        top = PAD + inner_h * (1 - rate)
        parts.append(
            f'<rect class="bar" x="{x:.1f}" y="{top:.1f}" width="{w:.1f}" '
            f'height="{PAD + inner_h - top:.1f}" fill="{_colour(rate)}">'
            f"<title>{escape(label)}: {100 * rate:.1f}% (95% CI {100 * lo:.1f}–{100 * hi:.1f}%)"
            "</title></rect>"
        )
        cx = x + w / 2
        y_lo, y_hi = PAD + inner_h * (1 - lo), PAD + inner_h * (1 - hi)
        parts.append(
            f'<line class="whisker" x1="{cx:.1f}" y1="{y_lo:.1f}" x2="{cx:.1f}" y2="{y_hi:.1f}" '
            'stroke="#222"/>'
        )
        parts.append(
            f'<text x="{cx:.1f}" y="{PAD + inner_h + 14}" text-anchor="middle" font-size="11">'
            f"{escape(label)}</text>"
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
