"""Runs a Python client module's collect(client, url) in sequence over one httpx client.

    python-harness.py [--backend asyncio|trio|anyio-asyncio|anyio-trio] [--pool N] CLIENT_PATH URL CALLS [URL CALLS ...]

Prints one JSON line: {"runs": [{"results": [what each call returned], "ms": [each call's duration],
"bytes": [the bytes each call read from the network]}], "maxrss_kb": the process's peak memory}, one run
per URL, all over the same client. The bytes are counted where httpcore reads them: the pool's network
backend is wrapped, so every read of every connection (the drain's included) is counted as it returns. An async collect() runs under the backend (default asyncio),
a sync one with httpx.Client. The pool keeps one connection (`--pool N`: N), so a reused connection shows
as one, and a connection a cancelled read left checked out makes the next call fail (PoolTimeout)
instead of hanging; a larger pool lets a client that never closes its responses run on.
A module that imports httpx2 gets an httpx2 client. DRAINGUARD_CA_FILE: the certificate of a test's own
https server, trusted by the client. The stand-ins of python-standins/ are found when
the real httpx-sse and httpx2 are not installed.
"""

import importlib.util
import inspect
import json
import os
import sys
import time

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "python-standins"))

import httpx  # noqa: E402


def load(path):
    spec = importlib.util.spec_from_file_location("client_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


READ = {"bytes": 0}


class CountingStream:
    """A network stream whose reads are counted (a drain shadows this object's read, as it would the real one's)."""

    def __init__(self, stream):
        self._stream = stream

    def read(self, max_bytes, timeout=None):
        data = self._stream.read(max_bytes, timeout)
        READ["bytes"] += len(data)
        return data

    def start_tls(self, *args, **kwargs):
        return CountingStream(self._stream.start_tls(*args, **kwargs))

    def __getattr__(self, name):
        return getattr(self._stream, name)


class AsyncCountingStream(CountingStream):
    async def read(self, max_bytes, timeout=None):
        data = await self._stream.read(max_bytes, timeout)
        READ["bytes"] += len(data)
        return data

    async def start_tls(self, *args, **kwargs):
        return AsyncCountingStream(await self._stream.start_tls(*args, **kwargs))


class CountingBackend:
    def __init__(self, backend, stream):
        self._backend = backend
        self._stream = stream

    def connect_tcp(self, *args, **kwargs):
        return self._stream(self._backend.connect_tcp(*args, **kwargs))

    def __getattr__(self, name):
        return getattr(self._backend, name)


class AsyncCountingBackend(CountingBackend):
    async def connect_tcp(self, *args, **kwargs):
        return self._stream(await self._backend.connect_tcp(*args, **kwargs))


def count_reads(client, asynchronous):
    pool = client._transport._pool
    if asynchronous:
        pool._network_backend = AsyncCountingBackend(pool._network_backend, AsyncCountingStream)
    else:
        pool._network_backend = CountingBackend(pool._network_backend, CountingStream)
    return client


def peak_memory_kb():
    """The process's peak resident memory (VmHWM: ru_maxrss would carry over what the parent had when it forked)."""
    with open("/proc/self/status") as status:
        return next((int(line.split()[1]) for line in status if line.startswith("VmHWM:")), 0)


def main():
    args = sys.argv[1:]
    backend, pool = "asyncio", 1
    while args[0].startswith("--"):
        if args[0] == "--backend":
            backend = args[1]
        else:
            pool = int(args[1])
        args = args[2:]
    module = load(args[0])
    plan = [(args[i], int(args[i + 1])) for i in range(1, len(args), 2)]
    collect = module.collect
    library = getattr(module, "httpx2", httpx)
    options = dict(timeout=library.Timeout(10.0), limits=library.Limits(max_connections=pool, max_keepalive_connections=pool))
    if os.environ.get("DRAINGUARD_CA_FILE"):
        # An https server of the test's own: trust its certificate.
        import ssl

        options["verify"] = ssl.create_default_context(cafile=os.environ["DRAINGUARD_CA_FILE"])
    runs = []

    def record(call):
        for url, calls in plan:
            results, durations, read = [], [], []
            for _ in range(calls):
                started, before = time.perf_counter(), READ["bytes"]
                results.append(call(url))
                durations.append((time.perf_counter() - started) * 1000)
                read.append(READ["bytes"] - before)
            runs.append({"results": results, "ms": durations, "bytes": read})

    if inspect.iscoroutinefunction(collect):

        async def run():
            async with library.AsyncClient(**options) as client:
                count_reads(client, True)
                for url, calls in plan:
                    results, durations, read = [], [], []
                    for _ in range(calls):
                        started, before = time.perf_counter(), READ["bytes"]
                        results.append(await collect(client, url))
                        durations.append((time.perf_counter() - started) * 1000)
                        read.append(READ["bytes"] - before)
                    runs.append({"results": results, "ms": durations, "bytes": read})

        if backend == "asyncio":
            import asyncio

            asyncio.run(run())
        elif backend == "trio":
            import trio

            trio.run(run)
        else:
            import anyio

            anyio.run(run, backend=backend.split("-", 1)[1])
    else:
        with library.Client(**options) as client:
            count_reads(client, False)
            record(lambda url: collect(client, url))
    print(json.dumps({"runs": runs, "maxrss_kb": peak_memory_kb()}))


if __name__ == "__main__":
    main()
