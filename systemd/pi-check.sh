#!/usr/bin/env bash
# Check that Touchline installs and runs on the Raspberry Pi OS releases people own: Debian Bookworm for arm64 (Pi 3,
# 4, 5, Zero 2 W on 64-bit) and armhf (the same boards on 32-bit), under qemu user emulation.
#
#   sudo systemd/pi-check.sh [ARCH...]      (make pi-check; ARCH is arm64 and/or armhf, default both)
#
# For each architecture: build a Debian Bookworm userland with mmdebstrap from Debian's packages (kept in
# $PI_CHECK_CACHE, default /var/cache/touchline/pi-check, and reused while the installer's package list is the
# same), install Touchline in it with `systemd/install.sh --no-systemd` as an owner would (apt, the touchline
# user, the virtual environment, pip from PyPI), start `touchline run --sim` in it and fetch the page.
# Prints the time each step took. Needs root, mmdebstrap, qemu-user-static and binfmt-support (apt-get install
# mmdebstrap qemu-user-static binfmt-support); mounts binfmt_misc when it is not mounted.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
# shellcheck source=systemd/common.sh
. "$here/common.sh"
cache="${PI_CHECK_CACHE:-/var/cache/touchline/pi-check}"
mirror="${PI_CHECK_MIRROR:-http://deb.debian.org/debian}"
page_timeout="${PI_CHECK_PAGE_TIMEOUT:-300}"
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(arm64 armhf)

if [ "$(id -u)" -ne 0 ]; then
    say "pi-check builds and enters chroots: run it as root (sudo make pi-check)." >&2
    exit 1
fi
for tool in mmdebstrap qemu-aarch64-static qemu-arm-static update-binfmts curl; do
    if ! command -v "$tool" >/dev/null; then
        say "pi-check needs $tool: apt-get install mmdebstrap qemu-user-static binfmt-support curl" >&2
        exit 1
    fi
done

# --- qemu through binfmt_misc: the kernel runs ARM binaries with qemu, also inside the chroot (flag F) -------------
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
for arch in "${archs[@]}"; do
    case "$arch" in
        arm64) format=qemu-aarch64; model=pi4 ;;
        armhf) format=qemu-arm; model=zero2w ;;
        *) say "pi-check knows arm64 and armhf, not $arch." >&2; exit 2 ;;
    esac
    if ! grep -qx enabled "/proc/sys/fs/binfmt_misc/$format" 2>/dev/null; then
        update-binfmts --enable "$format"
    fi
done

seconds() { date +%s; }
took() { local s=$(( $2 - $1 )); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

mounted=()
root=""
server=""
cleanup() {
    # The server runs in a session of its own (setsid): chroot, runuser and the emulated Python are stopped together.
    if [ -n "$server" ]; then
        kill -TERM -- "-$server" 2>/dev/null || true
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$server" 2>/dev/null || break; sleep 1; done
        kill -KILL -- "-$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    local i
    for (( i=${#mounted[@]}-1; i>=0; i-- )); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
    mounted=()
    if [ -n "$root" ]; then rm -rf --one-file-system "$root"; fi
    root=""
    server=""
}
trap cleanup EXIT

mkdir -p "$cache"
packages="ca-certificates,passwd,$(IFS=,; printf '%s' "${APT_PACKAGES[*]}")"
summary=()
failed=0
for arch in "${archs[@]}"; do
    case "$arch" in arm64) model=pi4 ;; armhf) model=zero2w ;; esac
    say "=== $arch (Debian Bookworm, as on a $model) ==="
    key="$(printf '%s %s %s' "$arch" "$packages" "$mirror" | cksum | cut -d' ' -f1)"
    userland="$cache/bookworm-$arch-$key.tar"
    start=$(seconds)
    if [ -f "$userland" ]; then
        built="cached"
    else
        say "Building the $arch userland (once; kept in $userland):"
        mmdebstrap --mode=root --format=tar --variant=minbase --arch="$arch" --include="$packages" bookworm \
            "$userland.part" "$mirror"
        mv "$userland.part" "$userland"
        built="built in $(took "$start" "$(seconds)")"
    fi
    root="$(mktemp -d /var/tmp/touchline-pi-check.XXXXXX)"
    tar -xf "$userland" -C "$root"
    # The userland trusts the same certificate authorities as this machine, and resolves names the same way.
    cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    mount -t proc proc "$root/proc"; mounted+=("$root/proc")
    mount --rbind /dev "$root/dev"; mounted+=("$root/dev")
    mount -t sysfs sysfs "$root/sys"; mounted+=("$root/sys")
    mkdir -p "$root/root/touchline"
    tar -C "$repo" --exclude=.git --exclude=.venv --exclude=__pycache__ --exclude=test-artifacts \
        --exclude=.pytest_cache --exclude=.hypothesis -cf - . | tar -C "$root/root/touchline" -xf -
    in_root() {
        chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
            LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
            SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt PIP_DEFAULT_TIMEOUT=180 "$@"
    }
    say "Installing Touchline as systemd/install.sh does (without systemd):"
    install_start=$(seconds)
    if ! in_root bash /root/touchline/systemd/install.sh --no-systemd --model "$model" --table four-seats-spi; then
        summary+=("$arch: userland $built; the installer FAILED after $(took "$install_start" "$(seconds)")")
        failed=1
        cleanup
        continue
    fi
    installed=$(seconds)
    port=$(( 18000 + RANDOM % 2000 ))
    say "Starting touchline run --sim on port $port:"
    setsid chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        runuser -u "$SERVICE_USER" -- /usr/bin/env -C "$STATE_DIR" "$VENV/bin/touchline" run --sim \
        --port "$port" --db "$STATE_DIR/pi-check.db" > "$root/tmp/touchline.log" 2>&1 &
    server=$!
    page=""
    deadline=$(( $(seconds) + page_timeout ))
    while [ "$(seconds)" -lt "$deadline" ] && kill -0 "$server" 2>/dev/null; do
        if page="$(curl -fsS --max-time 10 "http://127.0.0.1:$port/" 2>/dev/null)"; then break; fi
        page=""
        sleep 2
    done
    served=$(seconds)
    if printf '%s' "$page" | grep -q "Touchline"; then
        result="page served $(took "$installed" "$served") after start"
    else
        result="the page did NOT come within ${page_timeout} s; its log:"
        failed=1
        sed 's/^/    /' "$root/tmp/touchline.log" | tail -n 30
    fi
    machine="$(in_root uname -m)"
    # What the venv runs on: Debian's compiled modules, and the GPIO library (lgpio) under gpiozero and rpi-lgpio.
    versions="$(in_root "$VENV/bin/python" -c '
import importlib.metadata as m, platform
names = ("pillow", "spidev", "smbus2", "cbor2", "lgpio", "rpi-lgpio", "pydantic-core")
def version(name):
    try:
        return m.version(name)
    except m.PackageNotFoundError:
        return "missing"
print("Python", platform.python_version() + ",", ", ".join(n + " " + version(n) for n in names))' 2>&1)"
    summary+=("$arch ($machine; $versions): userland $built; install $(took "$install_start" "$installed"); $result")
    cleanup
done

say ""
say "pi-check:"
for line in "${summary[@]}"; do say "  $line"; done
exit "$failed"
