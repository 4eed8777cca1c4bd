"""The async twin of the generated decoder: the flag is tested on the next chunk."""

import json

import httpx


async def stream_events(response: httpx.Response, sentinel=None):
    discard = False
    async for line in response.aiter_lines():
        if discard:
            await response.aclose()
            return
        line = line.rstrip("\r\n")
        if not line.startswith("data: "):
            continue
        data = line[len("data: ") :]
        if sentinel and data == sentinel:
            discard = True
            continue
        yield json.loads(data)


async def collect(client: httpx.AsyncClient, url: str) -> list:
    response = await client.send(client.build_request("GET", url), stream=True)
    try:
        return [item async for item in stream_events(response, "[DONE]")]
    finally:
        await response.aclose()
