"""Camera sources, card detection and identification, printable cards and mats."""
