"""Bench client (httpx, async): closes the response right after [DONE], as the MCP Python SDK does after its reply."""
import json

import httpx


async def collect(client: httpx.AsyncClient, url: str) -> list:
    messages = []
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
    return messages
