#!/usr/bin/env bash
# Install Jackpot Companion on Raspberry Pi OS (Bookworm or later, Pi 4/5) as a systemd service.
#
#   sudo scripts/install-pi.sh            # from a checkout of the project
#
# What it does, in order (safe to run again; each step checks first):
#   1. apt packages: picamera2 + libcamera bindings, lgpio, SDL/KMS runtime bits, ALSA utils,
#      avahi-daemon (phones find the scoreboard at <hostname>.local).
#   2. a dedicated system user `jackpot` in the gpio/video/render/audio groups (and `input`
#      only where the buttons come through /dev/input, see step 5); its taught-card store,
#      shared with the user who runs the installer through the `jackpot` group.
#   3. the project in /opt/jackpot-companion/src, owned by root (the service cannot change what it
#      runs), with a venv made with --system-site-packages (picamera2's libcamera bindings exist
#      only as apt packages); the exact versions of systemd/constraints.txt, wheels only.
#   4. the NumPy trap (docs/platform.md): if picamera2 does not import next to pip's NumPy 2,
#      reinstall simplejpeg with pip inside the venv; then check picamera2, cv2, numpy together.
#   5. /etc/jackpot-companion/config.toml (only if absent), the units, enable and start them
#      (the scoreboard's unit starts only once [scoreboard] enabled = true in the config). Where
#      the config's [pins] leave the switches to /dev/input ("none": the gpio-key overlay or a
#      USB encoder), a drop-in gives the service the `input` group and char-input; elsewhere
#      neither, since `input` reads every keyboard.
set -euo pipefail

PREFIX="${PREFIX:-/opt/jackpot-companion}"
SERVICE_USER="${SERVICE_USER:-jackpot}"
CONFIG_DIR=/etc/jackpot-companion
UNIT_NAME=jackpot-companion.service
SCOREBOARD_UNIT=jackpot-scoreboard.service
SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'install-pi: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run me with sudo: sudo $0"
[ -f "$SOURCE_DIR/pyproject.toml" ] || die "run me from a checkout of the project (no pyproject.toml in $SOURCE_DIR)"
command -v apt-get >/dev/null || die "this installer is for Raspberry Pi OS / Debian (apt-get not found)"

say "1/5 apt packages"
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    python3 python3-venv python3-pip python3-dev \
    python3-picamera2 python3-libcamera python3-lgpio python3-numpy \
    alsa-utils libdrm2 libgbm1 libegl1 \
    rsync sqlite3 avahi-daemon

say "2/5 the service user '$SERVICE_USER'"
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/jackpot-companion --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in gpio video render audio; do
    if getent group "$group" >/dev/null; then
        usermod -aG "$group" "$SERVICE_USER"
    else
        echo "note: group '$group' does not exist on this system; skipped"
    fi
done
# The taught-card store, shared through the service's group: a host's `companion vision enroll`
# at a shell files pictures where the service reads them (vision/taught_store.py). setgid and
# group-writable; the companion keeps folders it makes there so, whoever makes them.
STATE_DIR=/var/lib/jackpot-companion
install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$STATE_DIR"
install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 2770 "$STATE_DIR/enrolled"
chown -R "$SERVICE_USER:$SERVICE_USER" "$STATE_DIR/enrolled"
find "$STATE_DIR/enrolled" -type d -exec chmod 2770 {} +
find "$STATE_DIR/enrolled" -type f -exec chmod 0660 {} +
if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    usermod -aG "$SERVICE_USER" "$SUDO_USER"
    echo "$SUDO_USER joins the '$SERVICE_USER' group to teach cards from photos (log in again first)"
fi

say "3/5 the project and its venv in $PREFIX"
mkdir -p "$PREFIX"
chown root:root "$PREFIX"
chmod 0755 "$PREFIX"
# Owned by root and not writable by group or others, whoever ran the installer from their checkout.
rsync -a --delete --chown=root:root --chmod=Dgo-w,Fgo-w \
    --exclude .git --exclude .venv --exclude venv --exclude '__pycache__' \
    "$SOURCE_DIR/" "$PREFIX/src/"
if [ ! -x "$PREFIX/venv/bin/python" ]; then
    python3 -m venv --system-site-packages "$PREFIX/venv"
fi
CONSTRAINTS="$PREFIX/src/systemd/constraints.txt"
# Exact versions, wheels only: no package's build code runs as root here. PIP_CONSTRAINT also
# pins what pip fetches to build the project itself.
export PIP_CONSTRAINT="$CONSTRAINTS"
pip_install() { "$PREFIX/venv/bin/python" -m pip install --no-cache-dir --disable-pip-version-check "$@"; }
pip_install --only-binary=:all: pip
pip_install --only-binary=:all: -r "$CONSTRAINTS"
pip_install --no-deps "$PREFIX/src"
"$PREFIX/venv/bin/python" -m pip check || die "the installed versions do not fit together; see systemd/constraints.txt"

say "4/5 checking picamera2, cv2 and numpy import together"
import_check() {
    "$PREFIX/venv/bin/python" -c 'import numpy, cv2, picamera2; print("numpy", numpy.__version__, "cv2", cv2.__version__, "picamera2 ok")'
}
if ! import_check; then
    echo "picamera2 does not import next to pip's NumPy (simplejpeg was built for Debian's NumPy 1.x);"
    echo "reinstalling simplejpeg inside the venv (raspberrypi/picamera2 #1088)"
    "$PREFIX/venv/bin/python" -m pip install --force-reinstall --no-deps simplejpeg
    import_check || die "picamera2, cv2 and numpy still do not import together; see "On the Raspberry Pi" in README.md"
fi

say "5/5 configuration and the systemd units"
mkdir -p "$CONFIG_DIR"
if [ ! -f "$CONFIG_DIR/config.toml" ]; then
    install -m 0644 "$PREFIX/src/systemd/config.example.toml" "$CONFIG_DIR/config.toml"
    echo "wrote $CONFIG_DIR/config.toml (edit pins, screen, audio device there)"
fi
sed "s#^ExecStart=.*#ExecStart=$PREFIX/venv/bin/companion run#; s#^User=.*#User=$SERVICE_USER#; s#^Group=.*#Group=$SERVICE_USER#" \
    "$PREFIX/src/systemd/$UNIT_NAME" > "/etc/systemd/system/$UNIT_NAME"
sed "s#/opt/jackpot-companion/venv/bin/companion#$PREFIX/venv/bin/companion#; s#^User=.*#User=$SERVICE_USER#; s#^Group=.*#Group=$SERVICE_USER#" \
    "$PREFIX/src/systemd/$SCOREBOARD_UNIT" > "/etc/systemd/system/$SCOREBOARD_UNIT"
DROPIN_DIR="/etc/systemd/system/$UNIT_NAME.d"
if "$PREFIX/venv/bin/python" - "$CONFIG_DIR/config.toml" <<'PY'
# Exit 0 when the config's [pins] leave a switch to /dev/input (gpio-key overlay, USB encoder).
import sys
from companion.config import load_config
try:
    panel = load_config(sys.argv[1]).panel()
except Exception as error:  # a broken config: the service says so itself; no input access
    print(f"note: {error}", file=sys.stderr)
    sys.exit(1)
switches = ("lever", "hold1", "hold2", "hold3", "collect", "start", "back")
sys.exit(0 if any(getattr(panel, name) is None for name in switches) else 1)
PY
then
    echo "buttons come through /dev/input: the service gets the 'input' group"
    usermod -aG input "$SERVICE_USER"
    mkdir -p "$DROPIN_DIR"
    printf '%s\n' "# Written by install-pi.sh: [pins] leave the switches to /dev/input." \
        "[Service]" "SupplementaryGroups=input" "DeviceAllow=char-input r" > "$DROPIN_DIR/keyboard.conf"
else
    gpasswd -d "$SERVICE_USER" input >/dev/null 2>&1 || true
    rm -f "$DROPIN_DIR/keyboard.conf"
fi
systemctl daemon-reload
systemctl enable "$UNIT_NAME" "$SCOREBOARD_UNIT"
systemctl restart "$UNIT_NAME"
# Skipped (not failed) while [scoreboard] enabled = false: its ExecCondition says so.
systemctl restart "$SCOREBOARD_UNIT"

say "done: checking the hardware with 'companion doctor'"
sudo -u "$SERVICE_USER" env STATE_DIRECTORY=/var/lib/jackpot-companion LG_WD=/var/lib/jackpot-companion \
    "$PREFIX/venv/bin/companion" doctor || true
echo "Logs: journalctl -u $UNIT_NAME -f"
