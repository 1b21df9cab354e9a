"""The live server the tests call: the real dcledger app on 127.0.0.1, on a free port, over a fresh
database holding the real-data fixture the JavaScript tests use (``src/test-support/live-server.ts``).

Started once per session with ``node --import tsx`` from the repository root and stopped by closing
its standard input. Under the vitest run (``test/python-client.test.ts``) DCLEDGER_LIVE_FIXTURE names
the fixture that run already built, so the server starts from a copy of it; run directly
(``python3 -m pytest packages/python/tests``) the server builds the fixture itself from the shared
data, which takes a few minutes.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import threading
from typing import Any, Dict, Iterator

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1]
REPO = PACKAGE.parents[1]
sys.path.insert(0, str(PACKAGE))

STARTUP_SECONDS = 900


@pytest.fixture(scope="session")
def live() -> Iterator[Dict[str, Any]]:
    """``{"url", "api_key", "core_api_key"}`` of a running server (a Max key and a Core key).

    DCLEDGER_PYTHON_TEST_SERVER, set to the line live-server.ts printed, reuses a server already
    started that way (quicker while working on the client).
    """
    given = os.environ.get("DCLEDGER_PYTHON_TEST_SERVER")
    if given:
        yield json.loads(given)
        return
    env = {key: value for key, value in os.environ.items() if not key.startswith("VITEST")}
    server = subprocess.Popen(
        ["node", "--import", "tsx", "src/test-support/live-server.ts"],
        cwd=REPO,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    first: Dict[str, str] = {}
    reader = threading.Thread(target=lambda: first.update(line=server.stdout.readline()), daemon=True)
    reader.start()
    reader.join(STARTUP_SECONDS)
    line = first.get("line", "")
    if not line:
        server.kill()
        raise RuntimeError(
            f"the dcledger test server did not start (exit code {server.poll()}); its error output is above"
        )
    try:
        yield json.loads(line)
    finally:
        server.stdin.close()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
