"""A real headless Chromium (Debian's ``chromium`` + ``chromium-driver``) for the scoreboard's
browser test, and the command that renders the page's screenshots in ``docs/screens/``::

    .venv/bin/python -m tests.scoreboard_browser docs/screens

The screenshots are of a scoreboard over a journal that a running ``companion demo`` fills
(three games of one night, the third one caught while it is being played).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: Why the browser tests cannot run here, or None when they can.
MISSING = (None if shutil.which("chromium") and shutil.which("chromedriver")
           else "Chromium is missing (apt-get install chromium chromium-driver; .ci/run installs them)")

PHONE = (390, 844)
LAPTOP = (1280, 860)


@contextmanager
def chromium(width: int, height: int) -> Iterator[Any]:
    """A headless Chromium driven by selenium, with a fresh profile; quit afterwards."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.TemporaryDirectory(prefix="scoreboard-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage",
                 "--hide-scrollbars", f"--user-data-dir={profile.name}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    service = Service(executable_path=shutil.which("chromedriver") or "chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    try:
        yield driver
    finally:
        driver.quit()
        profile.cleanup()


def start_demo(journal: Path, config: Path, game: str, seed: int, players: int = 2) -> subprocess.Popen[str]:
    """``companion demo`` paced at 60 fps, keeping its journal at ``journal``."""
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "demo", "--game", game, "--mode", "cabinet", "--paced",
         "--players", str(players), "--seed", str(seed), "--journal", str(journal), "--config", str(config)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})


def write_config(path: Path, seats: list[str]) -> Path:
    """A configuration that names the seats."""
    path.write_text("[game]\nseats = [" + ", ".join(f'"{s}"' for s in seats) + "]\n")
    return path


def render_screens(out: Path) -> list[Path]:
    """Fill a journal with a demo night and photograph the page at phone and laptop widths."""
    from tests.scoreboard_helpers import running

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        journal = Path(tmp) / "journal.sqlite"
        config = write_config(Path(tmp) / "config.toml", ["Ann", "Bob", "Cy"])
        for game, seed, players in (("pay-line", 3, 3), ("bandit", 2, 2)):
            demo = start_demo(journal, config, game, seed, players)
            if demo.wait(timeout=600) != 0:
                raise SystemExit(f"the demo failed: {demo.stderr.read() if demo.stderr else ''}")
        from companion.scoreboard import art

        with running(journal, art.load()) as server:
            url = f"http://127.0.0.1:{server.server_address[1]}/"
            demo = start_demo(journal, config, "pay-line", 7, 3)
            try:
                written = []
                for name, (width, height) in (("phone", PHONE), ("laptop", LAPTOP)):
                    with chromium(width, height) as driver:
                        driver.get(url)
                        _wait(driver, "return document.querySelectorAll('#live-lines li').length >= 6 && "
                                      "document.querySelectorAll('#games li').length == 3")
                        target = out / f"scoreboard-{name}.png"
                        driver.set_window_size(width, max(height, driver.execute_script(
                            "return document.documentElement.scrollHeight")))
                        time.sleep(0.5)  # let the resized layout settle before the picture
                        driver.save_screenshot(str(target))
                        written.append(target)
                return written
            finally:
                demo.kill()
                demo.wait()


def _wait(driver: Any, script: str, seconds: float = 120) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, seconds, poll_frequency=0.1).until(lambda d: d.execute_script(script))


if __name__ == "__main__":
    if MISSING:
        raise SystemExit(MISSING)
    for path in render_screens(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screens")):
        print(path)
