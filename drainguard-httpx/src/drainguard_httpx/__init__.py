"""drainguard-httpx: httpx transports that drain a streamed response closed before its end, so that its
HTTP/1.1 keep-alive connection goes back to the pool instead of being closed.

    import httpx
    from drainguard_httpx import DrainingTransport, AsyncDrainingTransport

    client = httpx.Client(transport=DrainingTransport())
    async_client = httpx.AsyncClient(transport=AsyncDrainingTransport())
"""

from ._async import AsyncDrainingTransport
from ._bounds import DrainStats
from ._sync import DrainingTransport

__all__ = ["AsyncDrainingTransport", "DrainStats", "DrainingTransport"]
__version__ = "0.1.0"
