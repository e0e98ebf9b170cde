"""The README's commands run as written: every block marked ``readme-test: runs offline`` is run,
in order, in one fresh folder, with the installed ``ladderbench`` first on PATH."""

import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"
MARK = "<!-- readme-test: runs offline -->"
BLOCK = re.compile(re.escape(MARK) + r"\n```(\w+)\n(.*?)\n```", re.DOTALL)


def offline_blocks() -> list[tuple[str, str]]:
    return BLOCK.findall(README.read_text(encoding="utf-8"))


def test_the_readme_marks_blocks_to_run():
    assert README.read_text(encoding="utf-8").count(MARK) == len(offline_blocks()) >= 2


def test_the_readme_offline_blocks_run_as_written(tmp_path):
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "LADDERBENCH_CACHE": str(tmp_path / "cache.sqlite"),
    }
    work = tmp_path / "work"
    work.mkdir()
    for language, code in offline_blocks():
        command = [sys.executable, "-c", code] if language == "python" else ["bash", "-ec", code]
        proc = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, f"README block failed:\n{code}\n---\n{proc.stderr[-2000:]}"
    assert (work / "results" / "report.html").is_file()
