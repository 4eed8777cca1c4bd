"""Runs a Python client module's collect(client, url) in sequence over one httpx client.

    python-harness.py [--backend asyncio|trio|anyio-asyncio|anyio-trio] [--pool N] CLIENT_PATH URL CALLS [URL CALLS ...]

Prints one JSON line: {"runs": [{"results": [what each call returned], "ms": [each call's duration]}]},
one run per URL, all over the same client. An async collect() runs under the backend (default asyncio),
a sync one with httpx.Client. The pool keeps one connection (`--pool N`: N), so a reused connection shows
as one, and a connection a cancelled read left checked out makes the next call fail (PoolTimeout)
instead of hanging; a larger pool lets a client that never closes its responses run on.
A module that imports httpx2 gets an httpx2 client. The stand-ins of python-standins/ are found when
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
    runs = []

    def record(call):
        results, durations = [], []
        for url, calls in plan:
            for _ in range(calls):
                started = time.perf_counter()
                results.append(call(url))
                durations.append((time.perf_counter() - started) * 1000)
            runs.append({"results": results, "ms": durations})
            results, durations = [], []

    if inspect.iscoroutinefunction(collect):

        async def run():
            async with library.AsyncClient(**options) as client:
                for url, calls in plan:
                    results, durations = [], []
                    for _ in range(calls):
                        started = time.perf_counter()
                        results.append(await collect(client, url))
                        durations.append((time.perf_counter() - started) * 1000)
                    runs.append({"results": results, "ms": durations})

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
            record(lambda url: collect(client, url))
    print(json.dumps({"runs": runs}))


if __name__ == "__main__":
    main()
