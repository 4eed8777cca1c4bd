"""Async SSE client (asyncio) that breaks out of the stream's async with on [DONE]."""
import asyncio
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
                break
            messages.append(json.loads(data))
    await asyncio.sleep(0)
    return messages
