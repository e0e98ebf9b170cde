"""The coding problem templates, one module per category; a new problem is one ``Template``
in its category's module (see ``base``)."""

from __future__ import annotations

from ladderbench.live.tasks._code_templates import (
    algorithms,
    arrays,
    intervals,
    maps,
    simulation,
    strings,
)
from ladderbench.live.tasks._code_templates.base import Args, Cases, Category, Template

__all__ = [
    "CATEGORIES",
    "TEMPLATES",
    "TEMPLATE_BY_KEY",
    "Args",
    "Cases",
    "Category",
    "Template",
    "algorithms",
]

CATEGORIES: tuple[Category, ...] = ("strings", "arrays", "maps", "intervals", "simulation")
# The v1 templates (difficulty 0), in the order questions draw them; ``algorithms`` builds those of
# difficulty 1 and up.
TEMPLATES: tuple[Template, ...] = (
    *strings.TEMPLATES,
    *arrays.TEMPLATES,
    *maps.TEMPLATES,
    *intervals.TEMPLATES,
    *simulation.TEMPLATES,
)
TEMPLATE_BY_KEY: dict[str, Template] = {t.key: t for t in TEMPLATES}
