"""Fixtures: a real Node HTTP server on 127.0.0.1 that counts connections (the repository's
test/support/transport-python-server.mjs, on drainguard/testing's counting server), and an instrument
that counts the bytes read from each network stream, at httpcore's backend, independently of the
transport under test.

The server needs Node and the repository's built `dist/` (`npm ci` builds it); without them every test
here is skipped with the reason. `DRAINGUARD_NODE` names the node binary (default `node`).
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import subprocess
import sys
import time
from typing import Any, Callable, Dict, Iterator, List

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SERVER = os.path.join(ROOT, "test", "support", "transport-python-server.mjs")
NODE = os.environ.get("DRAINGUARD_NODE", "node")
TERMINAL = b"data: [DONE]\n\n"
# Any call, close or drain that takes longer is hung (never a latency target).
HANG_GUARD = 20.0


def _missing_server() -> str:
    if shutil.which(NODE) is None:
        return f"{NODE} is not on PATH (set DRAINGUARD_NODE)"
    if not os.path.exists(os.path.join(ROOT, "dist", "testing.js")):
        return "the repository's dist/ is not built (npm ci)"
    return ""


class Peer:
    def __init__(self, mode: str, format: str, events: int, tail_delay_ms: int) -> None:
        self.mode = mode
        args = [NODE, SERVER, "--mode", mode, "--format", format, "--events", str(events), "--tail-delay-ms", str(tail_delay_ms)]
        self._process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self._process.stdout is not None
        self.url = self._process.stdout.readline().strip()
        assert self.url.startswith("http://127.0.0.1:"), f"the server did not start: {self.url!r}"

    def stats(self) -> Dict[str, int]:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write("stats\n")
        self._process.stdin.flush()
        return json.loads(self._process.stdout.readline())

    def wait_for(self, predicate: Callable[[Dict[str, int]], bool], timeout: float = HANG_GUARD) -> Dict[str, int]:
        """Polls the counts until predicate holds (a closed connection reaches the server a moment later)."""
        end = time.monotonic() + timeout
        while True:
            stats = self.stats()
            if predicate(stats) or time.monotonic() > end:
                return stats
            time.sleep(0.02)

    def close(self) -> None:
        if self._process.stdin:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


@pytest.fixture
def peer() -> Iterator[Callable[..., Peer]]:
    missing = _missing_server()
    if missing:
        pytest.skip(missing)
    started: List[Peer] = []

    def start(mode: str = "end", format: str = "sse", events: int = 2, tail_delay_ms: int = 5) -> Peer:
        started.append(Peer(mode, format, events, tail_delay_ms))
        return started[-1]

    yield start
    for server in started:
        server.close()


def _backend_stream_classes() -> List[type]:
    """httpcore's network stream classes: 0.16 (httpcore.backends) and 1.x (httpcore._backends)."""
    classes = []
    for module, names in (
        ("httpcore.backends.sync", ["SyncStream"]),
        ("httpcore.backends.asyncio", ["AsyncIOStream"]),
        ("httpcore.backends.trio", ["TrioStream"]),
        ("httpcore._backends.sync", ["SyncStream", "TLSinTLSStream"]),
        ("httpcore._backends.anyio", ["AnyIOStream"]),
        ("httpcore._backends.trio", ["TrioStream"]),
    ):
        try:
            loaded = __import__(module, fromlist=names)
        except Exception:
            continue
        classes.extend(getattr(loaded, name) for name in names if hasattr(loaded, name))
    return classes


class ReadCounter:
    """Counts the bytes each network stream returned, wrapping the backend classes' read()."""

    def __init__(self) -> None:
        self.total: Dict[int, int] = collections.defaultdict(int)
        self.head: Dict[int, bytearray] = collections.defaultdict(bytearray)

    def note(self, stream: Any, data: bytes) -> None:
        key = id(stream)
        self.total[key] += len(data)
        if len(self.head[key]) < 1 << 20:
            self.head[key] += data

    def read_so_far(self, stream: Any) -> int:
        return self.total[id(stream)]

    def after_terminal(self, stream: Any) -> int:
        """Bytes the stream returned after the end of the first `data: [DONE]` event."""
        head = bytes(self.head[id(stream)])
        at = head.find(TERMINAL)
        assert at >= 0, "the terminal event was never read"
        return self.total[id(stream)] - (at + len(TERMINAL))


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> ReadCounter:
    counter = ReadCounter()
    for cls in _backend_stream_classes():
        original = cls.read
        if _is_async(original):

            async def read(self: Any, max_bytes: int, timeout: Any = None, _original: Any = original) -> bytes:
                data = await _original(self, max_bytes, timeout)
                counter.note(self, data)
                return data

        else:

            def read(self: Any, max_bytes: int, timeout: Any = None, _original: Any = original) -> bytes:  # type: ignore[misc]
                data = _original(self, max_bytes, timeout)
                counter.note(self, data)
                return data

        monkeypatch.setattr(cls, "read", read)
    return counter


def _is_async(function: Any) -> bool:
    import inspect

    return inspect.iscoroutinefunction(function)


def pytest_report_header(config: Any) -> List[str]:
    import httpcore
    import httpx

    return [f"httpx {httpx.__version__}, httpcore {httpcore.__version__}, python {sys.version.split()[0]}"]
