"""One module per ``companion`` sub-command; each exposes ``register(subparsers)``."""
