#!/usr/bin/env bash
# Create the virtual environment and install Touchline with its test tools.
# Usage: scripts/bootstrap.sh VENV_DIR
set -euo pipefail
venv="${1:-.venv}"
python="${PYTHON:-python3}"

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "Touchline needs Python 3.11 or newer; $python is $("$python" --version 2>&1)." >&2
    exit 1
fi

if ! "$python" -m venv "$venv" 2>/dev/null; then
    # Debian ships venv separately; install it when we are allowed to.
    echo "python3-venv is missing; installing it." >&2
    if [ "$(id -u)" -eq 0 ]; then sudo_cmd=(); else sudo_cmd=(sudo); fi
    "${sudo_cmd[@]}" apt-get update -q
    "${sudo_cmd[@]}" apt-get install -y -q python3-venv
    rm -rf "$venv"
    "$python" -m venv "$venv"
fi

"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet -e '.[dev]'
# mfrc522's metadata asks for RPi.GPIO, which does not work on a Pi 5 and cannot be used
# off a Pi: install the package alone (see drivers/rfid and systemd/install.sh).
"$venv/bin/python" -m pip install --quiet --no-deps 'mfrc522==0.0.7'
