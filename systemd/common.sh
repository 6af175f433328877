# Shared by install.sh and uninstall.sh (sourced, not run): paths, and doing or only printing a step.
# shellcheck shell=bash
# shellcheck disable=SC2034  # the variables are used by the scripts that source this file

PREFIX="${TOUCHLINE_PREFIX:-/opt/touchline}"
VENV="$PREFIX/venv"
SRC="$PREFIX/src"
CONF_DIR=/etc/touchline
STATE_DIR=/var/lib/touchline
UNIT_DIR=/etc/systemd/system
UNIT=touchline.service
SERVICE_USER=touchline
DEVICE_GROUPS=(spi i2c gpio dialout)
# Loaded at boot, before the service starts: the bus drivers and the USB serial drivers a hub needs.
BOOT_MODULES=(i2c-dev spidev cdc_acm usbserial)
I2C_BAUDRATE=400000
# What the installer takes from Debian: Python's venv, and the compiled modules PyPI has no wheel of everywhere.
APT_PACKAGES=(python3-venv python3-pil python3-spidev python3-smbus2 python3-cbor2 i2c-tools rsync)
DRY_RUN=0
NO_SYSTEMD=0

say() {
    printf '%s\n' "$*"
}

# Run a command, or with --dry-run print it (quoted so it can be pasted) and do nothing.
run() {
    if [ "$DRY_RUN" -eq 1 ]; then
        printf '+'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

need_root() {
    if [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
        say "Run this as root (sudo $0), or add --dry-run to see the steps without changing anything." >&2
        exit 1
    fi
}
