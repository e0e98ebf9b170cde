#!/usr/bin/env bash
# Score helper sessions' replies exactly like a model's: join RAW_DIR/*.jsonl ({id, reply}) with
# PROMPTS ({id, prompt}, from `ladderbench export prompts`) into RAW_DIR-replies.jsonl, serve them
# with the replay server, and run `ladderbench run` with the remaining arguments (the suite and the
# same selection) against it. From the repository root:
#   bash calibration/replay.sh PROMPTS RAW_DIR OUT.jsonl --suite ... [selection ...]
set -euo pipefail
prompts=$1 raw=$2 out=$3
shift 3
replies="${raw%/}-replies.jsonl"
port=${PORT:-8098}
.venv/bin/python - "$prompts" "$raw" "$replies" <<'PY'
import json, pathlib, sys
prompts_path, raw, replies = map(pathlib.Path, sys.argv[1:])
prompts = {o["id"]: o["prompt"] for o in map(json.loads, prompts_path.read_text().splitlines())}
lines = []
for path in sorted(raw.glob("*.jsonl")):
    for o in map(json.loads, path.read_text().splitlines()):
        lines.append(json.dumps({"id": o["id"], "prompt": prompts[o["id"]], "reply": o["reply"]}, ensure_ascii=False))
replies.write_text("\n".join(sorted(lines)) + "\n")
print(f"{len(lines)} of {len(prompts)} prompts answered")
PY
.venv/bin/python -m ladderbench.testing.replay "$replies" --port "$port" &
server=$!
trap 'kill $server' EXIT
sleep 2
.venv/bin/ladderbench run --model openai:frontier-reasoning-only --base-url "http://127.0.0.1:$port/v1" \
	--retries 0 --no-cache --quiet --out "$out" "$@"
