"""Run a call that might block (reading a named pipe) in a thread, so that a test fails when it
blocks instead of hanging the suite."""

from __future__ import annotations

import threading
from typing import Any, Callable


def in_time(call: Callable[[], Any], seconds: float = 10.0) -> Any:
    """``call()``'s result; its exception raised again; an AssertionError if it has not returned
    within ``seconds``."""
    box: dict = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"blocked for {seconds} s"
    if "error" in box:
        raise box["error"]
    return box.get("value")
