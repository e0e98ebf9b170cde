#!/usr/bin/env bash
# The puzzle ladder v2's calibration replies, scored through calibration/replay.sh. From the
# repository root:
#   bash calibration/v2/replay.sh PROMPTS RAW_DIR OUT.jsonl [ladderbench run selection ...]
# report (seeds 201-205):
#   bash calibration/v2/replay.sh calibration/v2/report-prompts.jsonl calibration/v2/raw-report \
#       calibration/v2/frontier.jsonl --seeds 201-205
# re-check (tiers 5-6, seeds 301-305):
#   bash calibration/v2/replay.sh calibration/v2/recheck-prompts.jsonl calibration/v2/raw-recheck \
#       calibration/v2/frontier-recheck.jsonl --tiers 5-6 --seeds 301-305
set -euo pipefail
prompts=$1 raw=$2 out=$3
shift 3
exec bash calibration/replay.sh "$prompts" "$raw" "$out" --suite puzzles --suite-version 2 "$@"
