"""Mutation score of the core modules against the fast tests (a bench, not a gate).

Each target is one or more modules and the in-process tests that exercise them. mutmut runs in a
scratch copy of the working tree (tracked and untracked files, so uncommitted tests count), with a
``setup.cfg`` written there for that target only: the project's own configuration is untouched.
Tests that start ``python -m ladderbench`` in a child process would load the unmutated package,
so the fast test lists below are in-process tests only.

    python bench/mutation.py                    # every target
    python bench/mutation.py analysis grading   # some
    python bench/mutation.py --list             # the targets and their tests

Prints, per target, killed / survived / other counts and the surviving mutants' names; the
survivors' diffs are in ``--keep``'s copy (``mutmut show NAME`` there).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent


class Target(NamedTuple):
    """Modules to mutate, the in-process tests that exercise them, and tests of theirs left out."""

    modules: list[str]
    tests: list[str]
    deselect: tuple[str, ...] = ()


# A test that runs ``python -m ladderbench`` in a child process loads the unmutated package: it
# cannot kill a mutant and only costs time, so such tests are deselected (``deselect``).
TARGETS: dict[str, Target] = {
    "analysis": Target(
        [
            "src/ladderbench/analysis/stats.py",
            "src/ladderbench/analysis/summary.py",
            "src/ladderbench/analysis/calibrate.py",
        ],
        [
            "tests/analysis/test_stats.py",
            "tests/analysis/test_summary.py",
            "tests/analysis/test_compare_calibrate.py",
            "tests/analysis/test_properties.py",
            "tests/analysis/test_summary_exact.py",
            "tests/test_planted_bugs.py",
        ],
    ),
    "grading": Target(
        ["src/ladderbench/grading/*"],
        [
            "tests/grading/test_extract.py",
            "tests/grading/test_choice_reading.py",
            "tests/grading/test_answer_reading.py",
            "tests/grading/test_code_reading.py",
            "tests/grading/test_scorer.py",
            "tests/probe/test_shipped_ladders.py",
            "tests/runner/test_grader_crash.py",
            "tests/live/test_code_generation.py::test_extract_code",
            "tests/live/test_code_generation.py::test_alternative_formats_score_one",
            "tests/live/test_code_generation.py::test_score_never_raises_on_code_like_text",
        ],
    ),
    "runner": Target(
        ["src/ladderbench/runner/results.py", "src/ladderbench/runner/cache.py"],
        [
            "tests/runner/test_results.py",
            "tests/runner/test_cache.py",
            "tests/fuzz/test_fuzz_results.py",
            "tests/test_planted_bugs.py",
        ],
    ),
    "puzzles": Target(
        ["src/ladderbench/puzzles/base.py", "src/ladderbench/puzzles/suite.py"],
        [
            "tests/puzzles/test_suite_in_process.py",
            "tests/puzzles/test_suite.py",
            "tests/puzzles/test_suite_v2.py",
        ],
        tuple(
            f"tests/puzzles/test_suite.py::{name}"
            for name in (
                "test_oracle_clears_every_tier_and_echo_none",
                "test_selection_by_tier_family_and_seed",
                "test_bad_selection_is_one_line_exit_2",
                "test_export_then_verify_byte_for_byte",
                "test_secret_seeds_never_appear_in_output",
            )
        )
        + tuple(
            f"tests/puzzles/test_suite_v2.py::{name}"
            for name in (
                "test_oracle_clears_every_v2_tier_and_echo_none",
                "test_a_difficulty_grid_gives_pass_rates_per_difficulty_and_breaking_points",
                "test_adaptive_oracle_climbs_to_the_top_and_echo_stops_at_once",
                "test_compare_ranks_two_adaptive_runs_by_breaking_points",
                "test_report_shows_breaking_points_and_curves",
                "test_bad_v2_options_are_one_line_exit_2",
                "test_v2_prompts_export_and_grid_export_verify",
            )
        ),
    ),
    "live": Target(
        ["src/ladderbench/live/release.py"],
        [
            "tests/live/test_release.py",
            "tests/live/test_store_safety.py",
            "tests/fuzz/test_fuzz_stores.py",
        ],
        (
            "tests/live/test_release.py::test_oracle_and_echo_through_the_cli",
            "tests/live/test_release.py::test_bad_input_is_one_line_exit_2",
        ),
    ),
    "models": Target(
        ["src/ladderbench/models/openai.py"],
        ["tests/models/test_openai_adapter.py", "tests/test_planted_bugs.py"],
    ),
    "probe": Target(
        ["src/ladderbench/probe/audit.py"],
        ["tests/probe/test_audit.py", "tests/probe/test_probe.py"],
        (
            "tests/probe/test_probe.py::test_cli_exit_codes",
            "tests/probe/test_probe.py::test_judge_through_the_runner_with_a_fake_judge",
        ),
    ),
}


def _copy_tree(dest: Path) -> None:
    """The working tree as git sees it (tracked and untracked, not ignored) into ``dest``."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        src = ROOT / name.decode()
        if src.is_file():
            (dest / name.decode()).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name.decode())


# Tests that read the module's own source: mutmut's copy imports mutmut, which they refuse.
SOURCE_CHECKS = [
    "tests/grading/test_extract.py::test_source_is_python_38_and_standard_library_only"
]


def _setup_cfg(target: Target, work: Path) -> str:
    tests = [t for t in target.tests if (work / t.partition("::")[0]).exists()]
    lines = ["[mutmut]", "source_paths = src", "only_mutate ="]
    lines += [f"    {m}" for m in target.modules]
    lines += ["pytest_add_cli_args_test_selection ="]
    lines += [f"    {t}" for t in tests]
    lines += ["pytest_add_cli_args =", "    -p", "    no:cacheprovider", "    -m", "    not slow"]
    for test in [*SOURCE_CHECKS, *target.deselect]:
        lines += ["    --deselect", f"    {test}"]
    return "\n".join(lines) + "\n"


def _tally(work: Path) -> tuple[Counter[str], list[str]]:
    out = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    counts: Counter[str] = Counter()
    survived = []
    for line in out.splitlines():
        name, _, status = line.strip().rpartition(": ")
        if not name:
            continue
        counts[status] += 1
        if status == "survived":
            survived.append(name)
    return counts, survived


def run_target(name: str, children: int, keep: Path | None) -> None:
    work = Path(tempfile.mkdtemp(prefix=f"mutation-{name}-")) if keep is None else keep / name
    work.mkdir(parents=True, exist_ok=True)
    _copy_tree(work)
    (work / "setup.cfg").write_text(_setup_cfg(TARGETS[name], work))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the mutants, not src/
    env["LADDERBENCH_HYPOTHESIS_PROFILE"] = "mutation"  # 10 examples per property test
    subprocess.run(
        [sys.executable, "-m", "mutmut", "run", "--max-children", str(children)],
        cwd=work,
        env=env,
        check=False,
        stdout=subprocess.DEVNULL,
    )
    counts, survived = _tally(work)
    killed = counts["killed"]
    scored = killed + counts["survived"]
    score = f"{100 * killed / scored:.1f}%" if scored else "n/a"
    print(f"## {name}: {killed} killed of {scored} ({score}); all statuses: {dict(counts)}")
    for mutant in survived:
        print(f"- survived: {mutant}")
    print(f"(work copy: {work}; `mutmut show NAME` there shows a mutant)\n")
    if keep is None:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", help=f"any of {', '.join(TARGETS)} (default all)")
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", type=Path, help="keep each target's work copy under this folder")
    parser.add_argument("--list", action="store_true", help="print the targets and exit")
    args = parser.parse_args()
    if args.list:
        for name, target in TARGETS.items():
            print(f"{name}: {' '.join(target.modules)}\n    tests: {' '.join(target.tests)}")
        return
    unknown = [t for t in args.targets if t not in TARGETS]
    if unknown:
        parser.error(f"unknown target {', '.join(unknown)}; known: {', '.join(TARGETS)}")
    try:
        import mutmut  # noqa: F401
    except ImportError:
        sys.exit("mutmut is not installed: `make mutation` installs it, or pip install mutmut")
    for name in args.targets or list(TARGETS):
        run_target(name, args.max_children, args.keep)


if __name__ == "__main__":
    main()
