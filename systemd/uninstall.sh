#!/usr/bin/env bash
# Remove the Touchline service and its virtual environment.
#
#   sudo systemd/uninstall.sh [--purge] [--dry-run]
#
# Keeps the game log (/var/lib/touchline), the table file (/etc/touchline) and the touchline user unless
# --purge is given; leaves SPI and I2C enabled (other things may use them).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=systemd/common.sh
. "$here/common.sh"

purge=0
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --purge) purge=1 ;;
        -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
        *) say "Unknown option $1; see $0 --help." >&2; exit 2 ;;
    esac
    shift
done
need_root

if [ -e "$UNIT_DIR/$UNIT" ] || [ "$DRY_RUN" -eq 1 ]; then
    run systemctl disable --now "$UNIT"
    run rm -f "$UNIT_DIR/$UNIT"
    run systemctl daemon-reload
fi
run rm -rf "$PREFIX"
run rm -f /etc/modules-load.d/touchline.conf
run rm -rf /var/cache/touchline  # the deck the table kept between starts
if [ "$purge" -eq 1 ]; then
    run rm -rf "$STATE_DIR" "$CONF_DIR"
    if id "$SERVICE_USER" >/dev/null 2>&1 || [ "$DRY_RUN" -eq 1 ]; then
        run userdel "$SERVICE_USER"
    fi
    say "Touchline, its games and its table file are removed."
else
    say "Touchline is removed; the games in $STATE_DIR and the table file in $CONF_DIR are kept (--purge removes them)."
fi
