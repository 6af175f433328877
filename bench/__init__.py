"""Benchmarks: each module ``bench/bench_*.py`` has a ``main()`` that prints its figures."""
