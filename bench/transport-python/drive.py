"""One run of `npm run bench:transport-python`: N sequential calls of an SDK's streaming call against a URL,
with the SDK's own HTTP client or with drainguard-httpx's transport under it, no line of the SDK changed.

    drive.py '{"client": ..., "level": "sdk"|"functions", "source": CLONE, "url": URL, "calls": N,
               "transport": true|false, "exercise": PATH, "mcpVersion": "1.29.0"}'

client:
  openai-sync / openai-async  openai-python (2.x, on httpx). level "sdk": the SDK imported from its clone,
        `OpenAI(base_url=URL, http_client=DefaultHttpxClient(transport=DrainingTransport()))`,
        `client.chat.completions.create(..., stream=True)` iterated to its end (AsyncOpenAI with
        DefaultAsyncHttpxClient and AsyncDrainingTransport on asyncio). level "functions": the clone's
        src/openai/_streaming.py as written (`Stream`/`AsyncStream`), loaded by the SDK suites'
        exercise.py with its two sibling imports stood in, over an httpx client made here.
  mcp   the MCP python-sdk (v1.x, on httpx). level "sdk": `streamablehttp_client(URL,
        httpx_client_factory=...)` and `ClientSession`: initialize, then N `call_tool("echo")`; the
        factory returns `httpx.AsyncClient(transport=AsyncDrainingTransport(), ...)` with MCP's own
        timeouts. Plain: the SDK's default factory. level "functions": StreamableHTTPTransport's
        `_handle_sse_response` as written (exercise.py), under `async with client.stream("POST", URL)`.

The SDK level needs the SDK's dependencies (pydantic, anyio >= 4, jiter, httpx-sse, ...) importable; the
clone's src/ is put on sys.path (MCP reads its own version from package metadata, so a bare
`mcp-<version>.dist-info` is made in a temporary directory: nothing of the SDK is changed or installed).

Prints one JSON line: {"results": [per call], "ms": [per call], "errors": [...], "stats": {...} | null}.
"""

import json
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "drainguard-httpx", "src"))

import httpx  # noqa: E402

from drainguard_httpx import AsyncDrainingTransport, DrainingTransport  # noqa: E402

CHAT = dict(model="drainguard-peer", messages=[{"role": "user", "content": "hi"}], stream=True)


def sdk_path(config):
    sys.path.insert(0, os.path.join(config["source"], "src"))
    if config["client"] == "mcp":
        meta = tempfile.mkdtemp(prefix="drainguard-mcp-meta-")
        info = os.path.join(meta, f"mcp-{config['mcpVersion']}.dist-info")
        os.mkdir(info)
        with open(os.path.join(info, "METADATA"), "w") as out:
            out.write(f"Metadata-Version: 2.1\nName: mcp\nVersion: {config['mcpVersion']}\n")
        sys.path.insert(0, meta)


def timed(calls, call, results, ms, errors):
    for _ in range(calls):
        started = time.perf_counter()
        try:
            results.append(call())
        except Exception as exc:  # an SDK error is a result of the run: reported, not raised
            results.append(None)
            errors.append(f"{type(exc).__name__}: {exc}")
        ms.append((time.perf_counter() - started) * 1000)


async def atimed(calls, call, results, ms, errors):
    for _ in range(calls):
        started = time.perf_counter()
        try:
            results.append(await call())
        except Exception as exc:
            results.append(None)
            errors.append(f"{type(exc).__name__}: {exc}")
        ms.append((time.perf_counter() - started) * 1000)


def main():
    config = json.loads(sys.argv[1])
    client, level, url, calls = config["client"], config["level"], config["url"], config["calls"]
    results, ms, errors = [], [], []
    transport = None

    if level == "sdk":
        sdk_path(config)
        if client == "openai-sync":
            import openai

            transport = DrainingTransport() if config["transport"] else None
            http_client = openai.DefaultHttpxClient(transport=transport) if transport else None
            sdk = openai.OpenAI(base_url=f"{url}/v1", api_key="sk-drainguard", max_retries=0, http_client=http_client)

            def call():
                stream = sdk.chat.completions.create(**CHAT)
                return "".join(chunk.choices[0].delta.content or "" for chunk in stream)

            timed(calls, call, results, ms, errors)
            sdk.close()
        elif client == "openai-async":
            import asyncio

            import openai

            async def run():
                nonlocal transport
                transport = AsyncDrainingTransport() if config["transport"] else None
                http_client = openai.DefaultAsyncHttpxClient(transport=transport) if transport else None
                sdk = openai.AsyncOpenAI(base_url=f"{url}/v1", api_key="sk-drainguard", max_retries=0, http_client=http_client)

                async def call():
                    stream = await sdk.chat.completions.create(**CHAT)
                    return "".join([chunk.choices[0].delta.content or "" async for chunk in stream])

                await atimed(calls, call, results, ms, errors)
                await sdk.close()

            asyncio.run(run())
        else:
            import anyio
            from mcp import ClientSession
            from mcp.client.streamable_http import streamablehttp_client
            from mcp.shared._httpx_utils import MCP_DEFAULT_SSE_READ_TIMEOUT, MCP_DEFAULT_TIMEOUT

            def draining_client_factory(headers=None, timeout=None, auth=None):
                return httpx.AsyncClient(
                    transport=transport,
                    headers=headers,
                    timeout=timeout or httpx.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT),
                    auth=auth,
                    follow_redirects=True,
                )

            async def run():
                nonlocal transport
                options = {}
                if config["transport"]:
                    transport = AsyncDrainingTransport()
                    options["httpx_client_factory"] = draining_client_factory
                async with streamablehttp_client(f"{url}/mcp", **options) as (read, write, _):
                    async with ClientSession(read, write) as session:
                        await session.initialize()

                        async def call():
                            result = await session.call_tool("echo", {})
                            return result.content[0].text

                        await atimed(calls, call, results, ms, errors)

            anyio.run(run)
    else:
        sys.path.insert(0, os.path.dirname(config["exercise"]))
        import exercise

        if client in ("openai-sync", "openai-async"):
            module = exercise.openai_module(os.path.join(config["source"], "src", "openai", "_streaming.py"))
            owner = exercise.OpenAIClient(module)
            body = {k: v for k, v in CHAT.items()}
            if client == "openai-sync":
                transport = DrainingTransport() if config["transport"] else None
                with httpx.Client(transport=transport) as http:

                    def call():
                        response = http.send(http.build_request("POST", f"{url}/v1/chat/completions", json=body), stream=True)
                        stream = module.Stream(cast_to=object, response=response, client=owner)
                        return "".join(chunk["choices"][0]["delta"].get("content") or "" for chunk in stream)

                    timed(calls, call, results, ms, errors)
            else:
                import asyncio

                async def run():
                    nonlocal transport
                    transport = AsyncDrainingTransport() if config["transport"] else None
                    async with httpx.AsyncClient(transport=transport) as http:

                        async def call():
                            response = await http.send(http.build_request("POST", f"{url}/v1/chat/completions", json=body), stream=True)
                            stream = module.AsyncStream(cast_to=object, response=response, client=owner)
                            return "".join([chunk["choices"][0]["delta"].get("content") or "" async for chunk in stream])

                        await atimed(calls, call, results, ms, errors)

                asyncio.run(run())
        else:
            import anyio

            path = os.path.join(config["source"], "src", "mcp", "client", "streamable_http.py")

            async def run():
                nonlocal transport
                transport = AsyncDrainingTransport() if config["transport"] else None
                Transport, _ = exercise.mcp_transport(path, url)
                methods = Transport()
                async with httpx.AsyncClient(transport=transport) as http:

                    async def call():
                        writer = exercise.Writer()
                        metadata = type("Metadata", (), {"resumption_token": None, "on_resumption_token_update": None})()
                        ctx = type("Ctx", (), {})()
                        ctx.client, ctx.session_id, ctx.metadata, ctx.read_stream_writer = http, None, metadata, writer
                        ctx.session_message = type("SessionMessage", (), {"message": exercise.JSONRPCRequest(1)})()
                        async with http.stream("POST", url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/call"}) as response:
                            await methods._handle_sse_response(response, ctx)
                        return len(writer.sent)

                    await atimed(calls, call, results, ms, errors)

            anyio.run(run)

    stats = transport.stats.as_dict() if transport is not None else None
    print(json.dumps({"results": results, "ms": ms, "errors": errors[:5], "stats": stats}))


if __name__ == "__main__":
    main()
