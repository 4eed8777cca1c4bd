"""A stand-in for httpx-sse (see ../README.md): the same reader, on Debian's httpx."""

from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import AsyncIterator, Iterator, Optional

import httpx


@dataclass(frozen=True)
class ServerSentEvent:
    event: str = "message"
    data: str = ""
    id: str = ""
    retry: Optional[int] = None


class _Decoder:
    def __init__(self) -> None:
        self.fields: dict = {}
        self.data: list = []

    def decode(self, line: str) -> Optional[ServerSentEvent]:
        line = line.rstrip("\r\n")
        if not line:
            if not self.fields and not self.data:
                return None
            sse = ServerSentEvent(
                event=self.fields.get("event", "message"),
                data="\n".join(self.data),
                id=self.fields.get("id", ""),
                retry=int(self.fields["retry"]) if "retry" in self.fields else None,
            )
            self.fields, self.data = {}, []
            return sse
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            self.data.append(value)
        elif name in ("event", "id", "retry"):
            self.fields[name] = value
        return None


class EventSource:
    def __init__(self, response: httpx.Response) -> None:
        self._response = response

    @property
    def response(self) -> httpx.Response:
        return self._response

    def iter_sse(self) -> Iterator[ServerSentEvent]:
        decoder = _Decoder()
        for line in self._response.iter_lines():
            sse = decoder.decode(line)
            if sse is not None:
                yield sse

    async def aiter_sse(self) -> AsyncIterator[ServerSentEvent]:
        decoder = _Decoder()
        async for line in self._response.aiter_lines():
            sse = decoder.decode(line)
            if sse is not None:
                yield sse

    # Each iteration reads the response afresh, as httpx2's EventSource does.
    def __iter__(self) -> Iterator[ServerSentEvent]:
        return self.iter_sse()

    def __aiter__(self) -> AsyncIterator[ServerSentEvent]:
        return self.aiter_sse()


@contextmanager
def connect_sse(client: httpx.Client, method: str, url: str, **kwargs):
    headers = {**kwargs.pop("headers", {}), "Accept": "text/event-stream", "Cache-Control": "no-store"}
    with client.stream(method, url, headers=headers, **kwargs) as response:
        yield EventSource(response)


@asynccontextmanager
async def aconnect_sse(client: httpx.AsyncClient, method: str, url: str, **kwargs):
    headers = {**kwargs.pop("headers", {}), "Accept": "text/event-stream", "Cache-Control": "no-store"}
    async with client.stream(method, url, headers=headers, **kwargs) as response:
        yield EventSource(response)
