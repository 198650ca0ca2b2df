"""Sound: synthesised effects (:mod:`.synth`) played through pygame.mixer (:mod:`.player`).

Importing this package does not start the mixer; :class:`~companion.sound.player.SoundPlayer`
does.
"""

import os as _os

# pygame prints a banner on stdout when first imported; it would corrupt JSON output
# (`companion bench screen`) and logs, so keep it quiet unless someone asked for it.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
