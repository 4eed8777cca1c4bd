"""A stand-in for httpx2 (see ../README.md): httpx, with httpx2's EventSource and AsyncClient.sse()."""

from contextlib import asynccontextmanager

import httpx
from httpx import *  # noqa: F401,F403
from httpx_sse import EventSource, ServerSentEvent  # noqa: F401


class AsyncClient(httpx.AsyncClient):
    @asynccontextmanager
    async def sse(self, url, **kwargs):
        headers = {**kwargs.pop("headers", {}), "Accept": "text/event-stream", "Cache-Control": "no-store"}
        async with self.stream("GET", url, headers=headers, **kwargs) as response:
            yield EventSource(response)


class Client(httpx.Client):
    pass
