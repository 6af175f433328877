#!/usr/bin/env bash
# Make sure Debian's Chromium is present for the browser tests; install it when missing.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
echo "Chromium is missing; installing Debian's chromium package for the browser tests." >&2
if [ "$(id -u)" -eq 0 ]; then sudo_cmd=(); else sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core
