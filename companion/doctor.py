"""``companion doctor``: what works, and what to do about what does not.

Each check returns a :class:`Check` (ok / warning / failed, what was found, what to do). A check
never raises: an unexpected error becomes a failed check with its message, never a traceback.
Hardware modules (picamera2, lgpio) are probed in a subprocess, because the NumPy ABI trap of
docs/platform.md can crash an import rather than raise.
"""

from __future__ import annotations

import glob
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from companion.config import Config, ConfigFileError, load_config

OK, WARN, FAIL = "ok", "warning", "failed"


@dataclass(frozen=True)
class Check:
    """One line of the report."""

    name: str
    status: str
    found: str
    fix: str = ""

    def line(self) -> str:
        """``[ ok ] camera: ...`` plus ``-> what to do`` when something is wrong."""
        mark = {OK: " ok ", WARN: "warn", FAIL: "FAIL"}[self.status]
        text = f"[{mark}] {self.name}: {self.found}"
        return text + (f"\n       -> {self.fix}" if self.fix else "")


def _python_probe(code: str, timeout: float = 30.0) -> tuple[bool, str]:
    """Run ``code`` in a fresh interpreter; (ok, last line of output)."""
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {timeout:.0f} s"
    # Libraries chatter on stdout (SDL warnings); the probe's own answer is its last stdout line.
    out = done.stdout.strip().splitlines() if done.returncode == 0 else []
    lines = out or (done.stdout + done.stderr).strip().splitlines()
    return done.returncode == 0, lines[-1] if lines else f"exit code {done.returncode}"


def check_config(path: str | None) -> tuple[Check, Config]:
    """The configuration file parses and validates."""
    try:
        config = load_config(path)
    except ConfigFileError as error:
        return Check("config", FAIL, str(error), "fix that key (see systemd/config.example.toml)"), Config()
    where = str(config.source) if config.source else "no file, built-in defaults"
    return Check("config", OK, f"{where}; {config.game.default}, {config.game.players} players, "
                 f"{config.game.mode} mode"), config


def check_state_dir(config: Config) -> Check:
    """The journal's directory is writable and the journal (if any) is ours and intact."""
    from companion.journal import JournalError, default_journal_path, open_readonly
    from companion.journal.recovery import integrity_problem

    path = config.journal_path or default_journal_path()
    directory = path.parent
    probe_dir = directory
    while not probe_dir.exists() and probe_dir != probe_dir.parent:
        probe_dir = probe_dir.parent
    if not os.access(probe_dir, os.W_OK):
        return Check("state directory", FAIL, f"{directory} is not writable",
                     "run under the systemd unit (StateDirectory=) or set [journal] path")
    if path.exists() and (path.is_dir() or path.stat().st_size > 0):
        try:
            with open_readonly(path) as journal:
                damage = integrity_problem(journal.connection)
        except JournalError as error:
            return Check("state directory", FAIL, str(error),
                         "the companion will not start on it: set [journal] path or move that file away")
        if damage:
            return Check("state directory", WARN, f"{path} is damaged ({damage.splitlines()[0]})",
                         "on its next start the companion keeps it aside and recovers its games "
                         "(`companion backup` keeps a copy first)")
        return Check("state directory", OK, f"journal {path} is intact")
    return Check("state directory", OK, f"{directory} is writable (journal will be created)")


def check_camera(config: Config, on_pi: bool | None = None) -> Check:
    """The camera source ``companion run`` would use can be opened.

    Off the Pi without a config file, ``run`` plays on the simulated table, so that is what is
    checked there (the Pi camera cannot exist on such a machine).
    """
    from hardware.board import on_raspberry_pi

    on_pi = on_raspberry_pi() if on_pi is None else on_pi
    source = config.camera.source
    if not on_pi and config.source is None:
        return Check("camera", OK, "off the Pi, no config file: `companion run` uses the simulated table")
    if source == "sim":
        return Check("camera", OK, "simulated table (camera.source = \"sim\")")
    if source.startswith("file:"):
        file = Path(source[5:])
        if file.exists():
            return Check("camera", OK, f"reading frames from {file}")
        return Check("camera", FAIL, f"{file} does not exist", "fix camera.source in the config")
    if source.startswith("usb:"):
        device = Path(source[4:])
        if not device.exists():
            found = ", ".join(sorted(glob.glob("/dev/v4l/by-id/*"))) or "none"
            return Check("camera", FAIL, f"{device} does not exist (USB cameras: {found})",
                         "plug the camera in, or set camera.source to one of the listed paths")
        ok, line = _python_probe(
            f"import cv2; c = cv2.VideoCapture({str(device)!r}); ok, f = c.read(); "
            "print(f.shape if ok else 'no frame'); raise SystemExit(0 if ok else 1)"
        )
        return Check("camera", OK if ok else FAIL, f"{device}: {line}",
                     "" if ok else "check the cable and that the user is in the 'video' group")
    ok, line = _python_probe("import numpy, cv2, picamera2; print('picamera2, cv2 and numpy import')")
    if not ok:
        fix = "sudo apt install python3-picamera2 and use a venv made with --system-site-packages"
        if "dtype size changed" in line or "numpy" in line.lower():
            fix = "inside the venv: pip install --force-reinstall --no-deps simplejpeg (NumPy ABI mismatch)"
        return Check("camera", FAIL, f"picamera2 does not import: {line}", fix)
    ok, line = _python_probe("from picamera2 import Picamera2; print(len(Picamera2.global_camera_info()))")
    if not ok or line.strip() == "0":
        return Check("camera", FAIL, "no camera detected by libcamera",
                     "check the ribbon cable (contacts facing the right way) and reboot")
    return Check("camera", OK, f"{line.strip()} camera(s) found; picamera2, cv2 and numpy import together")


def check_gpio(config: Config) -> Check:
    """A GPIO pin factory is usable (lgpio on a Pi; mock off the Pi)."""
    factory = os.environ.get("GPIOZERO_PIN_FACTORY", "")
    if factory == "mock":
        return Check("gpio", WARN, "GPIOZERO_PIN_FACTORY=mock: buttons are simulated",
                     "unset GPIOZERO_PIN_FACTORY on the Pi; off the Pi use --keyboard")
    chips = sorted(glob.glob("/dev/gpiochip*"))
    if not chips:
        return Check("gpio", WARN, "no /dev/gpiochip*: not a Raspberry Pi",
                     "off the Pi, `companion run --keyboard` uses the keyboard instead of buttons")
    if not all(os.access(chip, os.R_OK | os.W_OK) for chip in chips):
        return Check("gpio", FAIL, f"{chips[0]} is not accessible to this user",
                     "add the user to the 'gpio' group (sudo usermod -aG gpio $USER) and log in again")
    lg_wd = os.environ.get("LG_WD", os.getcwd())
    if not os.access(lg_wd, os.W_OK):
        return Check("gpio", FAIL, f"lgpio's working directory {lg_wd} is not writable",
                     "set LG_WD to a writable directory (the unit sets it to the state directory)")
    ok, line = _python_probe("from gpiozero import Device; Device.ensure_pin_factory(); "
                             "print(type(Device.pin_factory).__name__)")
    if not ok:
        return Check("gpio", FAIL, f"gpiozero has no pin factory: {line}", "sudo apt install python3-lgpio")
    pins = ", ".join(f"{key}={pin}" for key, pin in config.panel().pins() if not key.endswith("_lamp"))
    return Check("gpio", OK, f"{line.strip()} on {chips[0]}; buttons {pins}")


def check_display(config: Config) -> Check:
    """SDL can open the configured video driver."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    code = ("import os, pygame; pygame.display.init(); "
            f"pygame.display.set_mode(({config.screen.width}, {config.screen.height})); "
            "print(pygame.display.get_driver(), pygame.display.get_desktop_sizes())")
    ok, line = _python_probe(code)
    if ok:
        found = f"SDL driver {line}"
        if driver == "dummy" or line.startswith("dummy") or line.startswith("offscreen"):
            return Check("display", WARN, found + " (no real screen)",
                         "on the Pi the unit sets SDL_VIDEODRIVER=kmsdrm; off it, run with a desktop")
        return Check("display", OK, found)
    fix = "check the HDMI/DSI cable; the user needs the 'video' and 'render' groups"
    if "kmsdrm not available" in line:
        fix = "pip install pygame-ce (not pygame): its SDL has KMS/DRM"
    elif not glob.glob("/dev/dri/card*"):
        fix = "no /dev/dri/card*: enable the KMS overlay (dtoverlay=vc4-kms-v3d) in config.txt"
    return Check("display", FAIL, f"SDL cannot open a window ({line})", fix)


def check_audio(config: Config, on_pi: bool | None = None) -> Check:
    """SDL's mixer opens the configured output device.

    Off the Pi a missing sound card is a warning: every command runs silently without one.
    """
    from hardware.board import on_raspberry_pi

    on_pi = on_raspberry_pi() if on_pi is None else on_pi
    device = config.audio.device
    opened = f"devicename={device!r}" if device else ""
    code = f"import pygame; pygame.mixer.init({opened}); print(pygame.mixer.get_init())"
    ok, line = _python_probe(code)
    if not ok and not on_pi:
        return Check("audio", WARN, f"no sound output ({line}); off the Pi the companion plays silently",
                     "connect a sound device to hear the games (optional off the Pi)")
    if not ok:
        return Check("audio", FAIL, f"no sound output ({line})",
                     "list devices with `aplay -L`, set audio.device; the Pi 5 has no headphone jack")
    if os.environ.get("SDL_AUDIODRIVER") == "dummy":
        return Check("audio", WARN, "SDL_AUDIODRIVER=dummy: sound is silent", "unset it to hear sound")
    return Check("audio", OK, f"{device or 'default device'} open ({line})")


def check_taught_cards(config: Config) -> Check:
    """The taught-card store opens and every taught picture in it reads.

    The camera sets a damaged picture aside and reads with the rest, so a damaged or set-aside
    picture is a warning that names the faces to teach again; a store the host cannot write (a
    login outside the service's group) makes teaching from photos fail, so that is said too.
    """
    from companion.errors import UserError
    from vision.enrolled import load_picture, set_aside_pictures, taught_pictures
    from vision.taught_store import JOIN_THE_GROUP, default_store
    from vision.teachable import face_name

    try:
        store = default_store()
    except UserError as error:
        return Check("taught cards", WARN, str(error).split(": ")[0], JOIN_THE_GROUP)
    games = sorted(entry for entry in store.iterdir() if entry.is_dir()) if store.is_dir() else []
    counts, spoilt = [], []
    for folder in games:
        pictures = taught_pictures(folder)
        total = sum(len(paths) for paths in pictures.values())
        if total:
            counts.append(f"{folder.name} {len(pictures)} faces ({total} pictures)")
        # a face set aside and taught again since is whole again
        broken = set(set_aside_pictures(folder)) - set(pictures)
        for face_id, paths in pictures.items():
            for path in paths:
                try:
                    load_picture(path)
                except UserError:
                    broken.add(face_id)
        spoilt += [f"{folder.name} {face_name(folder.name, face)}" for face in sorted(broken)]
    if spoilt:
        return Check("taught cards", WARN, f"damaged pictures in {store}: {', '.join(spoilt)}",
                     "the camera sets them aside and reads the rest: teach those faces again "
                     "(menu > Teach cards, or companion vision enroll)")
    if store.is_dir() and not os.access(store, os.W_OK | os.X_OK):
        return Check("taught cards", WARN, f"{store} cannot be written by this user",
                     f"teaching from photos here needs it: {JOIN_THE_GROUP}")
    if not counts:
        return Check("taught cards", OK, f"none taught ({store}): the camera reads our printed cards")
    return Check("taught cards", OK, f"{store}: {'; '.join(counts)}")


def run_checks(config_path: str | None) -> Iterator[Check]:
    """Every check in order; a check that crashes is reported as failed, never raised."""
    config_check, config = check_config(config_path)
    yield config_check
    checks: list[tuple[str, Callable[[Config], Check]]] = [
        ("state directory", check_state_dir), ("camera", check_camera), ("gpio", check_gpio),
        ("display", check_display), ("audio", check_audio), ("taught cards", check_taught_cards),
    ]
    for name, check in checks:
        try:
            result = check(config)
        except Exception as error:  # a doctor never shows a traceback
            result = Check(name, FAIL, f"the check itself failed: {type(error).__name__}: {error}",
                           "report this with the output of `companion doctor`")
        if config_check.status == FAIL:
            # the rest is checked against the built-in defaults: say so, not "no config file"
            found = result.found.replace(", no config file", "")
            result = replace(result, found=f"{found} (built-in defaults; the config has a mistake)")
        yield result
