"""Runs a Python client module's collect(client, url) N times in sequence over one httpx client.

    python-harness.py CLIENT_PATH URL CALLS

Prints one JSON line: {"results": [what each call returned], "ms": [each call's duration]}.
An async collect() runs under asyncio (anyio's cancel scopes work there too), a sync one with
httpx.Client. The pool keeps one connection per host, so a reused connection shows as one.
"""
import asyncio
import importlib.util
import inspect
import json
import sys
import time

import httpx


def load(path):
    spec = importlib.util.spec_from_file_location("client_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    path, url, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
    collect = load(path).collect
    results, durations = [], []
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    if inspect.iscoroutinefunction(collect):

        async def run():
            async with httpx.AsyncClient(timeout=30, limits=limits) as client:
                for _ in range(calls):
                    started = time.perf_counter()
                    results.append(await collect(client, url))
                    durations.append((time.perf_counter() - started) * 1000)

        asyncio.run(run())
    else:
        with httpx.Client(timeout=30, limits=limits) as client:
            for _ in range(calls):
                started = time.perf_counter()
                results.append(collect(client, url))
                durations.append((time.perf_counter() - started) * 1000)
    print(json.dumps({"results": results, "ms": durations}))


if __name__ == "__main__":
    main()
