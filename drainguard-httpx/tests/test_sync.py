"""DrainingTransport against a real server that counts connections: reuse after an early close, each
hostile body after the terminal event, the bounds, the fallbacks."""

from __future__ import annotations

import time

import httpx
import pytest

from conftest import HANG_GUARD, TERMINAL
from drainguard_httpx import DrainingTransport

CALLS = 20
EVENTS = b'id: 0\ndata: {"index":0,"text":"event 0"}\n\nid: 1\ndata: {"index":1,"text":"event 1"}\n\n' + TERMINAL


def left_at_done(client: httpx.Client, url: str) -> bytes:
    """The shape of an SDK's stream: read up to [DONE], then leave `with client.stream()` (closing the body)."""
    seen = b""
    with client.stream("GET", url) as response:
        for chunk in response.iter_raw():
            seen += chunk
            if TERMINAL in seen:
                break
    return seen[: seen.index(TERMINAL) + len(TERMINAL)]


def closed_at_done(client: httpx.Client, url: str) -> bytes:
    """openai-python's Stream: send(stream=True), read up to [DONE], then response.close()."""
    response = client.send(client.build_request("GET", url), stream=True)
    seen = b""
    for chunk in response.iter_raw():
        seen += chunk
        if TERMINAL in seen:
            break
    response.close()
    return seen[: seen.index(TERMINAL) + len(TERMINAL)]


@pytest.mark.parametrize("shape", [left_at_done, closed_at_done], ids=["with client.stream() left", "close()"])
def test_an_early_close_costs_a_connection_per_call_and_the_transport_reuses_one(peer, shape):
    server = peer("end")
    with httpx.Client() as client:
        plain = [shape(client, server.url) for _ in range(CALLS)]
    before = server.wait_for(lambda s: s["closedEarly"] + s["finished"] == CALLS)
    assert before["connections"] >= CALLS - 2
    assert before["requests"] == CALLS

    server = peer("end")
    transport = DrainingTransport()
    with httpx.Client(transport=transport) as client:
        drained = [shape(client, server.url) for _ in range(CALLS)]
    after = server.stats()
    assert after["connections"] <= 2
    assert after["requests"] == CALLS
    assert drained == plain == [EVENTS] * CALLS
    assert transport.stats.drained >= CALLS - 2
    assert transport.stats.timed_out + transport.stats.over_limit + transport.stats.failed + transport.stats.not_drained == 0


def test_a_body_read_to_its_end_is_not_touched(peer):
    server = peer("end")
    transport = DrainingTransport()
    with httpx.Client(transport=transport) as client:
        bodies = [client.get(server.url).content for _ in range(5)]
    assert bodies == [EVENTS] * 5
    assert server.stats()["connections"] == 1
    assert transport.stats.as_dict() == {"drained": 0, "timed_out": 0, "over_limit": 0, "failed": 0, "cancelled": 0, "not_drained": 0, "bytes_read": 0, "largest": 0}


@pytest.mark.parametrize("mode", ["silent", "trickle"])
def test_a_body_that_does_not_end_is_closed_at_the_time_bound(peer, mode):
    server = peer(mode)
    transport = DrainingTransport(timeout=5.0, wait=0.2)
    with httpx.Client(transport=transport) as client:
        for _ in range(3):
            started = time.monotonic()
            assert left_at_done(client, server.url) == EVENTS
            assert time.monotonic() - started < HANG_GUARD
    stats = server.wait_for(lambda s: s["closedEarly"] == 3)
    assert (stats["requests"], stats["closedEarly"]) == (3, 3)
    assert transport.stats.timed_out == 3


@pytest.mark.parametrize("mode", ["flood", "endless-line"])
def test_a_body_that_floods_is_closed_at_the_byte_limit(peer, reads, mode):
    server = peer(mode)
    # A time bound longer than the hang guard: only the byte limit can end these drains.
    transport = DrainingTransport(max_bytes=65536, timeout=60.0, wait=60.0)
    with httpx.Client(transport=transport) as client:
        for _ in range(3):
            started = time.monotonic()
            request = client.build_request("GET", server.url)
            response = client.send(request, stream=True)
            network_stream = response.extensions["network_stream"]
            seen = b""
            for chunk in response.iter_raw():
                seen += chunk
                if TERMINAL in seen:
                    break
            at_close = reads.read_so_far(network_stream)
            response.close()
            assert time.monotonic() - started < HANG_GUARD
            assert reads.read_so_far(network_stream) - at_close <= 65536
            assert reads.after_terminal(network_stream) <= 65536 + 65536  # the limit + one read of httpcore's
    stats = server.wait_for(lambda s: s["closedEarly"] == 3)
    assert (stats["requests"], stats["closedEarly"]) == (3, 3)
    assert transport.stats.over_limit == 3
    assert transport.stats.largest <= 65536


def test_a_reset_during_the_drain_never_reaches_the_caller(peer):
    server = peer("reset", tail_delay_ms=20)
    transport = DrainingTransport(timeout=5.0, wait=2.0)
    with httpx.Client(transport=transport) as client:
        results = [left_at_done(client, server.url) for _ in range(3)]
        # The client still works after the resets.
        assert left_at_done(client, server.url) == EVENTS
    assert results == [EVENTS] * 3
    assert server.stats()["requests"] == 4
    assert transport.stats.failed >= 3


def test_nothing_is_delivered_after_close(peer):
    server = peer("silent")
    with DrainingTransport(wait=0.1) as transport:
        response = transport.handle_request(httpx.Request("GET", server.url))
        stream = response.stream
        first = next(iter(stream))
        assert first
        stream.close()
        assert list(stream) == []
        stream.close()  # a second close does nothing
    assert transport.stats.timed_out == 1


def test_a_transport_without_a_network_stream_is_closed_as_before():
    def handler(request: httpx.Request) -> httpx.Response:
        response = httpx.Response(200, stream=httpx.ByteStream(b"data: 1\n\n" + TERMINAL + b": tail\n\n"))
        response.extensions = {"http_version": b"HTTP/1.1"}
        return response

    transport = DrainingTransport(httpx.MockTransport(handler))
    with httpx.Client(transport=transport) as client:
        assert left_at_done(client, "http://example.invalid/") == b"data: 1\n\n" + TERMINAL
    assert transport.stats.not_drained == 1


def test_an_http2_response_passes_through_untouched():
    inner_stream = httpx.ByteStream(b"data: 1\n\n")

    def handler(request: httpx.Request) -> httpx.Response:
        response = httpx.Response(200, stream=inner_stream)
        response.extensions = {"http_version": b"HTTP/2", "network_stream": object()}
        return response

    transport = DrainingTransport(httpx.MockTransport(handler))
    response = transport.handle_request(httpx.Request("GET", "http://example.invalid/"))
    assert response.stream is inner_stream


def test_the_bounds_are_checked():
    for bad in ({"max_bytes": -1}, {"max_bytes": 1.5}, {"timeout": -1}, {"wait": float("nan")}, {"max_bytes": True}):
        with pytest.raises(ValueError):
            DrainingTransport(**bad)


def test_the_connection_gets_tcp_nodelay(peer):
    """httpcore 0.16's sync backend leaves Nagle on: a reused connection's request body would wait for a delayed ACK."""
    import socket

    server = peer("end")
    with httpx.Client(transport=DrainingTransport()) as client:
        with client.stream("POST", server.url, content=b"{}") as response:
            sock = response.extensions["network_stream"].get_extra_info("socket")
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
            response.read()
