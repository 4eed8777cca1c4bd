"""What the sync and async transports share: the bounds of one drain, the bounded read, the counts.

A drain reads the rest of a response through the same byte iterator httpx was reading. Its bounds are
enforced where the bytes arrive: the network stream's ``read(max_bytes, timeout=...)``, which
httpcore's HTTP/1.1 connection calls for every read (``response.extensions["network_stream"]`` is
that object). For the length of the drain the stream's ``read`` is replaced, on that instance only, by
one that

- asks for no more than the bytes left under the byte limit, and stops (raises) once none are left,
- waits no longer than the time left before the drain's deadline (the ``timeout`` argument of each read
  is shortened: httpcore fixes the response's read timeout once per body, so the request's timeout
  cannot be changed from outside), and stops once none is left.

A stop raises inside httpcore's body iterator, which closes the connection as an early close would;
the original ``close()`` then runs and tells the pool. At EOF the original ``close()`` releases the
connection to the pool. The replacement is removed before the original close runs.
"""

from __future__ import annotations

import inspect
import socket
import threading
import time
from typing import Any, Callable, Dict, Optional, Tuple

__all__ = ["DrainStats"]

_MONOTONIC = time.monotonic


class DrainStopped(Exception):
    """Raised by the bounded read when the drain's byte limit or deadline is reached."""


class DrainStats:
    """What the transport's drains did, counted as they end (thread-safe).

    ``drained``: responses closed early whose rest was read to EOF within the bounds (their
    connection went back to the pool). ``timed_out``, ``over_limit``, ``failed``: drains stopped by the
    deadline, by the byte limit, or by an error (a reset; never raised to the caller); their connection
    was closed, as the early close would have. ``cancelled``: drains cancelled before their end (the
    client was closed, or the event loop ended, while they ran); their connection was closed.
    ``not_drained``: responses closed early that could not be
    drained (the transport below does not expose an HTTP/1.1 network stream whose reads it can bound,
    or the async library is neither asyncio nor trio); they were closed as before. ``bytes_read``: bytes
    the drains read from the network, all drains together; ``largest``: the most one drain read.
    """

    __slots__ = ("_lock", "drained", "timed_out", "over_limit", "failed", "cancelled", "not_drained", "bytes_read", "largest")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.drained = 0
        self.timed_out = 0
        self.over_limit = 0
        self.failed = 0
        self.cancelled = 0
        self.not_drained = 0
        self.bytes_read = 0
        self.largest = 0

    def as_dict(self) -> Dict[str, int]:
        with self._lock:
            return {name: getattr(self, name) for name in self.__slots__ if name != "_lock"}

    def record(self, outcome: str, bytes_read: int = 0) -> None:
        with self._lock:
            setattr(self, outcome, getattr(self, outcome) + 1)
            self.bytes_read += bytes_read
            if bytes_read > self.largest:
                self.largest = bytes_read

    def __repr__(self) -> str:
        return f"DrainStats({', '.join(f'{k}={v}' for k, v in self.as_dict().items())})"


class Budget:
    """The bounds of one drain: a deadline (time.monotonic()) and a number of bytes."""

    __slots__ = ("deadline", "limit", "bytes", "reason")

    def __init__(self, seconds: float, limit: int) -> None:
        self.deadline = _MONOTONIC() + seconds
        self.limit = limit
        self.bytes = 0
        # Why the drain stopped before EOF: "time", "bytes", "error" or "cancelled".
        self.reason: Optional[str] = None

    def before_read(self, max_bytes: int, timeout: Optional[float]) -> Tuple[int, float, bool]:
        left = self.limit - self.bytes
        if left <= 0:
            self.reason = "bytes"
            raise DrainStopped("drainguard: byte limit reached before EOF")
        remaining = self.deadline - _MONOTONIC()
        if remaining <= 0:
            self.reason = "time"
            raise DrainStopped("drainguard: time budget spent before EOF")
        shortened = timeout is None or remaining < timeout
        return min(max_bytes, left), (remaining if shortened else timeout), shortened  # type: ignore[return-value]

    def read_failed(self, exc: BaseException, shortened: bool) -> None:
        if self.reason is not None:
            return
        if not isinstance(exc, Exception):
            # CancelledError, trio.Cancelled, KeyboardInterrupt: not the drain's doing.
            self.reason = "cancelled"
            return
        # The backend's read timeout (httpcore.ReadTimeout, socket.timeout, TimeoutError) after the drain
        # shortened it: the deadline ended the read.
        timed_out = isinstance(exc, TimeoutError) or type(exc).__name__.endswith("Timeout")
        self.reason = "time" if (timed_out and shortened) or self.expired() else "error"

    def expired(self) -> bool:
        return _MONOTONIC() >= self.deadline

    def outcome(self, eof: bool) -> str:
        if eof:
            return "drained"
        return {"time": "timed_out", "bytes": "over_limit", "cancelled": "cancelled"}.get(self.reason or "error", "failed")


_READ_SIGNATURES: Dict[type, bool] = {}


def _read_takes_timeout(stream: Any) -> bool:
    """Whether the stream's class has a ``read(max_bytes, timeout=...)`` (httpcore's NetworkStream)."""
    kind = type(stream)
    known = _READ_SIGNATURES.get(kind)
    if known is None:
        try:
            parameters = inspect.signature(kind.read).parameters
            known = "timeout" in parameters and len(parameters) >= 3
        except (AttributeError, TypeError, ValueError):
            known = False
        _READ_SIGNATURES[kind] = known
    return known


def boundable_network_stream(request: Any, response: Any) -> Tuple[bool, Any]:
    """(wrap, network_stream) for a response the inner transport returned.

    ``wrap`` is False where the response passes through untouched: not HTTP/1.1 (an HTTP/2 stream is
    reset on its own, the connection stays), a protocol switch (101) or a CONNECT tunnel (the network
    stream is handed to the caller). ``network_stream`` is None where the reads cannot be bounded (a
    transport that exposes no httpcore-like network stream, or one whose instance cannot take an
    attribute): such a response is closed as before.
    """
    extensions = getattr(response, "extensions", None) or {}
    if extensions.get("http_version") != b"HTTP/1.1":
        return False, None
    if getattr(response, "status_code", None) == 101 or getattr(request, "method", None) == "CONNECT":
        return False, None
    stream = extensions.get("network_stream")
    if stream is None or not hasattr(stream, "__dict__") or not _read_takes_timeout(stream):
        return True, None
    return True, stream


def ensure_nodelay(network_stream: Any) -> None:
    """Sets TCP_NODELAY on the connection's socket where it is not set.

    httpcore >= 0.17 sets it on every TCP connection, and asyncio's and trio's streams set it; httpcore
    0.16's sync backend (Debian 12's python3-httpcore) does not. There, a request with a body on a
    reused connection writes its headers and its body separately, and the body waits for the server's
    delayed ACK (about 40 ms on Linux): reuse would trade a handshake for that stall.
    """
    try:
        sock = network_stream.get_extra_info("socket")
        if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
            return
        if not sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except Exception:
        pass


class BoundedRead:
    """Replaces ``network_stream.read`` on that instance for the length of a ``with`` block.

    ``asynchronous`` picks an ``async def`` replacement (httpcore's async network streams).
    """

    def __init__(self, network_stream: Any, budget: Budget, asynchronous: bool) -> None:
        self._stream = network_stream
        self._budget = budget
        self._asynchronous = asynchronous
        self._had_own: bool = False
        self._own: Any = None

    def __enter__(self) -> "BoundedRead":
        own = vars(self._stream)
        self._had_own = "read" in own
        self._own = own.get("read")
        original: Callable[..., Any] = self._stream.read
        budget = self._budget

        if self._asynchronous:

            async def read(max_bytes: int, timeout: Optional[float] = None) -> bytes:
                size, wait, shortened = budget.before_read(max_bytes, timeout)
                try:
                    data = await original(size, timeout=wait)
                except BaseException as exc:
                    budget.read_failed(exc, shortened)
                    raise
                budget.bytes += len(data)
                return data

        else:

            def read(max_bytes: int, timeout: Optional[float] = None) -> bytes:  # type: ignore[misc]
                size, wait, shortened = budget.before_read(max_bytes, timeout)
                try:
                    data = original(size, timeout=wait)
                except BaseException as exc:
                    budget.read_failed(exc, shortened)
                    raise
                budget.bytes += len(data)
                return data

        self._stream.read = read
        return self

    def __exit__(self, *exc_info: Any) -> None:
        if self._had_own:
            self._stream.read = self._own
        else:
            try:
                del self._stream.read
            except AttributeError:
                pass


def check_bounds(max_bytes: int, timeout: float, wait: float) -> None:
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
        raise ValueError(f"max_bytes must be an int >= 0, not {max_bytes!r}")
    for name, value in (("timeout", timeout), ("wait", wait)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or value != value:
            raise ValueError(f"{name} must be a number of seconds >= 0, not {value!r}")
