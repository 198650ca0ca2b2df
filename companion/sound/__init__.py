"""Sound: synthesised effects (:mod:`.synth`) played through pygame.mixer (:mod:`.player`).

Importing this package does not start the mixer; :class:`~companion.sound.player.SoundPlayer`
does.
"""
