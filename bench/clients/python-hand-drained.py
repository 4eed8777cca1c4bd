"""Bench client (httpx, async), drained by hand: after [DONE] it keeps reading to EOF and ignores the rest."""
import json

import httpx


async def collect(client: httpx.AsyncClient, url: str) -> list:
    messages = []
    finished = False
    async with client.stream("GET", url) as response:
        async for line in response.aiter_lines():
            line = line.rstrip("\r\n")
            if finished or not line.startswith("data: "):
                continue
            data = line[len("data: "):]
            if data == "[DONE]":
                finished = True
                continue
            messages.append(json.loads(data))
    return messages
