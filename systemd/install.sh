#!/usr/bin/env bash
# Install Touchline as a service on Raspberry Pi OS Bookworm (Pi 3, Pi 4, Pi 5, Zero 2 W).
#
#   sudo systemd/install.sh [--table four-seats-spi|four-seats-hub|FILE] [--model pi3|pi4|pi5|zero2w]
#   systemd/install.sh --dry-run ...   print every step, change nothing (no root needed)
#   sudo systemd/install.sh --uninstall [--purge]
#
# Enables SPI (with three chip selects on SPI1) and I2C, creates the `touchline` user in the spi, i2c, gpio
# and dialout groups, builds a virtual environment in /opt/touchline with rpi-lgpio (never RPi.GPIO, which
# does not work on a Pi 5) and mfrc522 without its RPi.GPIO dependency, installs the table file in
# /etc/touchline, installs and starts the unit, and prints the PIN of the page.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=systemd/common.sh
. "$here/common.sh"
repo="$(dirname "$here")"

table="four-seats-spi"
model=""
boot_config=""
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --table) table="${2:?--table needs a name or a file}"; shift ;;
        --model) model="${2:?--model needs pi3, pi4, pi5 or zero2w}"; shift ;;
        --boot-config) boot_config="${2:?--boot-config needs a file}"; shift ;;
        --uninstall)
            shift
            if [ "$DRY_RUN" -eq 1 ]; then set -- --dry-run "$@"; fi
            exec "$here/uninstall.sh" "$@" ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) say "Unknown option $1; see $0 --help." >&2; exit 2 ;;
    esac
    shift
done
need_root

# --- which Pi, which system ---------------------------------------------------------------------------------------
if [ -z "$model" ]; then
    description=""
    if [ -r /proc/device-tree/model ]; then description="$(tr -d '\0' < /proc/device-tree/model)"; fi
    case "$description" in
        *"Raspberry Pi 5"*) model=pi5 ;;
        *"Raspberry Pi 4"*|*"Compute Module 4"*) model=pi4 ;;   # also matches the Pi 400
        *"Raspberry Pi 3"*) model=pi3 ;;
        *"Zero 2 W"*) model=zero2w ;;
        *) model=unknown ;;
    esac
fi
case "$model" in
    pi3|pi4|pi5|zero2w) say "Installing Touchline for a Raspberry Pi ($model)." ;;
    unknown) say "This does not look like a Raspberry Pi 3, 4, 5 or Zero 2 W; going on, but the readers may not answer." ;;
    *) say "Unknown --model $model: use pi3, pi4, pi5 or zero2w." >&2; exit 2 ;;
esac
if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    codename="$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")"
    if [ "$codename" != "bookworm" ]; then
        say "Note: made for Raspberry Pi OS Bookworm; this system is '${codename:-unknown}'."
    fi
fi

case "$table" in
    */*|*.toml) table_file="$table" ;;
    *) table_file="$repo/device/tables/$table.toml" ;;
esac
if [ ! -f "$table_file" ]; then
    say "No table file $table_file: use --table four-seats-spi, --table four-seats-hub, or the path of your own." >&2
    exit 2
fi

if [ -z "$boot_config" ]; then
    boot_config=/boot/firmware/config.txt   # Bookworm; older systems kept it in /boot
    [ -e "$boot_config" ] || [ ! -e /boot/config.txt ] || boot_config=/boot/config.txt
fi
if [ "$DRY_RUN" -eq 0 ] && [ ! -f "$boot_config" ]; then
    say "There is no $boot_config, so this is not Raspberry Pi OS: nothing was changed." >&2
    exit 1
fi

# --- SPI and I2C ---------------------------------------------------------------------------------------------------
reboot_needed=0
enable_line() {
    # Add a line to config.txt unless it is there already (a reboot loads it).
    if [ -f "$boot_config" ] && grep -qxF "$1" "$boot_config"; then
        say "  $1: already in $boot_config"
        return
    fi
    # Lines after a filter such as [cm5] apply to that model only: add ours under [all].
    local last_section=""
    if [ -f "$boot_config" ]; then last_section="$(grep -E '^\[[^]]*\]' "$boot_config" | tail -n 1 || true)"; fi
    if [ "$reboot_needed" -eq 0 ] && [ -n "$last_section" ] && [ "$last_section" != "[all]" ]; then
        if [ "$DRY_RUN" -eq 1 ]; then say "+ append '[all]' to $boot_config"; else printf '[all]\n' >> "$boot_config"; fi
    fi
    reboot_needed=1
    if [ "$DRY_RUN" -eq 1 ]; then
        say "+ append '$1' to $boot_config"
    else
        printf '%s\n' "$1" >> "$boot_config"
    fi
}
say "Enabling SPI (SPI1 with three chip selects) and I2C:"
# What `raspi-config nonint do_spi 0` / `do_i2c 0` do, plus the second SPI bus that raspi-config does not offer;
# written here so that we know whether anything changed, and so whether a reboot is needed.
enable_line "dtparam=spi=on"
enable_line "dtparam=i2c_arm=on"
enable_line "dtoverlay=spi1-3cs"
# /dev/i2c-1 appears only once the i2c-dev module is loaded.
if [ ! -f /etc/modules-load.d/touchline.conf ]; then
    if [ "$DRY_RUN" -eq 1 ]; then
        say "+ write 'i2c-dev' to /etc/modules-load.d/touchline.conf"
    else
        printf 'i2c-dev\n' > /etc/modules-load.d/touchline.conf
    fi
    run modprobe i2c-dev
fi

# --- packages, user, virtual environment ---------------------------------------------------------------------------
say "Installing system packages:"
run apt-get update -q
run apt-get install -y -q python3-venv python3-dev i2c-tools rsync

say "Creating the $SERVICE_USER user:"
for group in "${DEVICE_GROUPS[@]}"; do
    if ! getent group "$group" >/dev/null; then
        run groupadd --system "$group"
    fi
done
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod --append --groups "$(IFS=,; printf '%s' "${DEVICE_GROUPS[*]}")" "$SERVICE_USER"

say "Installing Touchline in $PREFIX:"
run install -d -m 0755 "$PREFIX" "$SRC"
run rsync -a --delete --exclude .git --exclude .venv --exclude '__pycache__' --exclude test-artifacts "$repo/" "$SRC/"
run python3 -m venv "$VENV"
run "$VENV/bin/python" -m pip install --quiet --upgrade pip
# The [pi] extra of pyproject.toml, spelled out: rpi-lgpio provides the RPi.GPIO module on lgpio, which works
# on every Pi including the 5 (RPi.GPIO itself does not); a venv left by an older install may still hold RPi.GPIO.
run "$VENV/bin/python" -m pip uninstall --yes --quiet RPi.GPIO
run "$VENV/bin/python" -m pip install --quiet "$SRC" "rpi-lgpio>=0.6" "spidev>=3.6" "smbus2>=0.4"
# mfrc522's metadata asks for RPi.GPIO: install it alone, so rpi-lgpio stays the only RPi.GPIO module.
run "$VENV/bin/python" -m pip install --quiet --no-deps "mfrc522==0.0.7"

say "Installing the table file and the unit:"
run install -d -m 0755 "$CONF_DIR"
if [ -e "$CONF_DIR/table.toml" ]; then
    say "  $CONF_DIR/table.toml exists: kept as it is."
else
    run install -m 0644 "$table_file" "$CONF_DIR/table.toml"
fi
run install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$STATE_DIR"
run install -m 0644 "$here/$UNIT" "$UNIT_DIR/$UNIT"
run systemctl daemon-reload

if [ "$reboot_needed" -eq 1 ]; then
    run systemctl enable "$UNIT"
    say "SPI or I2C was just enabled: reboot (sudo reboot) and Touchline starts by itself."
else
    run systemctl enable --now "$UNIT"
fi

say "The PIN that unlocks changes on the page:"
run runuser -u "$SERVICE_USER" -- "$VENV/bin/touchline" pin --db "$STATE_DIR/touchline.db"
say "Done. The page: http://$(hostname).local:8000/   The log: journalctl -u touchline -f"
