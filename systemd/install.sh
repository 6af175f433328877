#!/usr/bin/env bash
# Install Touchline as a service on Raspberry Pi OS Bookworm (Pi 3, Pi 4, Pi 5, Zero 2 W).
#
#   sudo systemd/install.sh [--table four-seats-spi|four-seats-hub|FILE] [--model pi3|pi4|pi5|zero2w]
#   systemd/install.sh --dry-run ...   print every step, change nothing (no root needed)
#   sudo systemd/install.sh --no-systemd ...   everything but the boot settings and the service (a container)
#   sudo systemd/install.sh --uninstall [--purge]
#
# Enables SPI (with three chip selects on SPI1) and I2C at 400 kHz, loads the bus and USB serial modules at
# boot, creates the `touchline` user in the spi, i2c, gpio and dialout groups, builds a virtual environment
# in /opt/touchline that uses Debian's Pillow, spidev, smbus2 and cbor2 (so nothing is compiled, on 64-bit
# and 32-bit Raspberry Pi OS alike) with rpi-lgpio (never RPi.GPIO, which does not work on a Pi 5) and
# mfrc522 without its RPi.GPIO dependency, installs the table file in /etc/touchline, installs and starts
# the unit, and prints the PIN of the page.
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
        --no-systemd) NO_SYSTEMD=1 ;;
        --print-apt-packages) printf '%s\n' "${APT_PACKAGES[@]}"; exit 0 ;;
        --table) table="${2:?--table needs a name or a file}"; shift ;;
        --model) model="${2:?--model needs pi3, pi4, pi5 or zero2w}"; shift ;;
        --boot-config) boot_config="${2:?--boot-config needs a file}"; shift ;;
        --uninstall)
            shift
            if [ "$DRY_RUN" -eq 1 ]; then set -- --dry-run "$@"; fi
            exec "$here/uninstall.sh" "$@" ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
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
if [ "$DRY_RUN" -eq 0 ] && [ "$NO_SYSTEMD" -eq 0 ] && [ ! -f "$boot_config" ]; then
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
if [ "$NO_SYSTEMD" -eq 0 ]; then
    say "Enabling SPI (SPI1 with three chip selects) and I2C at 400 kHz:"
    # What `raspi-config nonint do_spi 0` / `do_i2c 0` do, plus the second SPI bus that raspi-config does not offer;
    # written here so that we know whether anything changed, and so whether a reboot is needed.
    enable_line "dtparam=spi=on"
    enable_line "dtparam=i2c_arm=on"
    enable_line "dtoverlay=spi1-3cs"
    # A whole screen is 1,024 bytes: about 93 ms on the wire at the default 100 kHz, 23 ms at 400 kHz.
    enable_line "dtparam=i2c_arm_baudrate=$I2C_BAUDRATE"
fi
# The unit's DeviceAllow=char-ttyACM/char-ttyUSB/char-spi/char-i2c are looked up in /proc/devices when the service
# starts: a module loaded later (a hub plugged in after boot loads cdc_acm) would never be allowed. Load them all at boot.
modules_file=/etc/modules-load.d/touchline.conf
if [ "$(cat "$modules_file" 2>/dev/null || true)" != "$(printf '%s\n' "${BOOT_MODULES[@]}")" ]; then
    if [ "$DRY_RUN" -eq 1 ]; then
        say "+ write '${BOOT_MODULES[*]}' to $modules_file"
    else
        install -d /etc/modules-load.d
        printf '%s\n' "${BOOT_MODULES[@]}" > "$modules_file"
    fi
fi
if [ "$NO_SYSTEMD" -eq 0 ]; then
    for module in "${BOOT_MODULES[@]}"; do
        run modprobe "$module"
    done
fi

# --- packages, user, virtual environment ---------------------------------------------------------------------------
say "Installing system packages:"
run apt-get update -q
run apt-get install -y -q "${APT_PACKAGES[@]}"
# lgpio (under rpi-lgpio's RPi.GPIO and gpiozero) is in the Raspberry Pi OS archive; plain Debian has none.
lgpio_from_apt=0
if apt-cache show python3-lgpio >/dev/null 2>&1; then
    run apt-get install -y -q python3-lgpio
    lgpio_from_apt=1
fi

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
# The venv sees Debian's packages: Pillow has no 32-bit ARM wheel on PyPI (it would need a compiler and image
# headers), and neither has spidev; the constraints keep pip from replacing them or pulling cbor2 6 (Rust).
run python3 -m venv --system-site-packages "$VENV"
run "$VENV/bin/python" -m pip install --quiet --upgrade pip
# The [pi] extra of pyproject.toml, spelled out: rpi-lgpio provides the RPi.GPIO module on lgpio, which works
# on every Pi including the 5 (RPi.GPIO itself does not); a venv left by an older install may still hold RPi.GPIO.
run "$VENV/bin/python" -m pip uninstall --yes --quiet RPi.GPIO
run "$VENV/bin/python" -m pip install --quiet --constraint "$here/pi-constraints.txt" "$SRC" "spidev>=3.6" "smbus2>=0.4"
if [ "$lgpio_from_apt" -eq 1 ]; then
    run "$VENV/bin/python" -m pip install --quiet --constraint "$here/pi-constraints.txt" "rpi-lgpio>=0.6"
elif ! run "$VENV/bin/python" -m pip install --quiet --only-binary :all: --constraint "$here/pi-constraints.txt" \
        "rpi-lgpio>=0.6"; then
    say "No lgpio for this system (python3-lgpio is in the Raspberry Pi OS archive, and PyPI has no wheel for it here):"
    say "  the buttons, LEDs and reader reset lines cannot be driven until python3-lgpio is installed."
fi
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
if [ "$NO_SYSTEMD" -eq 1 ]; then
    say "  --no-systemd: the unit is in place but not enabled or started; start it with: $VENV/bin/touchline run --table $CONF_DIR/table.toml"
elif [ "$reboot_needed" -eq 1 ]; then
    run systemctl daemon-reload
    run systemctl enable "$UNIT"
    say "SPI or I2C was just enabled: reboot (sudo reboot) and Touchline starts by itself."
else
    run systemctl daemon-reload
    run systemctl enable --now "$UNIT"
fi

say "The PIN that unlocks changes on the page:"
run runuser -u "$SERVICE_USER" -- "$VENV/bin/touchline" pin --db "$STATE_DIR/touchline.db"
say "Done. The page: http://$(hostname).local:8000/   The log: journalctl -u touchline -f"
