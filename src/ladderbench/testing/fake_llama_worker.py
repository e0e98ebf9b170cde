"""A stand-in for the embedded model's worker, for tests: same protocol, no llama.cpp.

Selected with ``LADDERBENCH_LOCAL_WORKER=ladderbench.testing.fake_llama_worker``. It answers
every request with ``FAKE_WORKER_REPLY`` (default "The answer is A."). With
``FAKE_WORKER_CRASH_AFTER=N`` it kills itself with ``FAKE_WORKER_SIGNAL`` (default SIGSEGV) on
request N+1, as a native crash would; with ``FAKE_WORKER_CRASH_ONCE=FILE`` only while FILE does
not exist yet (it creates it), so that a resumed run completes. ``FAKE_WORKER_DELAY=S`` waits S
seconds before each answer, as a real model takes time.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path


def main() -> int:
    reply = os.environ.get("FAKE_WORKER_REPLY", "The answer is A.")
    crash_after = int(os.environ.get("FAKE_WORKER_CRASH_AFTER", "-1"))
    once = os.environ.get("FAKE_WORKER_CRASH_ONCE")
    if once and Path(once).exists():
        crash_after = -1
    delay = float(os.environ.get("FAKE_WORKER_DELAY", "0"))
    sig = signal.Signals[os.environ.get("FAKE_WORKER_SIGNAL", "SIGSEGV")]
    backend = {"llamaCppPython": "fake", "systemInfo": "fake worker for tests"}
    print(json.dumps({"ready": True, "backend": backend}), flush=True)
    for answered, line in enumerate(sys.stdin):
        if answered == crash_after:
            if once:
                Path(once).touch()
            if sig != signal.SIGKILL:
                signal.signal(sig, signal.SIG_DFL)
            os.kill(os.getpid(), sig)
        request = json.loads(line)
        time.sleep(delay)
        usage = {"prompt_tokens": len(str(request["messages"])) // 4, "completion_tokens": 5}
        print(json.dumps({"text": reply, "usage": usage}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
