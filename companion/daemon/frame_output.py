"""What the main loop shows and sounds once a frame is drawn: the view to draw (teach screen,
pause, menu, lobby or the flow's table with the camera's and the journal's state), then the
transcript lines, sounds and lamps that frame made due.

A mixin of :class:`companion.daemon.app.Daemon`; it reads the daemon's parts and changes only
what a drawn frame settles (lines shown, cues played, lamps lit).
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import replace
from typing import Any

from companion.daemon.menu import menu_view
from companion.screen.views import (
    AttractView,
    FinalScoresView,
    MessageView,
    TableView,
    View,
)

log = logging.getLogger("companion.daemon.app")

MAT_MESSAGE = "The camera cannot see the mat: put it in view with all four corners showing"


class FrameOutput:
    """The view of the frame and what follows its drawing (see the module docstring)."""

    def _current_view(self) -> View:
        if self.teach is not None:
            return self.teach.view()
        if self.flow is None:
            if self.paused:
                return MessageView("Paused", (self.paused,), tone="warn")
            if self.menu is not None:
                return menu_view(self)
            view = self.lobby.view()
            if not isinstance(view, AttractView):
                return view
            return replace(view, link=self._scoreboard_link(), subtitle=self.note or view.subtitle)
        if self.menu is not None:
            return menu_view(self)
        view = self.flow.view()
        if isinstance(view, TableView):
            status = view.status
            alert = self.paused or view.alert
            if self.flow.session.mode == "table" and self.camera_ok is False:
                status = "camera lost: manual entry"
            elif self.flow.session.mode == "table" and self.camera_ok and not self.mat_found:
                alert = alert or MAT_MESSAGE
            if self.note:
                status = f"{status} · {self.note}" if status else self.note
            view = dataclasses.replace(view, alert=alert, status=status)
        return view

    def _after_draw(self) -> None:
        flow = self.flow
        if flow is not None:
            session = flow.session
            for line in flow.table_lines:  # moves made before the actions they end in
                self._emit(line)
            flow.table_lines.clear()
            for version, line in session.lines:
                if version > self._shown_version:
                    self._emit(f"[{version}] {line}")
            self._shown_version = session.version
            session.lines.clear()
            if self._note_until is not None and session.version > self._note_until >= 0:
                self.note, self._note_until = "", None  # the resumed game has moved on
            for cue in flow.cues:
                self._play(cue.name, dict(cue.params))
            flow.cues.clear()
        if self.teach is not None:
            for name in self.teach.cues:
                self._play(name, {})
            self.teach.cues.clear()
        if isinstance(self.view, FinalScoresView) and self.options.exit_when_over:
            self.running = False  # demo, --exit-when-over: the final scores were drawn
        for name, params in self.display.pop_cues():
            self._play(name, dict(params))
        if self.teach is not None:
            lamps = self.teach.lamps()
        elif self.menu is not None:
            lamps = {"hold1": "on", "hold3": "on", "lever": "on", "collect": "on", "back": "on"}
        elif self.flow is None:
            lamps = self.lobby.lamps()
        else:
            lamps = self.flow.lamps()
        if lamps != self._lamps:
            self._lamps = lamps
            if self.panel is not None:
                self.panel.attract(self.flow is None and self.lobby.screen == "attract")
                self.panel.set_lamps(lamps)

    def _play(self, name: str, params: dict[str, Any]) -> None:
        if self.sound is not None:
            self.sound.play(name, **params)

    def _emit(self, line: str) -> None:
        if self.options.transcript is not None:
            self.options.transcript(line)
        elif not line.startswith("["):
            # camera lost/back, first frame: for journalctl (printed and logged, a terminal
            # showed each line twice)
            log.info("%s", line)
