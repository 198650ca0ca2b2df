"""The scoreboard as a person sees it: a real headless Chromium on the page while a running
``companion demo`` fills the journal. The page shows the right scores, and a new action appears
without a reload."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.journal import open_readonly
from companion.scoreboard import art
from tests.scoreboard_browser import MISSING, PHONE, chromium, start_demo, write_config
from tests.scoreboard_helpers import running

pytestmark = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


def _wait(driver: object, script: str, seconds: float = 120) -> object:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.1).until(
        lambda d: d.execute_script(script), message=f"the page never satisfied: {script}")


def test_the_page_follows_a_running_demo_live_and_shows_the_right_scores(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    config = write_config(tmp_path / "config.toml", ["Ann", "Bob"])
    with running(journal, art.load()) as server, chromium(*PHONE) as driver:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/")
        _wait(driver, "return document.getElementById('conn').dataset.state === 'live'")
        assert "no journal" in driver.find_element("id", "problem").text
        driver.execute_script("window.notReloaded = true")
        demo = start_demo(journal, config, "bandit", seed=2)
        try:
            first = _wait(driver, "const li = document.querySelector('#live-lines li');"
                                  "return li && li.textContent")
            _wait(driver, f"const li = document.querySelector('#live-lines li');"
                          f"return li && li.textContent !== {first!r}")
            assert driver.execute_script("return window.notReloaded === true"), "the page was reloaded"
            assert demo.wait(timeout=600) == 0, demo.stderr.read() if demo.stderr else ""
        finally:
            if demo.poll() is None:
                demo.kill()
        _wait(driver, "return document.getElementById('live-title').textContent.includes('finished')")
        with open_readonly(journal) as reader:
            (record,) = reader.games()
        assert record.result is not None
        names = [e.text for e in driver.find_elements("css selector", "#live-players .name")]
        scores = [int(e.text) for e in driver.find_elements("css selector", "#live-players .score")]
        assert names == ["Ann", "Bob"] and scores == record.result["scores"]
        winner = record.seats[record.result["winners"][0]]
        assert driver.find_element("css selector", "#standings tbody tr td").text == winner
        assert driver.execute_script("return window.notReloaded === true")
        images = driver.execute_script("return [...document.querySelectorAll('#live-symbols img')]"
                                       ".map(i => i.complete && i.naturalWidth)")
        assert images and all(w == 96 for w in images), "the game's symbol art did not load"
