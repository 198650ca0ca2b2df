"""What a simulated player sees of the companion: the flow in play and the panel to press."""

from __future__ import annotations

from typing import Protocol

from companion.flows.base import Flow


class Companion(Protocol):
    """The running companion as the simulated table uses it (the daemon is one)."""

    @property
    def flow(self) -> Flow | None:
        """The flow of the game being played, if any."""

    def dispatch(self, item: object) -> None:
        """Handle one input (a button press) as the panel would send it."""
