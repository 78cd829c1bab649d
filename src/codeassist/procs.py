"""Child processes the project starts itself (a Chroma server, the Streamlit app) for tests and the bench."""

from __future__ import annotations

import subprocess


def stop(proc: subprocess.Popen, timeout: float = 20) -> None:
    """Terminate a child we started, by its PID; kill it if it does not exit within `timeout` seconds."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
