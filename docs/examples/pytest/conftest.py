# drainguard_server(*flags) starts `drainguard serve` and returns its URL and a stats() reading its counts.
import json
import os
import shlex
import subprocess
import urllib.request

import pytest


@pytest.fixture
def drainguard_server():
    servers = []

    def start(*flags):
        command = shlex.split(os.environ.get("DRAINGUARD", "npx drainguard"))
        servers.append(subprocess.Popen([*command, "serve", *flags], stdout=subprocess.PIPE, text=True))
        url = servers[-1].stdout.readline().strip()
        assert url, f"drainguard serve {' '.join(flags)} did not start"
        return url, lambda: json.load(urllib.request.urlopen(f"{url}/__drainguard/stats"))

    yield start
    for server in servers:
        server.terminate()
        server.wait()
