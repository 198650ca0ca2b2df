"""The screen: view models (:mod:`.views`) the daemon builds, and the pygame display that draws
them (:mod:`.display`). Importing this package does not import pygame; the display does."""

import os as _os

# pygame prints a banner on stdout when first imported; it would corrupt JSON output
# (`companion bench screen`) and logs, so keep it quiet unless someone asked for it.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
