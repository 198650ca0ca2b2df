"""The symbols drawn once at ``companion.art.RENDERED_PX`` (PNG with alpha), so the screen needs
neither NumPy nor OpenCV: remake them with ``python -m companion.art.prerender`` after changing
the art (a test checks they match it)."""
