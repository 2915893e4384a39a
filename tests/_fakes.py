"""Stand-ins shared by tests: what the tests fake, written once."""

from __future__ import annotations

import types


class FailingRay(types.ModuleType):
    """A ``ray`` whose ``init`` fails as Ray does under load: a long, multi-line error of ``kind``."""

    def __init__(self, kind: type[Exception] = ConnectionError, first_line: str = "Could not start the GCS"):
        super().__init__("ray")
        self.kind, self.first_line = kind, first_line

    def is_initialized(self):
        return False

    def init(self, **kwargs):
        raise self.kind(self.first_line + "\n" + "  File ray/_private/node.py\n" * 90)
