"""What the player service accepts from a client: sizes, nesting, time and connections."""

from __future__ import annotations

from dataclasses import dataclass

#: bytes in a MiB
MIB = 1 << 20


@dataclass(frozen=True)
class ServiceLimits:
    """The player service's limits. A jass-kit observation is about 2 kB, 3 levels deep, and a
    decision request is answered in milliseconds (``pimc`` in seconds).

    ``max_body``: bytes of a request body (413 above it); ``max_depth``: levels of arrays and
    objects nested in a body (400 above it; the observation itself is level 1);
    ``client_timeout``: seconds a client has to send each request's head (from connecting or from
    its last answer; the connection is closed after it) and then its body (408 after it), and that
    an idle connection is kept open; ``max_connections``: open connections and requests in
    progress (uvicorn answers 503 above it); ``backlog``: connections the system queues while
    the server is busy accepting; ``max_head``: bytes of a request line and its headers (400 above
    it).
    """

    max_body: int = MIB
    max_depth: int = 32
    client_timeout: float = 5.0
    max_connections: int = 256
    backlog: int = 1024
    max_head: int = 16 * 1024

    def __post_init__(self) -> None:
        for field in ("max_body", "max_depth", "max_connections", "backlog", "max_head"):
            if getattr(self, field) < 1:
                raise ValueError(f"ServiceLimits.{field} must be at least 1, got {getattr(self, field)!r}")
        if not self.client_timeout > 0:
            raise ValueError(f"ServiceLimits.client_timeout must be above 0 seconds, "
                             f"got {self.client_timeout!r}")


#: the limits the command line serves with
DEFAULT_LIMITS = ServiceLimits()
