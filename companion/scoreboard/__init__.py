"""The night's scoreboard on every phone at the table: a small read-only web server.

``companion scoreboard`` (its own process and systemd unit) reads the journal read-only and
serves one page with the game being played (live, server-sent events), tonight's games and
standings, past nights and their downloads. :mod:`.board` follows the journal, :mod:`.server`
serves, :mod:`.art` brings the games' own symbol art, :mod:`.address` says where to find it.
"""
