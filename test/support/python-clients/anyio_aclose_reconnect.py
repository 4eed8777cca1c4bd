"""Async SSE client (anyio) that closes the response on [DONE] and returns; a broken stream reconnects."""
import json

import anyio
import httpx


async def collect(client: httpx.AsyncClient, url: str, attempt: int = 0) -> list:
    messages = []
    try:
        async with client.stream("GET", url) as response:
            async for line in response.aiter_lines():
                line = line.rstrip("\r\n")
                if not line.startswith("data: "):
                    continue
                data = line[len("data: "):]
                if data == "[DONE]":
                    await response.aclose()
                    return messages
                messages.append(json.loads(data))
    except httpx.HTTPError:
        if attempt >= 2:
            raise
        await anyio.sleep(0.01)
        return await collect(client, url, attempt + 1)
    return messages
