"""The MCP SDK's main branch: httpx2's SSE reader iterated directly, the response closed after the reply."""

import json

import anyio
import httpx2
from httpx2 import EventSource


class Transport:
    def __init__(self) -> None:
        self.messages: list = []
        self.last_event_id = None

    async def _handle_sse_event(self, sse) -> bool:
        if sse.data == "[DONE]":
            return True
        self.messages.append(json.loads(sse.data))
        return False

    async def _handle_sse_response(self, response: httpx2.Response) -> None:
        try:
            event_source = EventSource(response)
            async for sse in event_source:
                is_complete = await self._handle_sse_event(sse)
                if is_complete:
                    await response.aclose()
                    return
        except Exception:
            self.messages.append("stream error")
        await anyio.sleep(0)


async def collect(client: httpx2.AsyncClient, url: str) -> list:
    transport = Transport()
    async with client.stream("GET", url) as response:
        await transport._handle_sse_response(response)
    return transport.messages
