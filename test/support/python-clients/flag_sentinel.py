"""A generated decoder (Speakeasy style): a flag is set at the sentinel and the response closed on it."""

import json

import httpx


def stream_events(response: httpx.Response, sentinel=None):
    discard = False
    for line in response.iter_lines():
        line = line.rstrip("\r\n")
        if not line.startswith("data: "):
            continue
        data = line[len("data: ") :]
        if sentinel and data == sentinel:
            discard = True
            break
        yield json.loads(data)
    if discard:
        response.close()
        return


def collect(client: httpx.Client, url: str) -> list:
    response = client.send(client.build_request("GET", url), stream=True)
    return list(stream_events(response, "[DONE]"))
