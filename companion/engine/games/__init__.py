"""One module per game (plus its TOML component file); each registers itself."""
