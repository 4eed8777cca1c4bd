"""Sync SSE client: a generator stops at [DONE] and closes the response in finally."""
import json

import httpx


def events(response: httpx.Response):
    try:
        for line in response.iter_lines():
            line = line.rstrip("\r\n")
            if not line.startswith("data: "):
                continue
            data = line[len("data: "):]
            if data.startswith("[DONE]"):
                break
            yield json.loads(data)
    finally:
        response.close()


def collect(client: httpx.Client, url: str) -> list:
    response = client.send(client.build_request("GET", url), stream=True)
    return list(events(response))
