"""DrainingTransport: httpx's sync transport, with responses closed before their end drained first."""

from __future__ import annotations

from typing import Any, Iterator, Optional

import httpx

from ._bounds import Budget, BoundedRead, DrainStats, boundable_network_stream, check_bounds, ensure_nodelay

__all__ = ["DrainingTransport"]

_OPEN, _EOF, _FAILED, _CLOSED = "open", "eof", "failed", "closed"


class DrainingTransport(httpx.BaseTransport):
    """Wraps an httpx transport (``httpx.HTTPTransport()`` by default) so that a response closed before
    its end (an SDK's ``close()`` at ``[DONE]``, a ``with client.stream()`` left early) is read on to EOF
    first, within bounds, and its HTTP/1.1 connection goes back to the pool instead of being closed.

    The drain runs inside ``close()``, for at most ``min(timeout, wait)`` seconds and ``max_bytes``
    bytes read from the network; past either bound the connection is closed, as the close would have.
    Errors while draining are swallowed. HTTP/2 responses pass through untouched.
    """

    def __init__(
        self,
        inner: Optional[httpx.BaseTransport] = None,
        max_bytes: int = 131072,
        timeout: float = 1.0,
        *,
        wait: float = 0.05,
    ) -> None:
        check_bounds(max_bytes, timeout, wait)
        self._inner = inner if inner is not None else httpx.HTTPTransport()
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.wait = wait
        self.stats = DrainStats()

    @property
    def inner(self) -> httpx.BaseTransport:
        return self._inner

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self._inner.handle_request(request)
        wrap, network_stream = boundable_network_stream(request, response)
        if wrap and isinstance(response.stream, httpx.SyncByteStream):
            if network_stream is not None:
                ensure_nodelay(network_stream)
            response.stream = _DrainingStream(response.stream, network_stream, self)
        return response

    def close(self) -> None:
        self._inner.close()


class _DrainingStream(httpx.SyncByteStream):
    """The response's byte stream: delivers the inner stream's chunks and notes whether it reached EOF."""

    def __init__(self, inner: httpx.SyncByteStream, network_stream: Any, transport: DrainingTransport) -> None:
        self._inner = inner
        self._network_stream = network_stream
        self._transport = transport
        self._iterator: Optional[Iterator[bytes]] = None
        self._state = _OPEN

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        if self._state != _OPEN:
            # Closed (or ended): nothing is delivered after the caller closed.
            raise StopIteration
        if self._iterator is None:
            self._iterator = iter(self._inner)
        try:
            return next(self._iterator)
        except StopIteration:
            self._state = _EOF
            raise
        except BaseException:
            self._state = _FAILED
            raise

    def close(self) -> None:
        state, self._state = self._state, _CLOSED
        if state != _OPEN:
            if state != _CLOSED:
                self._inner.close()
            return
        transport = self._transport
        seconds = min(transport.timeout, transport.wait)
        if self._network_stream is None or transport.max_bytes == 0 or seconds == 0:
            transport.stats.record("not_drained")
            self._inner.close()
            return
        budget = Budget(seconds, transport.max_bytes)
        eof = False
        try:
            with BoundedRead(self._network_stream, budget, asynchronous=False):
                iterator = self._iterator if self._iterator is not None else iter(self._inner)
                for _ in iterator:
                    if budget.expired():
                        # A transport below that does not read through the network stream.
                        budget.reason = budget.reason or "time"
                        break
                else:
                    eof = True
        except Exception:
            # A reset, a timeout, the bounds: never the caller's concern once it closed.
            pass
        finally:
            transport.stats.record(budget.outcome(eof), budget.bytes)
            self._inner.close()
