"""[DONE] turned into StopIteration: the loop ends in except StopIteration and the response is never closed."""

import json

import httpx


def events(client: httpx.Client, url: str):
    response = client.send(client.build_request("GET", url), stream=True)
    lines = response.iter_lines()
    while True:
        try:
            line = next(lines).rstrip("\r\n")
            if line == "data: [DONE]":
                raise StopIteration
        except StopIteration:
            break
        if line.startswith("data: "):
            yield json.loads(line[len("data: ") :])


def collect(client: httpx.Client, url: str) -> list:
    return list(events(client, url))
