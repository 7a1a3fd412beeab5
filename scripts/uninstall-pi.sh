#!/usr/bin/env bash
# Remove Board Companion from a Raspberry Pi (what scripts/install-pi.sh put there).
#
#   sudo ./scripts/uninstall-pi.sh            remove the program; keep the games and the config
#   sudo ./scripts/uninstall-pi.sh --purge    also the games, the config and the user (a last
#                                             copy of the games is left in /root first)
#   ./scripts/uninstall-pi.sh --dry-run       print the steps without doing anything
#
# SPI and I2C stay enabled (other things may use them). See docs/raspberry-pi.md.
set -euo pipefail

# The installer's paths, helpers (say, run, require_root ...) and boot config lines: sourcing
# it runs nothing.
# shellcheck source=scripts/install-pi.sh
source "$(dirname "${BASH_SOURCE[0]}")/install-pi.sh"

UNIT_DIR=/etc/systemd/system
UNITS=(companion.service companion-hotspot.service)
DOC_DIR=/usr/share/doc/companion
# The access point's pieces (companion/platform/hotspot.py): NetworkManager's profile, the DNS answer
# that sends every name to the Pi, and the redirect of port 80 to the page.
HOTSPOT_PROFILE=companion-hotspot
NFT_FAMILY=inet
NFT_TABLE=companion_hotspot
BACKUP_TO="${COMPANION_BACKUP_TO:-/root}"
PURGE=0

usage() {
    sed -n '2,9s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

parse_uninstall_args() {
    while (($#)); do
        case "$1" in
        --dry-run | -n) DRY_RUN=1 ;;
        --purge) PURGE=1 ;;
        --help | -h)
            usage
            exit 0
            ;;
        *) die "unknown option: $1 (try --help)" ;;
        esac
        shift
    done
}

stop_services() {
    say "Stopping and removing the services ${UNITS[*]}"
    if ! command -v systemctl >/dev/null 2>&1; then
        note "no systemctl here: nothing to stop"
    fi
    local unit
    for unit in "${UNITS[@]}"; do
        if command -v systemctl >/dev/null 2>&1; then
            run systemctl disable --now "$unit" || true
        fi
        if [[ -e "$UNIT_DIR/$unit" || -d "$UNIT_DIR/$unit.d" ]]; then
            run rm -rf "$UNIT_DIR/$unit" "$UNIT_DIR/$unit.d"
        fi
    done
    if command -v systemctl >/dev/null 2>&1; then
        run systemctl daemon-reload || true
    fi
}

remove_hotspot() {
    say "Removing the access point's settings"
    if command -v nmcli >/dev/null 2>&1 &&
        nmcli -t -f NAME connection show 2>/dev/null | grep -qxF "$HOTSPOT_PROFILE"; then
        run nmcli connection delete "$HOTSPOT_PROFILE"
    fi
    if [[ -e "$CAPTIVE_CONF" ]]; then
        run rm -f "$CAPTIVE_CONF"
    fi
    if command -v nft >/dev/null 2>&1 && nft list table "$NFT_FAMILY" "$NFT_TABLE" >/dev/null 2>&1; then
        run nft delete table "$NFT_FAMILY" "$NFT_TABLE"
    fi
}

remove_program() {
    say "Removing the program ($PREFIX) and its documentation"
    run rm -rf "$PREFIX" "$DOC_DIR"
    local config
    if config="$(boot_config)" && grep -qxF "$I2C_BEGIN" "$config"; then
        say "Removing the I2C speed line from $config"
        if ((DRY_RUN)); then
            note "would remove: $I2C_LINE"
        else
            remove_i2c_speed "$config"
        fi
    fi
}

purge_data() {
    if [[ -f "$STATE_DIR/companion.db" ]]; then
        local copy
        copy="$BACKUP_TO/companion-$(date -u +%Y%m%dT%H%M%SZ)-before-purge.db"
        say "Keeping a last copy of the games in $copy"
        # The service is stopped, so the database and its log are at rest: SQLite's backup
        # makes one consistent file of them.
        run python3 -c 'import sqlite3, sys
src, dst = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
src.backup(dst)
dst.close()' "$STATE_DIR/companion.db" "$copy"
    fi
    say "Removing the games ($STATE_DIR), the configuration ($CONFIG_DIR) and the user"
    run rm -rf "$STATE_DIR" "$CONFIG_DIR"
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        run userdel "$SERVICE_USER"
    fi
}

uninstall_main() {
    parse_uninstall_args "$@"
    if ((DRY_RUN)); then
        say "Dry run: nothing will be changed"
    fi
    require_root
    stop_services
    remove_hotspot
    remove_program
    if ((PURGE)); then
        purge_data
        say "Done: Board Companion is removed."
    else
        say "Done: the program is removed."
        note "Kept: the games in $STATE_DIR, the configuration in $CONFIG_DIR and the user"
        note "$SERVICE_USER. Installing again picks them up; --purge removes them too."
    fi
}

uninstall_main "$@"
