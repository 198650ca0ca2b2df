"""Game flows: one small state machine per game and mode (see :mod:`companion.flows.base`).

>>> [(f.game_id, f.modes) for f in FLOWS.values()][0]
('bandit', ('table', 'cabinet'))
"""

from __future__ import annotations

from companion.daemon.session import Session
from companion.errors import UserError
from companion.flows.bandit import BanditFlow
from companion.flows.base import Flow
from companion.flows.pay_line import PayLineFlow

FLOWS: dict[str, type[Flow]] = {BanditFlow.game_id: BanditFlow, PayLineFlow.game_id: PayLineFlow}


def make_flow(session: Session) -> Flow:
    """The flow for the session's game and mode; raises :class:`UserError` when there is none."""
    flow = FLOWS.get(session.config.game)
    if flow is None:
        raise UserError(f"no flow for '{session.config.game}' yet (flows: {', '.join(FLOWS)})")
    if session.mode not in flow.modes:
        raise UserError(f"{session.config.game} plays in {' or '.join(flow.modes)} mode, not {session.mode}")
    return flow(session)
