"""A generated client (Fern style): a nested generator returns at [DONE] inside the with that owns the response."""

import json

import httpx


def stream(client: httpx.Client, url: str):
    with client.stream("GET", url) as _response:

        def _iter():
            for _text in _response.iter_lines():
                _text = _text.rstrip("\r\n")
                if _text == "data: [DONE]":
                    return
                if _text.startswith("data: "):
                    yield json.loads(_text[len("data: ") :])

        yield from _iter()


def collect(client: httpx.Client, url: str) -> list:
    return list(stream(client, url))
