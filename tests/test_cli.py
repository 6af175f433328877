"""The console script is installed and answers."""

import subprocess
import sys


def test_touchline_help_lists_run() -> None:
    out = subprocess.run([sys.executable, "-m", "device.cli", "--help"], capture_output=True, text=True, check=True)
    assert "run" in out.stdout
