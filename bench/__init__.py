"""The measuring rigs: benchmarks and the synthetic scenes they and the tests use."""
