import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).parent))

# Property tests check behaviour, not speed: no per-example deadline (a loaded CI machine must
# not turn a slow example into a failure), and no health check that times data generation.
settings.register_profile(
    "ladderbench", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# bench/mutation.py runs every test once per mutant: fewer examples there (a bench, not a gate).
settings.register_profile("mutation", settings.get_profile("ladderbench"), max_examples=10)
settings.load_profile(os.environ.get("LADDERBENCH_HYPOTHESIS_PROFILE", "ladderbench"))


@pytest.fixture(autouse=True, scope="session")
def _probe_cache(tmp_path_factory):
    """Reports cache grader-probe verdicts; tests keep theirs out of the user's cache folder."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LADDERBENCH_PROBE_CACHE", str(tmp_path_factory.mktemp("probe-cache")))
        yield


# The maintainer's secret the live-release tests build with (a test-only value; tests of the
# refusal without it remove it).
TEST_LIVE_SECRET = "test-only-live-secret-0123456789"


@pytest.fixture(autouse=True, scope="session")
def _live_secret():
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LADDERBENCH_LIVE_SECRET", TEST_LIVE_SECRET)
        yield
