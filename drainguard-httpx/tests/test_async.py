"""AsyncDrainingTransport against a real server that counts connections, under asyncio, trio, and anyio
on each: reuse after an early aclose(), each hostile body, the bounds, cancellation, the pool's state."""

from __future__ import annotations

import asyncio
import importlib.util
import time
from typing import Any, Awaitable, Callable

import httpx
import pytest

from conftest import HANG_GUARD, TERMINAL
from drainguard_httpx import AsyncDrainingTransport

CALLS = 20
EVENTS = b'id: 0\ndata: {"index":0,"text":"event 0"}\n\nid: 1\ndata: {"index":1,"text":"event 1"}\n\n' + TERMINAL
HAVE_TRIO = importlib.util.find_spec("trio") is not None
NO_TRIO = "trio is not installed (apt-get install python3-trio)"

BACKENDS = [
    "asyncio",
    pytest.param("trio", marks=pytest.mark.skipif(not HAVE_TRIO, reason=NO_TRIO)),
    "anyio-asyncio",
    pytest.param("anyio-trio", marks=pytest.mark.skipif(not HAVE_TRIO, reason=NO_TRIO)),
]


def run(backend: str, function: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    if backend == "asyncio":
        return asyncio.run(function(*args))
    if backend == "trio":
        import trio

        return trio.run(function, *args)
    import anyio

    return anyio.run(function, *args, backend=backend.split("-", 1)[1])


def on_asyncio(backend: str) -> bool:
    return backend.endswith("asyncio")


async def sleep(seconds: float) -> None:
    import sniffio

    if sniffio.current_async_library() == "trio":
        import trio

        await trio.sleep(seconds)
    else:
        await asyncio.sleep(seconds)


async def left_at_done(client: httpx.AsyncClient, url: str) -> bytes:
    """`async with client.stream()` left at [DONE] (closing the body)."""
    seen = b""
    async with client.stream("GET", url) as response:
        async for chunk in response.aiter_raw():
            seen += chunk
            if TERMINAL in seen:
                break
    return seen[: seen.index(TERMINAL) + len(TERMINAL)]


async def closed_at_done(client: httpx.AsyncClient, url: str) -> bytes:
    """The MCP SDK's shape: send(stream=True), read up to the reply, then `await response.aclose()`."""
    response = await client.send(client.build_request("GET", url), stream=True)
    seen = b""
    async for chunk in response.aiter_raw():
        seen += chunk
        if TERMINAL in seen:
            break
    await response.aclose()
    return seen[: seen.index(TERMINAL) + len(TERMINAL)]


async def settle(transport: AsyncDrainingTransport) -> None:
    """Lets background drains (asyncio) end; trio's ran inside aclose()."""
    await transport.wait_for_drains(HANG_GUARD)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", [left_at_done, closed_at_done], ids=["stream() left", "aclose()"])
def test_an_early_aclose_costs_a_connection_per_call_and_the_transport_reuses_one(peer, backend, shape):
    async def calls(url: str, transport: Any) -> list:
        async with httpx.AsyncClient(transport=transport) as client:
            return [await shape(client, url) for _ in range(CALLS)]

    server = peer("end")
    plain = run(backend, calls, server.url, None)
    before = server.wait_for(lambda s: s["closedEarly"] + s["finished"] == CALLS)
    assert before["connections"] >= CALLS - 2

    server = peer("end")
    transport = AsyncDrainingTransport()
    drained = run(backend, calls, server.url, transport)
    after = server.stats()
    assert after["connections"] <= 2
    assert after["requests"] == CALLS
    assert drained == plain == [EVENTS] * CALLS
    assert transport.stats.drained >= CALLS - 2


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("mode", ["silent", "trickle"])
def test_a_body_that_does_not_end_is_closed_at_the_time_bound(peer, backend, mode):
    server = peer(mode)
    # On asyncio the drain runs in the background for `timeout`; on trio inside aclose() for min(timeout, wait).
    transport = AsyncDrainingTransport(timeout=0.3, wait=0.3)

    async def calls() -> list:
        async with httpx.AsyncClient(transport=transport) as client:
            results = []
            for _ in range(3):
                started = time.monotonic()
                results.append(await left_at_done(client, server.url))
                assert time.monotonic() - started < HANG_GUARD
            await settle(transport)
            return results

    assert run(backend, calls) == [EVENTS] * 3
    stats = server.wait_for(lambda s: s["closedEarly"] == 3)
    assert (stats["requests"], stats["closedEarly"]) == (3, 3)
    assert transport.stats.timed_out == 3


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("mode", ["flood", "endless-line"])
def test_a_body_that_floods_is_closed_at_the_byte_limit(peer, reads, backend, mode):
    server = peer(mode)
    # A time bound longer than the hang guard: only the byte limit can end these drains.
    transport = AsyncDrainingTransport(max_bytes=65536, timeout=60.0, wait=60.0)

    async def calls() -> None:
        async with httpx.AsyncClient(transport=transport) as client:
            for _ in range(3):
                started = time.monotonic()
                response = await client.send(client.build_request("GET", server.url), stream=True)
                network_stream = response.extensions["network_stream"]
                seen = b""
                async for chunk in response.aiter_raw():
                    seen += chunk
                    if TERMINAL in seen:
                        break
                at_close = reads.read_so_far(network_stream)
                await response.aclose()
                await settle(transport)
                assert time.monotonic() - started < HANG_GUARD
                assert reads.read_so_far(network_stream) - at_close <= 65536
                assert reads.after_terminal(network_stream) <= 65536 + 65536  # the limit + one read of httpcore's

    run(backend, calls)
    stats = server.wait_for(lambda s: s["closedEarly"] == 3)
    assert (stats["requests"], stats["closedEarly"]) == (3, 3)
    assert transport.stats.over_limit == 3
    assert transport.stats.largest <= 65536


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_reset_during_the_drain_never_reaches_the_caller(peer, backend):
    server = peer("reset", tail_delay_ms=20)
    transport = AsyncDrainingTransport(timeout=5.0, wait=2.0)

    async def calls() -> list:
        async with httpx.AsyncClient(transport=transport) as client:
            results = [await closed_at_done(client, server.url) for _ in range(3)]
            await settle(transport)
            results.append(await left_at_done(client, server.url))
            return results

    assert run(backend, calls) == [EVENTS] * 4
    assert server.stats()["requests"] == 4
    assert transport.stats.failed >= 3


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("mode", ["silent", "flood"])
def test_a_pool_of_one_connection_serves_the_next_call_after_a_bound(peer, backend, mode):
    """httpcore 0.16 leaves a connection checked out when a read is cancelled; bounded reads must not."""
    server = peer(mode)
    inner = httpx.AsyncHTTPTransport(limits=httpx.Limits(max_connections=1, max_keepalive_connections=1))
    transport = AsyncDrainingTransport(inner, timeout=0.2, wait=0.2)

    async def calls() -> list:
        async with httpx.AsyncClient(transport=transport, timeout=httpx.Timeout(10.0, pool=HANG_GUARD)) as client:
            return [await closed_at_done(client, server.url) for _ in range(3)]

    assert run(backend, calls) == [EVENTS] * 3
    assert server.stats()["requests"] == 3


def test_asyncio_aclose_returns_while_the_drain_goes_on_in_the_background(peer):
    server = peer("silent")
    transport = AsyncDrainingTransport(timeout=HANG_GUARD, wait=0.05)

    async def call() -> int:
        async with httpx.AsyncClient(transport=transport) as client:
            assert await closed_at_done(client, server.url) == EVENTS
            running = len([task for task in transport._drains if not task.done()])
            # Closing the client cancels the drain; its connection is closed as the early close would have.
            return running

    started = time.monotonic()
    assert run("asyncio", call) == 1
    assert time.monotonic() - started < HANG_GUARD
    assert transport.stats.cancelled == 1
    assert server.wait_for(lambda s: s["closedEarly"] == 1)["closedEarly"] == 1


def test_asyncio_a_caller_cancelled_in_aclose_leaves_the_drain_running(peer):
    server = peer("end", tail_delay_ms=50)
    transport = AsyncDrainingTransport(timeout=5.0, wait=1.0)

    async def calls() -> list:
        async with httpx.AsyncClient(transport=transport) as client:
            response = await client.send(client.build_request("GET", server.url), stream=True)
            seen = b""
            async for chunk in response.aiter_raw():
                seen += chunk
                if TERMINAL in seen:
                    break
            closing = asyncio.ensure_future(response.aclose())
            await asyncio.sleep(0)
            closing.cancel()
            with pytest.raises(asyncio.CancelledError):
                await closing
            await settle(transport)
            return [await left_at_done(client, server.url) for _ in range(2)]

    assert run("asyncio", calls) == [EVENTS] * 2
    assert transport.stats.drained >= 1
    assert server.stats()["connections"] == 1


@pytest.mark.skipif(not HAVE_TRIO, reason=NO_TRIO)
def test_trio_aclose_in_a_cancelled_scope_still_drains_and_the_pool_stays_usable(peer):
    import trio

    server = peer("end", tail_delay_ms=20)
    transport = AsyncDrainingTransport(timeout=1.0, wait=0.5)

    async def calls() -> list:
        async with httpx.AsyncClient(transport=transport) as client:
            with trio.CancelScope() as scope:
                response = await client.send(client.build_request("GET", server.url), stream=True)
                seen = b""
                async for chunk in response.aiter_raw():
                    seen += chunk
                    if TERMINAL in seen:
                        break
                scope.cancel()
                await response.aclose()
            return [await left_at_done(client, server.url) for _ in range(2)]

    assert run("trio", calls) == [EVENTS] * 2
    assert transport.stats.drained >= 1
    assert server.stats()["connections"] == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_nothing_is_delivered_after_aclose(peer, backend):
    server = peer("silent")
    transport = AsyncDrainingTransport(timeout=0.1, wait=0.1)

    async def call() -> list:
        response = await transport.handle_async_request(httpx.Request("GET", server.url))
        stream = response.stream
        iterator = stream.__aiter__()
        assert await iterator.__anext__()
        await stream.aclose()
        rest = [chunk async for chunk in stream]
        await stream.aclose()
        await settle(transport)
        await transport.aclose()
        return rest

    assert run(backend, call) == []
    assert transport.stats.timed_out == 1


def test_a_transport_without_a_network_stream_is_closed_as_before():
    def handler(request: httpx.Request) -> httpx.Response:
        response = httpx.Response(200, stream=httpx.ByteStream(b"data: 1\n\n" + TERMINAL + b": tail\n\n"))
        response.extensions = {"http_version": b"HTTP/1.1"}
        return response

    transport = AsyncDrainingTransport(httpx.MockTransport(handler))

    async def call() -> bytes:
        async with httpx.AsyncClient(transport=transport) as client:
            return await left_at_done(client, "http://example.invalid/")

    assert run("asyncio", call) == b"data: 1\n\n" + TERMINAL
    assert transport.stats.not_drained == 1


def test_the_bounds_are_checked():
    for bad in ({"max_bytes": -1}, {"timeout": "1"}, {"wait": -0.1}):
        with pytest.raises(ValueError):
            AsyncDrainingTransport(**bad)
