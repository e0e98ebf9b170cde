#!/usr/bin/env bash
# Score the frontier model's replies to the report prompts (suite v2 tiers, seeds 201-205) exactly
# like a model's: join raw-report/*.jsonl ({id, reply}) with report-prompts.jsonl, serve them with
# the replay server, and run the same selection against it. From the repository root:
#   bash calibration/v2/replay-report.sh
set -euo pipefail
dir=calibration/v2
port=${PORT:-8098}
.venv/bin/python - "$dir" <<'PY'
import json, pathlib, sys
d = pathlib.Path(sys.argv[1])
prompts = {o["id"]: o["prompt"] for o in map(json.loads, (d / "report-prompts.jsonl").read_text().splitlines())}
lines = []
for path in sorted((d / "raw-report").glob("*.jsonl")):
    for o in map(json.loads, path.read_text().splitlines()):
        lines.append(json.dumps({"id": o["id"], "prompt": prompts[o["id"]], "reply": o["reply"]}, ensure_ascii=False))
(d / "frontier-report-replies.jsonl").write_text("\n".join(sorted(lines)) + "\n")
print(f"{len(lines)} of {len(prompts)} prompts answered")
PY
.venv/bin/python -m ladderbench.testing.replay "$dir/frontier-report-replies.jsonl" --port "$port" &
server=$!
trap 'kill $server' EXIT
sleep 2
.venv/bin/ladderbench run --model openai:frontier-reasoning-only --base-url "http://127.0.0.1:$port/v1" \
	--suite puzzles --suite-version 2 --seeds 201-205 --retries 0 --no-cache --quiet \
	--out "$dir/frontier.jsonl"
