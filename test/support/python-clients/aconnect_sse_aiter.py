"""The MCP SDK's v1.x branch: aconnect_sse and aiter_sse(), the response closed after the reply."""

import json

import anyio
import httpx
from httpx_sse import aconnect_sse


async def collect(client: httpx.AsyncClient, url: str) -> list:
    messages = []
    async with aconnect_sse(client, "GET", url) as event_source:
        async for sse in event_source.aiter_sse():
            is_complete = sse.data == "[DONE]"
            if is_complete:
                await event_source.response.aclose()
                break
            messages.append(json.loads(sse.data))
    await anyio.sleep(0)
    return messages
