# drainguard_server(*flags) starts `drainguard serve` and returns its URL and a stats() reading its counts; after the
# test it stops every server it started. DRAINGUARD names the command (default `drainguard`, installed as
# docs/recipes/python-repository.md shows; e.g. DRAINGUARD="npx --yes --package=./drainguard-0.1.0.tgz drainguard").
import json
import os
import shlex
import signal
import subprocess
import urllib.request

import pytest


@pytest.fixture
def drainguard_server():
    servers = []

    def start(*flags):
        command = shlex.split(os.environ.get("DRAINGUARD", "drainguard"))
        # A process group of its own: through npx the server is a grandchild, which terminate() would leave running.
        servers.append(subprocess.Popen([*command, "serve", *flags], stdout=subprocess.PIPE, text=True, start_new_session=True))
        url = servers[-1].stdout.readline().strip()
        assert url, f"drainguard serve {' '.join(flags)} did not start"
        return url, lambda: json.load(urllib.request.urlopen(f"{url}/__drainguard/stats"))

    yield start
    for server in servers:
        os.killpg(server.pid, signal.SIGTERM)  # the command and everything it started (POSIX)
        server.wait()
        server.stdout.close()
