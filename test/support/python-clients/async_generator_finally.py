"""openai-python's AsyncStream: a generator breaks at [DONE], its finally closes the response."""

import json

import httpx


class AsyncStream:
    def __init__(self, response: httpx.Response) -> None:
        self.response = response

    async def _iter_events(self):
        async for line in self.response.aiter_lines():
            line = line.rstrip("\r\n")
            if line.startswith("data: "):
                yield line[len("data: ") :]

    async def __stream__(self):
        response = self.response
        iterator = self._iter_events()
        try:
            async for data in iterator:
                if data.startswith("[DONE]"):
                    break
                yield json.loads(data)
        finally:
            await response.aclose()


async def collect(client: httpx.AsyncClient, url: str) -> list:
    response = await client.send(client.build_request("GET", url), stream=True)
    return [item async for item in AsyncStream(response).__stream__()]
