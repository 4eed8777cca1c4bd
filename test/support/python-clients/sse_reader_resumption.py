"""The MCP SDK's main branch, resumption stream: client.sse(), the reader iterated directly, break on the reply."""

import json

import anyio
import httpx2


async def collect(client: httpx2.AsyncClient, url: str) -> list:
    messages = []
    async with client.sse(url) as event_source:
        event_source.response.raise_for_status()
        async for sse in event_source:
            is_complete = sse.data == "[DONE]"
            if is_complete:
                await event_source.response.aclose()
                break
            messages.append(json.loads(sse.data))
    await anyio.sleep(0)
    return messages
