#!/usr/bin/env bash
# Score the recorded frontier replies exactly like a model's: serve them with the replay server and run
# the same selection against it. Run from the repository root: bash calibration/v1-pilot/replay.sh
set -euo pipefail
dir=calibration/v1-pilot
port=${PORT:-8099}
.venv/bin/python -m ladderbench.testing.replay "$dir/frontier-replies.jsonl" --port "$port" &
server=$!
trap 'kill $server' EXIT
sleep 2
.venv/bin/ladderbench run --model openai:frontier-reasoning-only --base-url "http://127.0.0.1:$port/v1" \
	--suite puzzles --tiers 0-6 --seeds 17-20 --retries 0 --no-cache --quiet \
	--out "$dir/frontier.jsonl"
