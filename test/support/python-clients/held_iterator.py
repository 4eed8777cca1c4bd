"""The lines iterator held in a name and read with __anext__(); the response closed after [DONE]."""

import json


async def collect(client, url: str) -> list:
    messages = []
    response = await client.send(client.build_request("GET", url), stream=True)
    lines = response.aiter_lines()
    while True:
        line = (await lines.__anext__()).rstrip("\r\n")
        if line == "data: [DONE]":
            await response.aclose()
            return messages
        if line.startswith("data: "):
            messages.append(json.loads(line[len("data: ") :]))
