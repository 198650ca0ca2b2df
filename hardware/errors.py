"""The panel's small tree of errors; each is a :class:`~companion.errors.UserError` (one line, exit 2)."""

from __future__ import annotations

from companion.errors import UserError


class PanelError(UserError):
    """Something about the control panel that its owner can fix."""


class PanelConfigError(PanelError):
    """The ``[pins]`` configuration cannot work (bad, reserved or duplicate pin, bad timing)."""


class PanelUnavailableError(PanelError):
    """The GPIO pins cannot be opened here (no Pi, no permission, pin busy)."""
