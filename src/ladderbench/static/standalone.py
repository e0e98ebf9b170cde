"""``ladderbench export standalone``: a one-file, zero-dependency copy of the static ladder.

The script is assembled from the package's own sources (the endpoint defaults, the statistics,
the summary code, the extraction module, the run id and the prompt template are inlined
verbatim), so the standalone runner and the harness cannot drift apart.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from types import ModuleType

from ladderbench.analysis import stats, summary
from ladderbench.errors import UserError
from ladderbench.files import atomic_write
from ladderbench.grading import extract
from ladderbench.models import endpoints
from ladderbench.runner import run
from ladderbench.static import standalone_main, suite
from ladderbench.static.loader import default_data_dir, level_files, load_questions

BEGIN = "# --- package imports: replaced by the inlined sources on export ---"
END = "# --- end of package imports ---"
FUTURE = "from __future__ import annotations\n"
PACKAGE_IMPORT = re.compile(r"^from ladderbench\.\S+ import [^(\n]+\n", re.MULTILINE)
INLINED = (endpoints, stats, summary, extract)  # stdlib-only modules, in dependency order


def _module(module: ModuleType) -> str:
    """A module's source for inlining: without its ``__future__`` line and package imports."""
    name = module.__name__
    source = PACKAGE_IMPORT.sub("", inspect.getsource(module).replace(FUTURE, ""))
    return f"# ---- inlined from {name} ----\n{source}\n"


def build_script() -> str:
    """The text of ``run_ladderbench.py``."""
    main = inspect.getsource(standalone_main)
    head, rest = main.split(BEGIN)
    _, tail = rest.split(END)
    prompt = (
        f"BASELINE = {suite.BASELINE!r}\n\n"
        f"PROMPT_TEMPLATE = {suite.PROMPT_TEMPLATE!r}\n\n\n"
        + inspect.getsource(suite.render_prompt)
    )
    inlined = (
        "".join(_module(m) for m in INLINED)
        + "# ---- inlined from ladderbench.runner.run ----\n"
        + inspect.getsource(run.new_run_id)
        + "\n\n# ---- inlined from ladderbench.static.suite ----\n"
        + prompt
    )
    docstring_end = head.index('"""', 3) + 3
    return (
        head[:docstring_end]
        + "\n\nfrom __future__ import annotations\n"
        + head[docstring_end:]
        + inlined
        + tail
    )


def export_standalone(directory: Path, data_dir: Path | None = None) -> list[Path]:
    """Write the script and the (validated) level files into ``directory``."""
    source = data_dir or default_data_dir()
    load_questions(source)  # refuse to export a broken ladder
    script = directory / "run_ladderbench.py"
    atomic_write(script, build_script().encode("utf-8"))
    written = [script]
    for path in level_files(source).values():
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UserError(f"cannot read {path}: {exc.strerror or exc}") from None
        atomic_write(directory / path.name, data)
        written.append(directory / path.name)
    return written
