"""trio code: the response is closed and the function returns on [DONE]."""

import json

import trio


async def collect(client, url: str) -> list:
    messages = []
    response = await client.send(client.build_request("GET", url), stream=True)
    async for line in response.aiter_lines():
        line = line.rstrip("\r\n")
        if not line.startswith("data: "):
            continue
        if line == "data: [DONE]":
            await response.aclose()
            return messages
        messages.append(json.loads(line[len("data: ") :]))
    await trio.sleep(0)
    return messages
