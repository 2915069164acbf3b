"""The five games. Each module exposes ``RULES``; ``companion.registry`` lists them."""
