"""AsyncDrainingTransport: httpx's async transport, with responses closed before their end drained first."""

from __future__ import annotations

import asyncio
import sys
from typing import Any, AsyncIterator, Optional, Set

import httpx

from ._bounds import Budget, BoundedRead, DrainStats, boundable_network_stream, check_bounds, ensure_nodelay

__all__ = ["AsyncDrainingTransport"]

_OPEN, _EOF, _FAILED, _CLOSED = "open", "eof", "failed", "closed"


def _async_library() -> Optional[str]:
    try:
        import sniffio

        return sniffio.current_async_library()
    except Exception:
        pass
    if "trio" in sys.modules:
        try:
            sys.modules["trio"].lowlevel.current_task()
            return "trio"
        except Exception:
            pass
    try:
        asyncio.get_running_loop()
        return "asyncio"
    except RuntimeError:
        return None


class AsyncDrainingTransport(httpx.AsyncBaseTransport):
    """Wraps an httpx async transport (``httpx.AsyncHTTPTransport()`` by default) so that a response closed
    before its end (an SDK's ``aclose()`` after the JSON-RPC reply, an ``async with client.stream()``
    left early) is read on to EOF, within bounds, and its HTTP/1.1 connection goes back to the pool.

    asyncio: the drain runs in a task the transport holds, for at most ``timeout`` seconds and
    ``max_bytes`` bytes; ``aclose()`` waits for it at most ``wait`` seconds. trio (no task can be
    spawned without a nursery): the drain runs inside ``aclose()``, shielded from cancellation, for at
    most ``min(timeout, wait)``. Past a bound the connection is closed, as the close would have. Errors
    while draining are swallowed. HTTP/2 responses pass through untouched.
    """

    def __init__(
        self,
        inner: Optional[httpx.AsyncBaseTransport] = None,
        max_bytes: int = 131072,
        timeout: float = 1.0,
        *,
        wait: float = 0.05,
    ) -> None:
        check_bounds(max_bytes, timeout, wait)
        self._inner = inner if inner is not None else httpx.AsyncHTTPTransport()
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.wait = wait
        self.stats = DrainStats()
        # The background drains (asyncio): held here so that they are not garbage-collected mid-way.
        self._drains: Set["asyncio.Task[None]"] = set()

    @property
    def inner(self) -> httpx.AsyncBaseTransport:
        return self._inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        wrap, network_stream = boundable_network_stream(request, response)
        if wrap and isinstance(response.stream, httpx.AsyncByteStream):
            if network_stream is not None:
                ensure_nodelay(network_stream)
            response.stream = _AsyncDrainingStream(response.stream, network_stream, self)
        return response

    async def wait_for_drains(self, timeout: Optional[float] = None) -> None:
        """Waits until the background drains under way have ended (or ``timeout`` seconds have passed)."""
        pending = [task for task in self._drains if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=timeout)

    async def aclose(self) -> None:
        # Drains still under way would only keep connections the pool is about to close.
        pending = [task for task in self._drains if not task.done()]
        for task in pending:
            task.cancel()
        if pending:
            try:
                await asyncio.wait(pending, timeout=max(self.wait, 0.1))
            except Exception:
                pass
        await self._inner.aclose()


class _AsyncDrainingStream(httpx.AsyncByteStream):
    """The response's byte stream: delivers the inner stream's chunks and notes whether it reached EOF."""

    def __init__(self, inner: httpx.AsyncByteStream, network_stream: Any, transport: AsyncDrainingTransport) -> None:
        self._inner = inner
        self._network_stream = network_stream
        self._transport = transport
        self._iterator: Optional[AsyncIterator[bytes]] = None
        self._state = _OPEN

    def __aiter__(self) -> AsyncIterator[bytes]:  # type: ignore[override]
        return self

    async def __anext__(self) -> bytes:
        if self._state != _OPEN:
            # Closed (or ended): nothing is delivered after the caller closed.
            raise StopAsyncIteration
        if self._iterator is None:
            self._iterator = self._inner.__aiter__()
        try:
            return await self._iterator.__anext__()
        except StopAsyncIteration:
            self._state = _EOF
            raise
        except BaseException:
            self._state = _FAILED
            raise

    async def aclose(self) -> None:
        state, self._state = self._state, _CLOSED
        if state != _OPEN:
            if state != _CLOSED:
                await self._inner.aclose()
            return
        transport = self._transport
        library = _async_library() if self._network_stream is not None and transport.max_bytes > 0 else None
        if library == "asyncio" and transport.timeout > 0:
            budget = Budget(transport.timeout, transport.max_bytes)
            task = asyncio.get_running_loop().create_task(self._drain(budget))
            transport._drains.add(task)
            task.add_done_callback(transport._drains.discard)
            if transport.wait > 0:
                # Not a cancellation of the drain: a caller cancelled here leaves it running.
                await asyncio.wait({task}, timeout=transport.wait)
            return
        seconds = min(transport.timeout, transport.wait)
        if library == "trio" and seconds > 0:
            import trio

            with trio.CancelScope(shield=True):
                await self._drain(Budget(seconds, transport.max_bytes))
            return
        transport.stats.record("not_drained")
        await self._inner.aclose()

    async def _drain(self, budget: Budget) -> None:
        eof = False
        try:
            with BoundedRead(self._network_stream, budget, asynchronous=True):
                iterator = self._iterator if self._iterator is not None else self._inner.__aiter__()
                while True:
                    try:
                        await iterator.__anext__()
                    except StopAsyncIteration:
                        eof = True
                        break
                    if budget.expired():
                        # A transport below that does not read through the network stream.
                        budget.reason = budget.reason or "time"
                        break
        except Exception:
            # A reset, a timeout, the bounds: never the caller's concern once it closed.
            pass
        except BaseException:
            # Cancelled (the client closed, the event loop ended): close as before, and let it propagate.
            budget.reason = budget.reason or "cancelled"
            raise
        finally:
            self._transport.stats.record(budget.outcome(eof), budget.bytes)
            try:
                await self._inner.aclose()
            except Exception:
                pass
