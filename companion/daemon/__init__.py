"""The daemon: one main loop that wires camera, vision, controls, engine, screen, sound and journal.

See :mod:`companion.daemon.app` (the loop), :mod:`.session` (match + journal), :mod:`.camera`
(the camera thread), :mod:`.notify` (systemd), :mod:`.doctor` (checks).
"""
