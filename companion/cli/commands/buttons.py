"""``companion buttons``: the live test view for wiring a control panel.

Prints each press, release, pull, long press and stuck control the moment it happens, with
the pin it came from, and lights each lamp in turn (a held button also lights its own lamp, so
a wirer sees which lamp belongs to which button)::

    companion buttons                 # the real pins (gpiozero picks the pin factory)
    companion buttons --keyboard      # the keyboard stand-in (a small window takes the keys)
    companion buttons --mock          # gpiozero mock pins, pressed in turn by a self-test
    companion buttons --seconds 30    # stop by itself (default: Ctrl+C)

The wiring comes from the ``[pins]`` table of the config file (``--config PATH``, else the
system config if present, else the defaults drawn in ``hardware/WIRING.md``).
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time
from typing import Any, TextIO

from companion.errors import UserError
from hardware.config import PanelConfig
from hardware.events import CONTROLS, PULL, STUCK, InputEvent
from hardware.header import describe_pin, nearest_ground, physical_pin

#: How long the mock self-test holds an ordinary button, and the pause between controls.
_MOCK_HOLD = 0.2
_MOCK_GAP = 0.15


def register(subparsers: Any) -> None:
    """Add ``companion buttons``."""
    parser = subparsers.add_parser(
        "buttons",
        help="live test of the control panel: each press as it happens, each lamp in turn",
        description="Show every press, release, pull, long press and stuck control as it happens, "
        "and light each lamp in turn, while you wire the panel.",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--keyboard", action="store_true", help="use the keyboard stand-in (keys typed into a small window)"
    )
    source.add_argument(
        "--mock", action="store_true", help="gpiozero mock pins, each control pressed in turn (self-test)"
    )
    parser.add_argument("--config", metavar="PATH", help="config file whose [pins] table gives the wiring")
    parser.add_argument(
        "--seconds", type=float, default=None, metavar="S", help="stop after S seconds (default: Ctrl+C)"
    )
    parser.add_argument(
        "--lamp-step", type=float, default=1.0, metavar="S", help="seconds each lamp stays lit in turn (1.0)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the live view until ``--seconds`` pass, the mock self-test ends, or Ctrl+C."""
    if args.seconds is not None and args.seconds <= 0:
        raise UserError("--seconds must be more than 0")
    if args.lamp_step <= 0:
        raise UserError("--lamp-step must be more than 0")
    config = _panel_config(args.config)
    try:
        if args.keyboard:
            _watch_keyboard(config, args.seconds, sys.stdout)
        else:
            _watch_panel(config, args.seconds, args.lamp_step, args.mock, sys.stdout)
    except KeyboardInterrupt:
        print("stopped", flush=True)
    return 0


def _panel_config(path: str | None) -> PanelConfig:
    from companion.config import load_config

    return load_config(path).panel()


# -- the GPIO panel (real or mock pins) ----------------------------------------------------------


def _watch_panel(
    config: PanelConfig, seconds: float | None, lamp_step: float, mock: bool, out: TextIO
) -> None:
    from hardware.errors import PanelUnavailableError
    from hardware.panel import ControlPanel

    factory = None
    if mock:
        from gpiozero.pins.mock import MockFactory, MockPWMPin  # type: ignore[import-untyped]

        factory = MockFactory(pin_class=MockPWMPin)
    try:
        panel = ControlPanel(config, pin_factory=factory)
    except PanelUnavailableError as error:
        if "busy" in str(error).lower():
            hint = "stop the jackpot-companion service while you test: sudo systemctl stop jackpot-companion"
        else:
            hint = "try `companion buttons --keyboard` or `--mock`"
        raise UserError(f"{error} ({hint})") from error
    stop = threading.Event()
    self_test: threading.Thread | None = None
    with panel:
        _print_wiring(config, out)
        start = time.monotonic()
        if factory is not None:
            print("mock pins: pressing each control in turn", file=out, flush=True)
            self_test = threading.Thread(
                target=_press_each_control, args=(factory, config, stop), name="self-test", daemon=True
            )
            self_test.start()
        else:
            print("press each control; Ctrl+C to stop", file=out, flush=True)
        try:
            _show_panel(panel, config, start, seconds, lamp_step, self_test, out)
        finally:
            stop.set()
            if self_test is not None:
                self_test.join()


def _show_panel(
    panel: Any,
    config: PanelConfig,
    start: float,
    seconds: float | None,
    lamp_step: float,
    self_test: threading.Thread | None,
    out: TextIO,
) -> None:
    """Print events as they come; light one lamp at a time, plus the lamp of every held button."""
    deadline = None if seconds is None else start + seconds
    lamps = list(panel.lamps)
    shown: dict[str, str] | None = None
    lit_before: str | None = None
    while deadline is None or time.monotonic() < deadline:
        if self_test is not None and not self_test.is_alive() and panel.events.empty():
            print("mock self-test finished", file=out, flush=True)
            return
        lit = lamps[int((time.monotonic() - start) / lamp_step) % len(lamps)] if lamps else None
        if lit is not None and lit != lit_before:
            print(f"lamp    {lit:<8} on  {describe_pin(config.lamp_pin(lit) or 0)}", file=out, flush=True)
            lit_before = lit
        wanted = {control: "on" for control in lamps if control == lit or panel.is_down(control)}
        if wanted != shown:
            panel.set_lamps(wanted)
            shown = wanted
        try:
            event = panel.events.get(timeout=0.05)
        except queue.Empty:
            continue
        print(_describe(event, start, config), file=out, flush=True)


def _press_each_control(factory: Any, config: PanelConfig, stop: threading.Event) -> None:
    """The mock self-test: press each wired control once (a bouncy lever, a long ``start``)."""
    for control in CONTROLS:
        number = config.button_pin(control)
        if number is None:
            continue
        pin = factory.pin(number)
        close, open_ = (pin.drive_low, pin.drive_high)
        if not config.buttons_pull_up:
            close, open_ = open_, close
        if control == "lever":
            for _ in range(4):  # the microswitch chatters at the end of the stroke
                close()
                open_()
        hold = config.long_press + _MOCK_HOLD if control in config.long_press_controls else _MOCK_HOLD
        close()
        if stop.wait(hold):
            open_()
            return
        open_()
        if stop.wait(_MOCK_GAP + max(config.lockout, config.lever_lockout)):
            return


def _print_wiring(config: PanelConfig, out: TextIO) -> None:
    print("control  switch                    lamp", file=out)
    for control in CONTROLS:
        switch = config.button_pin(control)
        lamp = config.lamp_pin(control)
        switch_text = "not wired"
        if switch is not None:
            switch_text = f"{describe_pin(switch)}, ground {nearest_ground(physical_pin(switch))}"
        lamp_text = describe_pin(lamp) if lamp is not None else "-"
        print(f"{control:<8} {switch_text:<25} {lamp_text}", file=out)
    out.flush()


def _describe(event: InputEvent, start: float, config: PanelConfig | None) -> str:
    """One line of the live view: time since start, control, what happened, where it is wired."""
    parts = [f"{event.at - start:7.3f}", f"{event.control:<8}", f"{event.kind:<10}"]
    pin = config.button_pin(event.control) if config is not None else None
    if pin is not None:
        parts.append(describe_pin(pin))
    if event.kind == STUCK:
        held = f" for {config.stuck_after:g} s" if config is not None else ""
        parts.append(f"held down{held}: is the switch jammed, or wired normally-closed?")
    elif event.kind == PULL:
        parts.append("the lever")
    return " ".join(parts).rstrip()


# -- the keyboard stand-in ------------------------------------------------------------------------


def _watch_keyboard(config: PanelConfig, seconds: float | None, out: TextIO) -> None:
    import pygame

    from hardware.keyboard import KeyboardControls, keys_for

    try:
        try:
            pygame.display.init()
            pygame.font.init()
            screen = pygame.display.set_mode((560, 120))
        except pygame.error as error:
            raise UserError(
                f"no window for the keyboard stand-in ({error}); run it on the desktop, or on the "
                "console with SDL_VIDEODRIVER=kmsdrm"
            ) from error
        pygame.display.set_caption("companion buttons: press the keys here")
        font = pygame.font.Font(None, 30)
        print("keyboard stand-in: type into the window; close it or Ctrl+C to stop", file=out)
        for control in CONTROLS:
            print(f"{control:<8} {', '.join(keys_for(control))}", file=out)
        out.flush()
        keys = KeyboardControls(config)
        start = time.monotonic()
        deadline = None if seconds is None else start + seconds
        last = "waiting for a key"
        pacer = pygame.time.Clock()
        running = True
        while running and (deadline is None or time.monotonic() < deadline):
            events: list[InputEvent] = []
            for raw in pygame.event.get():
                if raw.type == pygame.QUIT:
                    running = False
                events.extend(keys.translate(raw))
            events.extend(keys.tick())
            for event in events:
                print(_describe(event, start, None), file=out, flush=True)
                last = str(event)
            screen.fill((16, 16, 24))
            screen.blit(font.render(last, True, (255, 210, 80)), (20, 45))
            pygame.display.flip()
            pacer.tick(60)
    finally:
        pygame.display.quit()
