"""A loop broken on the stop event; the caller closes the response after it."""

import json

import httpx


def read_until_stop(response: httpx.Response) -> list:
    messages = []
    for line in response.iter_lines():
        line = line.rstrip("\r\n")
        if not line.startswith("data: "):
            continue
        data = line[len("data: ") :]
        if data == "[DONE]":
            break
        messages.append(json.loads(data))
    return messages


def collect(client: httpx.Client, url: str) -> list:
    response = client.send(client.build_request("GET", url), stream=True)
    try:
        return read_until_stop(response)
    finally:
        response.close()
