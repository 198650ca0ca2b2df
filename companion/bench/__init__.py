"""Benchmarks for ``companion bench NAME``.

Each module here exposes ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> Iterable[dict]``; every dict is printed as one JSON line. Benchmarks measure;
tests never assert on time.
"""
