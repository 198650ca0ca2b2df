"""The daemon: one main loop that wires camera, vision, controls, flows, screen, sound and journal.

See :mod:`companion.daemon.app` (the loop), :mod:`.camera` (the camera thread) and :mod:`.notify`
(systemd). It stands on everything else and nothing imports it but the command line and the
benchmarks: the session (match + journal) is :mod:`companion.session`, the checks of
``companion doctor`` are :mod:`companion.doctor`, and the simulated table it wires in off the Pi
is :mod:`companion.simtable`.
"""
