"""Calls the functions drainguard rewrote in a real SDK file, over one pooled httpx client, against a server.

    exercise.py --backend asyncio|trio|anyio-asyncio|anyio-trio KIND FILE SCENARIO URL CALLS [SCENARIO URL CALLS ...]

KIND `mcp`: FILE is the MCP SDK's src/mcp/client/streamable_http.py (main or v1.x). Its StreamableHTTPTransport
methods `_handle_sse_response` (scenario `sse_response`), `_handle_resumption_request` (`resumption`) and
`_handle_reconnection` (`reconnection`) run as written, with the module's imports (those that can be had
here), constants and drain helper; what needs the SDK's types is stood in for: `_handle_sse_event` hands each event's JSON to the read stream and
takes `[DONE]` as the JSON-RPC reply, the request is a JSONRPCRequest with id 1.
KIND `openai`: FILE is openai-python's src/openai/_streaming.py, imported whole as `openai._streaming` (its
two sibling imports stood in); `Stream` (scenario `stream`) and `AsyncStream` (`async_stream`) decode the
server's SSE and yield each event's JSON.

httpx2, httpx-sse and typing_extensions are the real packages when installed, else the stand-ins of
test/support/python-standins. Prints {"runs": [{"results": [each call's messages], "ms": [each call's duration],
"handover_ms": [when each call handed its last message on], "bytes": [the bytes each call read from the network]}],
"maxrss_kb": peak memory}, one run per scenario. A call's caller wait is what it took after it handed its last
message on: for MCP, when `_handle_sse_event` saw the reply (the SDK's session has it then); for openai, when
the stream yielded its last item (the consumer's loop ends only when the stream's does). The bytes are counted
where httpcore reads them (the pool's network backend is wrapped), so a drain's reads are counted as they return.
"""

import ast
import importlib
import json
import logging
import os
import sys
import tempfile
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.join(HERE, "..", "..", "test", "support", "python-standins"))

import anyio  # noqa: E402
import httpx  # noqa: E402

LIMITS = dict(max_connections=1, max_keepalive_connections=1)
READ = {"bytes": 0}
HANDOVER = {"at": None}


class CountingStream:
    def __init__(self, stream):
        self._stream = stream

    def read(self, max_bytes, timeout=None):
        data = self._stream.read(max_bytes, timeout)
        READ["bytes"] += len(data)
        return data

    def __getattr__(self, name):
        return getattr(self._stream, name)


class AsyncCountingStream(CountingStream):
    async def read(self, max_bytes, timeout=None):
        data = await self._stream.read(max_bytes, timeout)
        READ["bytes"] += len(data)
        return data


class CountingBackend:
    def __init__(self, backend, stream):
        self._backend = backend
        self._stream = stream

    def connect_tcp(self, *args, **kwargs):
        return self._stream(self._backend.connect_tcp(*args, **kwargs))

    def __getattr__(self, name):
        return getattr(self._backend, name)


class AsyncCountingBackend(CountingBackend):
    async def connect_tcp(self, *args, **kwargs):
        return self._stream(await self._backend.connect_tcp(*args, **kwargs))


def count_reads(client, asynchronous):
    pool = client._transport._pool
    pool._network_backend = (AsyncCountingBackend if asynchronous else CountingBackend)(pool._network_backend, AsyncCountingStream if asynchronous else CountingStream)
    return client


class JSONRPCRequest:
    def __init__(self, id):
        self.id = id

    @property
    def root(self):  # v1.x wraps messages in a pydantic RootModel
        return self


class Writer:
    def __init__(self):
        self.sent = []

    async def send(self, message):
        self.sent.append(message)


def mcp_transport(path, url):
    """StreamableHTTPTransport's methods from the file, on an object with the state they use."""
    tree = ast.parse(open(path).read())
    namespace = {"__name__": "streamable_http_under_test", "logger": logging.getLogger("mcp"), "JSONRPCRequest": JSONRPCRequest}
    namespace.update(anyio=anyio, httpx=httpx)
    library = httpx
    if any(isinstance(node, ast.Import) and any(alias.name == "httpx2" for alias in node.names) for node in tree.body):
        import httpx2

        library = httpx2
        namespace.update(httpx2=httpx2, EventSource=httpx2.EventSource)
    else:
        import httpx_sse

        namespace.update(EventSource=httpx_sse.EventSource, aconnect_sse=httpx_sse.aconnect_sse)
    kept = []
    for node in tree.body:
        if isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and node.level == 0):
            # The module's own imports, each where it can be had here (the SDK's own packages cannot).
            try:
                exec(compile(ast.fix_missing_locations(ast.Module(body=[node], type_ignores=[])), path, "exec"), namespace)
            except ImportError:
                pass
            continue
        constant = isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
        if constant or (isinstance(node, (ast.AsyncFunctionDef, ast.FunctionDef)) and node.name.startswith("_")):
            kept.append(node)
        elif isinstance(node, ast.ClassDef) and node.name in ("StreamableHTTPTransport", "ResumptionError", "StreamableHTTPError"):
            if node.name != "StreamableHTTPTransport":
                kept.append(node)
                continue
            methods = [item for item in node.body if isinstance(item, ast.AsyncFunctionDef) and item.name in ("_handle_sse_response", "_handle_resumption_request", "_handle_reconnection")]
            kept.append(ast.ClassDef(name="Methods", bases=[], keywords=[], body=methods, decorator_list=[], type_params=[]))
    module = ast.Module(body=[ast.ImportFrom(module="__future__", names=[ast.alias(name="annotations")], level=0), *kept], type_ignores=[])
    exec(compile(ast.fix_missing_locations(module), path, "exec"), namespace)

    class Transport(namespace["Methods"]):
        def __init__(self):
            self.url = url
            self.session_id = None
            self.abandoned = 0

        def _prepare_headers(self):
            return {}

        async def _handle_sse_event(self, sse, read_stream_writer, original_request_id=None, resumption_callback=None, is_initialization=False):
            if sse.data == "[DONE]":
                HANDOVER["at"] = time.perf_counter()
                return True
            await read_stream_writer.send(json.loads(sse.data))
            return False

        async def _resolve_abandoned_request(self, *args, **kwargs):
            self.abandoned += 1

    return Transport, library


async def mcp_call(path, scenario, url, client):
    Transport, _ = mcp_transport(path, url)
    transport = Transport()
    writer = Writer()
    metadata = types.SimpleNamespace(resumption_token="0", on_resumption_token_update=None)
    ctx = types.SimpleNamespace(client=client, session_id=None, session_message=types.SimpleNamespace(message=JSONRPCRequest(1)), metadata=metadata, read_stream_writer=writer)
    if scenario == "sse_response":
        async with client.stream("GET", url) as response:
            await transport._handle_sse_response(response, ctx)
    elif scenario == "resumption":
        await transport._handle_resumption_request(ctx)
    else:
        await transport._handle_reconnection(ctx, "0", 0)
    return writer.sent + (["abandoned"] * transport.abandoned)


def openai_module(path):
    """openai._streaming from the file, in a package of its own with its two sibling imports stood in."""
    root = tempfile.mkdtemp(prefix="openai-under-test-")
    package = os.path.join(root, "openai")
    os.mkdir(package)
    open(os.path.join(package, "__init__.py"), "w").close()
    with open(os.path.join(package, "_utils.py"), "w") as out:
        out.write("from collections.abc import Mapping\n\n\ndef is_mapping(value):\n    return isinstance(value, Mapping)\n\n\ndef extract_type_var_from_base(*args, **kwargs):\n    raise NotImplementedError\n")
    with open(os.path.join(package, "_exceptions.py"), "w") as out:
        out.write("class APIError(Exception):\n    def __init__(self, message, request=None, body=None):\n        super().__init__(message)\n")
    with open(os.path.join(package, "_streaming.py"), "w") as out:
        out.write(open(path).read())
    sys.path.insert(0, root)
    return importlib.import_module("openai._streaming")


class OpenAIClient:
    def __init__(self, module):
        self.module = module

    def _make_sse_decoder(self):
        return self.module.SSEDecoder()

    def _process_response_data(self, data, cast_to, response):
        return data


def handed_over(items):
    """Iterates a stream, noting when it yielded its last item."""
    for item in items:
        HANDOVER["at"] = time.perf_counter()
        yield item


async def ahanded_over(items):
    async for item in items:
        HANDOVER["at"] = time.perf_counter()
        yield item


def peak_memory_kb():
    """The process's peak resident memory (VmHWM: ru_maxrss would carry over what the parent had when it forked)."""
    with open("/proc/self/status") as status:
        return next((int(line.split()[1]) for line in status if line.startswith("VmHWM:")), 0)


def main():
    args = sys.argv[1:]
    backend = "asyncio"
    if args[0] == "--backend":
        backend, args = args[1], args[2:]
    kind, path, rest = args[0], args[1], args[2:]
    plan = [(rest[i], rest[i + 1], int(rest[i + 2])) for i in range(0, len(rest), 3)]
    runs = []
    timeout = dict(timeout=10.0)
    if kind == "openai":
        module = openai_module(path)
        library = sys.modules["httpx2"] if "httpx2" in sys.modules else httpx
        client_sync = count_reads(library.Client(limits=library.Limits(**LIMITS), **timeout), False)
    else:
        module = None
        _, library = mcp_transport(path, "")

    async def run_async():
        async with library.AsyncClient(limits=library.Limits(**LIMITS), **timeout) as client:
            count_reads(client, True)
            for scenario, url, calls in plan:
                results, durations, handovers, read = [], [], [], []
                for _ in range(calls):
                    started, before = time.perf_counter(), READ["bytes"]
                    HANDOVER["at"] = None
                    if kind == "mcp":
                        results.append(await mcp_call(path, scenario, url, client))
                    elif scenario == "async_stream":
                        response = await client.send(client.build_request("GET", url), stream=True)
                        stream = module.AsyncStream(cast_to=object, response=response, client=OpenAIClient(module))
                        results.append([item async for item in ahanded_over(stream)])
                    else:
                        response = client_sync.send(client_sync.build_request("GET", url), stream=True)
                        results.append(list(handed_over(module.Stream(cast_to=object, response=response, client=OpenAIClient(module)))))
                    ended = time.perf_counter()
                    durations.append((ended - started) * 1000)
                    handovers.append(((HANDOVER["at"] or ended) - started) * 1000)
                    read.append(READ["bytes"] - before)
                runs.append({"scenario": scenario, "results": results, "ms": durations, "handover_ms": handovers, "bytes": read})

    if backend == "asyncio":
        import asyncio

        asyncio.run(run_async())
    elif backend == "trio":
        import trio

        trio.run(run_async)
    else:
        anyio.run(run_async, backend=backend.split("-", 1)[1])
    print(json.dumps({"runs": runs, "maxrss_kb": peak_memory_kb()}))


if __name__ == "__main__":
    main()
