"""Camera sources, card detection and identification, printable cards and mats.

- :mod:`vision.markers` and ``marker_ids.toml``: the ArUco dictionary and the fixed id map.
- :mod:`vision.layout`, :mod:`vision.cardart`, :mod:`vision.mats`, :mod:`vision.printing`:
  the printed cards (63 x 88 mm, two markers) and mats, as images and PDFs.
- :mod:`vision.camera`: ``open_source("picamera" | "usb:/dev/v4l/by-id/..." | "file:PATH" | "sim")``.
- :mod:`vision.simulated`: the simulated table (a frame source for tests, bench and demo).
- :mod:`vision.reader`: ``CardReader(game).read(frame) -> Reading``; :mod:`vision.tracker`:
  ``ZoneTracker`` (stable / changed / empty / unsure per zone).
- :mod:`vision.enrolled`: publishers' cards recognised by their art after enrolment.
- :mod:`vision.scenes`: seeded scenes and scoring shared by ``companion bench vision`` and tests.
"""
