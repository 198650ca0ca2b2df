"""The screen: view models (:mod:`.views`) the daemon builds, and the pygame display that draws
them (:mod:`.display`). Importing this package does not import pygame; the display does."""
