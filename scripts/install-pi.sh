#!/usr/bin/env bash
# Install (or update) Board Companion on Raspberry Pi OS as the systemd service "companion".
#
#   sudo ./scripts/install-pi.sh            install or update; safe to run again
#   ./scripts/install-pi.sh --dry-run       print the steps without doing anything
#   sudo ./scripts/install-pi.sh --deps-only   only system packages and the Python environment
#
# Raspberry Pi OS Bookworm or Trixie, 32- or 64-bit. See docs/raspberry-pi.md.
set -euo pipefail

REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/companion
VENV="$PREFIX/venv"
CONFIG_DIR=/etc/companion
CONFIG="${COMPANION_CONFIG:-$CONFIG_DIR/config.toml}"  # override only for tests
STATE_DIR=/var/lib/companion
UNIT=/etc/systemd/system/companion.service
HOTSPOT_UNIT=/etc/systemd/system/companion-hotspot.service
# NetworkManager's DNS for its access points: every name is the Pi (the captive portal).
CAPTIVE_CONF=/etc/NetworkManager/dnsmasq-shared.d/companion-captive.conf
DOC_DIR=/usr/share/doc/companion
SERVICE_USER=companion
HARDWARE_GROUPS=(gpio spi i2c)
APT_PACKAGES=(
    python3-venv python3-dev python3-pip build-essential   # venv, and C extensions (spidev)
    swig                                                   # lgpio, when built from source
    libopenjp2-7 libjpeg-dev zlib1g-dev libfreetype-dev    # Pillow, when built from source
    i2c-tools                                              # i2cdetect: is the OLED there?
    nftables                                               # own Wi-Fi: port 80 to the page
)
# Installed when the distribution has them: built for this very Python, so pip (whose venv
# sees them) does not download or compile them. python3-lgpio: Raspberry Pi OS only;
# python3-spidev and python3-pil: Raspberry Pi OS and Debian (a Pi Zero or a 32-bit image
# would otherwise compile spidev, and Pillow where PyPI has no wheel: armhf).
APT_OPTIONAL=(python3-lgpio liblgpio-dev python3-spidev python3-pil)
# Read to tell a Pi 5 apart; overridable so the dry-run can be tested on any machine.
MODEL_FILE="${COMPANION_MODEL_FILE:-/proc/device-tree/model}"
# The firmware's config.txt: /boot/firmware on Bookworm and Trixie, /boot before.
BOOT_CONFIG="${COMPANION_BOOT_CONFIG:-}"
# The OLED's I2C bus at 400 kHz (fast mode; the SSD1306 and SH1106 support it): a full frame
# takes about 25 ms instead of 100 ms at the default 100 kHz.
I2C_LINE="dtparam=i2c_arm_baudrate=400000"
I2C_BEGIN="# Board Companion: the OLED's I2C at 400 kHz (scripts/uninstall-pi.sh removes it)"
I2C_END="# Board Companion: end"

DRY_RUN=0
DEPS_ONLY=0

usage() {
    sed -n '2,7s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

say() { printf '==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() {
    printf 'ERROR: %s\n' "$*" >&2
    exit 1
}

# Run a command, or only show it with --dry-run.
run() {
    if ((DRY_RUN)); then
        printf '    would run:'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

parse_args() {
    while (($#)); do
        case "$1" in
        --dry-run | -n) DRY_RUN=1 ;;
        --deps-only) DEPS_ONLY=1 ;;
        --help | -h)
            usage
            exit 0
            ;;
        *) die "unknown option: $1 (try --help)" ;;
        esac
        shift
    done
}

require_root() {
    if ((EUID != 0)); then
        if ((DRY_RUN)); then
            note "(not root: fine for --dry-run; the real install needs sudo)"
        else
            die "run as root: sudo $0"
        fi
    fi
}

model() {
    if [[ -r "$MODEL_FILE" ]]; then
        tr -d '\0' <"$MODEL_FILE"
    else
        echo "not a Raspberry Pi"
    fi
}

# Those of the given packages apt knows (after apt-get update), one a line. One apt-cache
# call for them all: each call reads every package list, seconds on a Pi Zero.
apt_known() {
    apt-cache show --no-all-versions "$@" 2>/dev/null | sed -n 's/^Package: //p' | sort -u
}

check_python() {
    if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        if ((DRY_RUN)); then
            warn "python3 is older than 3.11: the real install would stop here"
        else
            die "Board Companion needs Python 3.11 or newer (Raspberry Pi OS Bookworm or later)"
        fi
    fi
}

install_packages() {
    say "Installing system packages: ${APT_PACKAGES[*]}"
    run apt-get update
    local packages=("${APT_PACKAGES[@]}") package known
    known="$(apt_known "${APT_OPTIONAL[@]}")"
    for package in "${APT_OPTIONAL[@]}"; do
        if grep -qxF "$package" <<<"$known"; then
            packages+=("$package")
        else
            case "$package" in
            *lgpio*) note "$package is not in this distribution: lgpio will be built by pip" ;;
            *) note "$package is not in this distribution: pip installs ${package#python3-}" ;;
            esac
        fi
    done
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${packages[@]}"
}

enable_buses() {
    say "Enabling SPI (NFC readers) and I2C (OLED)"
    if command -v raspi-config >/dev/null 2>&1; then
        run raspi-config nonint do_spi 0
        run raspi-config nonint do_i2c 0
    else
        warn "raspi-config not found: enable SPI and I2C yourself (dtparam=spi=on, dtparam=i2c_arm=on)"
    fi
    local config
    if config="$(boot_config)"; then
        say "I2C at 400 kHz in $config"
        if ((DRY_RUN)); then
            note "would set: $I2C_LINE"
        else
            set_i2c_speed "$config"
        fi
    else
        warn "no config.txt in /boot/firmware or /boot: add $I2C_LINE to it yourself"
    fi
}

# The firmware's config.txt, or nothing (status 1) when there is none.
boot_config() {
    local file
    for file in ${BOOT_CONFIG:+"$BOOT_CONFIG"} /boot/firmware/config.txt /boot/config.txt; do
        if [[ -f "$file" ]]; then
            echo "$file"
            return 0
        fi
    done
    return 1
}

# Set the I2C speed in config.txt once, between two marker lines (replaced on the next run,
# removed by the uninstall). An i2c_arm_baudrate line of the owner's own is left alone. Ours
# goes at the end under [all], outside any [pi4]-style section that would limit it.
set_i2c_speed() {
    local config="$1"
    remove_i2c_speed "$config"
    if grep -q '^[[:space:]]*dtparam=i2c_arm_baudrate=' "$config"; then
        note "keeping the I2C speed already set in $config"
        return 0
    fi
    printf '%s\n[all]\n%s\n%s\n' "$I2C_BEGIN" "$I2C_LINE" "$I2C_END" >>"$config"
    note "takes effect at the next reboot"
}

# Take out the lines set_i2c_speed added (the uninstall does too).
remove_i2c_speed() {
    local config="$1" kept
    grep -qxF "$I2C_BEGIN" "$config" || return 0
    kept="$(awk -v begin="$I2C_BEGIN" -v end="$I2C_END" \
        '$0 == begin { skip = 1 } !skip { print } $0 == end { skip = 0 }' "$config")"
    printf '%s\n' "$kept" >"$config"
}

create_user() {
    say "Service user '$SERVICE_USER' with groups ${HARDWARE_GROUPS[*]}"
    local group
    for group in "${HARDWARE_GROUPS[@]}"; do
        # systemd refuses to start a unit whose SupplementaryGroups do not exist.
        if ! getent group "$group" >/dev/null; then
            run groupadd --system "$group"
        fi
    done
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        note "user $SERVICE_USER already exists"
    else
        run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Board Companion" "$SERVICE_USER"
    fi
    run usermod --append --groups "$(
        IFS=,
        echo "${HARDWARE_GROUPS[*]}"
    )" "$SERVICE_USER"
}

backup_before_update() {
    if [[ -x "$VENV/bin/companion" && -f "$STATE_DIR/companion.db" ]]; then
        say "Backing up the games before updating"
        # the running service holds the database alone (companion/store/database.py): stop it first;
        # install_service starts it again
        if systemctl is-active --quiet companion.service 2>/dev/null; then
            run systemctl stop companion.service
        fi
        run runuser -u "$SERVICE_USER" -- env COMPANION_STATE_DIR="$STATE_DIR" \
            "$VENV/bin/companion" backup --reason before-update ||
            warn "backup failed; continuing (see: journalctl -u companion)"
    fi
}

install_venv() {
    say "Python environment in $VENV"
    run mkdir -p "$PREFIX"
    # --system-site-packages: Raspberry Pi OS's python3-lgpio (built for this very Python) is
    # used as it is. Run on an existing environment too: it only updates its settings.
    run python3 -m venv --system-site-packages "$VENV"
    run "$VENV/bin/pip" install --upgrade pip
    # GPIO goes through lgpio on every model and image: RPi.GPIO cannot add edge detection on
    # kernels from 6.6 on and cannot drive a Pi 5 at all. PYPI=1 makes lgpio's source build
    # (no wheel for Python 3.13 on Trixie) link its C library in statically.
    note "GPIO through lgpio on $(model)"
    run env PYPI=1 "$VENV/bin/pip" install "${REPO_DIR}[pi]"
    # mfrc522 pulls in RPi.GPIO; rpi-lgpio provides the same RPi.GPIO module on lgpio. Both
    # install the same files, so remove RPi.GPIO and reinstall rpi-lgpio (uninstalling
    # RPi.GPIO deletes the module files the two share). pip only warns when it is not there,
    # and never touches a system copy outside the environment.
    run "$VENV/bin/pip" uninstall -y RPi.GPIO
    run env PYPI=1 "$VENV/bin/pip" install --force-reinstall --no-deps rpi-lgpio
}

check_gpio() {
    say "Checking the GPIO, SPI and NFC libraries"
    # Importing proves the install (opening /dev/gpiochip0 needs the Pi itself). RPi.GPIO and
    # mfrc522 are only looked up: rpi-lgpio refuses to load away from a Pi.
    run "$VENV/bin/python" -c 'import importlib.metadata as m, importlib.util as u
import lgpio, gpiozero, spidev
from gpiozero.pins.lgpio import LGPIOFactory
assert u.find_spec("mfrc522"), "mfrc522 is missing"
assert u.find_spec("RPi.GPIO"), "rpi-lgpio is missing"
assert u.find_spec("RPi._GPIO") is None, "the old RPi.GPIO library shadows rpi-lgpio"
print("    lgpio", lgpio.get_module_version(), "with rpi-lgpio; gpiozero", m.version("gpiozero"))'
}

install_config() {
    say "Configuration in $CONFIG"
    run install -d -m 0750 -o root -g "$SERVICE_USER" "$CONFIG_DIR"
    if [[ -e "$CONFIG" ]]; then
        note "keeping the existing $CONFIG"
    else
        run install -m 0640 -o root -g "$SERVICE_USER" \
            "$REPO_DIR/systemd/config.example.toml" "$CONFIG"
    fi
}

install_service() {
    say "systemd service companion"
    run install -d -m 0755 "$DOC_DIR"
    run install -m 0644 "$REPO_DIR/docs/raspberry-pi.md" "$DOC_DIR/raspberry-pi.md"
    run install -m 0644 "$REPO_DIR/systemd/companion.service" "$UNIT"
    run install -m 0644 "$REPO_DIR/systemd/companion-hotspot.service" "$HOTSPOT_UNIT"
    run install -D -m 0644 "$REPO_DIR/systemd/companion-captive.conf" "$CAPTIVE_CONF"
    run systemctl daemon-reload
    # The own Wi-Fi is decided at boot (a known network in reach, or an access point): it is
    # enabled now and acts at the next boot, not while an owner is logged in over Wi-Fi.
    run systemctl enable companion-hotspot.service companion.service
    run systemctl restart companion.service
}

main() {
    parse_args "$@"
    if ((DRY_RUN)); then
        say "Dry run: nothing will be changed"
    fi
    require_root
    [[ -f "$REPO_DIR/pyproject.toml" ]] || die "run from a clone of the repository ($REPO_DIR)"
    check_python
    install_packages
    if ((DEPS_ONLY)); then
        install_venv
        check_gpio
        say "Done: system packages and $VENV (--deps-only: no service installed)"
        return
    fi
    enable_buses
    create_user
    backup_before_update
    install_venv
    check_gpio
    install_config
    install_service
    say "Done. Status: systemctl status companion   Logs: journalctl -u companion -f"
    note "Open http://companion.local:8080 (or the Pi's IP address) on a phone on the same Wi-Fi."
    note "No known Wi-Fi in reach at boot? The Pi becomes its own Wi-Fi: scan the OLED's QR code."
    note "SPI/I2C just enabled for the first time? Reboot once: sudo reboot"
}

# Sourced by the tests (to try one step on a copy of a file): then run nothing.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
