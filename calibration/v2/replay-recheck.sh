#!/usr/bin/env bash
# A re-check of tiers 5-6 on seeds 301-305, which nobody had seen when the anchors were placed:
# fresh helper sessions answered recheck-prompts.jsonl (raw-recheck/*.jsonl); scored like
# replay-report.sh. From the repository root: bash calibration/v2/replay-recheck.sh
set -euo pipefail
dir=calibration/v2
port=${PORT:-8095}
.venv/bin/python - "$dir" <<'PY'
import json, pathlib, sys
d = pathlib.Path(sys.argv[1])
prompts = {o["id"]: o["prompt"] for o in map(json.loads, (d / "recheck-prompts.jsonl").read_text().splitlines())}
lines = []
for path in sorted((d / "raw-recheck").glob("*.jsonl")):
    for o in map(json.loads, path.read_text().splitlines()):
        lines.append(json.dumps({"id": o["id"], "prompt": prompts[o["id"]], "reply": o["reply"]}, ensure_ascii=False))
(d / "frontier-recheck-replies.jsonl").write_text("\n".join(sorted(lines)) + "\n")
print(f"{len(lines)} of {len(prompts)} prompts answered")
PY
.venv/bin/python -m ladderbench.testing.replay "$dir/frontier-recheck-replies.jsonl" --port "$port" &
server=$!
trap 'kill $server' EXIT
sleep 2
.venv/bin/ladderbench run --model openai:frontier-reasoning-only --base-url "http://127.0.0.1:$port/v1" \
	--suite puzzles --suite-version 2 --tiers 5-6 --seeds 301-305 --retries 0 --no-cache --quiet \
	--out "$dir/frontier-recheck.jsonl"
