"""The seed's shape, proved against `drainguard serve`: an httpx stream closed at `data: [DONE]` costs
a TCP connection per call; read on to its end (bounded) it reuses one; and the bounded drain returns
promptly from a body that trickles keep-alive comments after [DONE] instead of ending."""
import socket
import threading
import time

import httpx

CALLS = 10


def call_early_close(client, url):
    with client.stream("POST", url) as response:
        for line in response.iter_lines():
            if line.strip() == "data: [DONE]":
                break  # leaving `with` closes the response before its end


def call_drained(client, url, budget_s=1.0):
    with client.stream("POST", url) as response:
        lines = response.iter_lines()
        for line in lines:
            if line.strip() == "data: [DONE]":
                break
        # The fix: read the rest of the body from the same iterator; after budget_s, shut the socket
        # down (a timer calling response.close() would not unblock a blocked read).
        sock = response.extensions["network_stream"].get_extra_info("socket")
        timer = threading.Timer(budget_s, sock.shutdown, (socket.SHUT_RDWR,))
        timer.start()
        try:
            for _ in lines:
                pass
        except httpx.HTTPError:
            pass  # the budget's shutdown, or a connection error after the terminal event
        finally:
            timer.cancel()


def test_early_close_opens_a_connection_per_call(drainguard_server):
    url, stats = drainguard_server()
    with httpx.Client() as client:
        for _ in range(CALLS):
            call_early_close(client, url)
    assert stats()["connections"] == CALLS


def test_drained_calls_reuse_one_connection(drainguard_server):
    url, stats = drainguard_server()
    with httpx.Client() as client:
        for _ in range(CALLS):
            call_drained(client, url)
    assert stats() == {"connections": 1, "requests": CALLS, "closedEarly": 0, "finished": CALLS}


def test_drained_call_returns_promptly_from_a_trickling_body(drainguard_server):
    url, stats = drainguard_server("--mode", "trickle")
    with httpx.Client() as client:
        started = time.monotonic()
        call_drained(client, url, budget_s=0.5)
        assert time.monotonic() - started < 5  # a hang guard, not a latency target (the budget is 0.5 s)
    assert stats()["closedEarly"] == 1
