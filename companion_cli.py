"""The ``companion`` command: one entry point, subcommands contributed by each package.

Each package's ``commands`` module has ``register(cli)`` and adds its subcommands and
benchmarks; heavy imports (OpenCV, reportlab, Flask) happen only inside the handlers.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from companion.errors import CompanionError

# Explicit, in help order. A package listed here must exist and register real commands.
COMMAND_MODULES = (
    "companion.commands",
    "printables.commands",
    "cv.commands",
    "web.commands",
    "report.commands",
    "bench.commands",
)

Handler = Callable[[argparse.Namespace], int]


class Cli:
    """What ``register`` functions receive: ways to add a command or a benchmark."""

    def __init__(self) -> None:
        self.parser = argparse.ArgumentParser(
            prog="companion",
            description="Table Companion: referee, scorekeeper, printer and camera for five "
            "table games.",
        )
        self._commands = self.parser.add_subparsers(dest="command", metavar="COMMAND")
        self._commands.required = True
        bench = self._commands.add_parser(
            "bench",
            help="benchmarks that print figures (engine, print, cv, photo, web, phones, pages)")
        self._benches = bench.add_subparsers(dest="bench", metavar="TARGET")
        self._benches.required = True

    def command(self, name: str, help: str, handler: Handler) -> argparse.ArgumentParser:
        p = self._commands.add_parser(name, help=help, description=help)
        p.set_defaults(handler=handler)
        return p

    def bench(self, name: str, help: str, handler: Handler) -> argparse.ArgumentParser:
        p = self._benches.add_parser(name, help=help, description=help)
        p.set_defaults(handler=handler)
        return p


def build() -> Cli:
    cli = Cli()
    for module in COMMAND_MODULES:
        importlib.import_module(module).register(cli)
    return cli


def main(argv: Sequence[str] | None = None) -> int:
    args = build().parser.parse_args(argv)
    try:
        code: int = args.handler(args)
    except CompanionError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
