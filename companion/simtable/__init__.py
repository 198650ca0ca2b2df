"""The simulated table: the players and dealers who lay cards and press buttons off the Pi.

``companion demo`` and ``companion run`` off the Pi wire it in where a real table has people:
:class:`~companion.simtable.dealer.SimulatedCamera` opens a :class:`vision.simulated.SimulatedTable`
(vision's synthetic camera source) per game, and each game's dealer
(:mod:`.dealer` for Bandit, :mod:`.jackpot_payout`, :mod:`.mega_jackpot`, :mod:`.thanks_a_lottery`)
looks at the flow and lays the cards it asks for, straightens what the camera is unsure of and
corrects by the buttons, as a person would. It stands on the flows and the engine; the daemon
wires it in, and nothing below the daemon imports it.
"""
