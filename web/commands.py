"""Subcommands of this package: ``serve`` and ``db`` (registered by ``companion_cli``)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

DEMO_PLAYERS = ["Ana", "Ben", "Chen"]


def register(cli: Any) -> None:
    p = cli.command("serve", "run the referee web app (waitress, SQLite event store)", _serve)
    # Phones at the table are the main job: serve the LAN, and every join link and code
    # carries the machine's LAN address. --host 127.0.0.1 keeps it to this machine.
    p.add_argument("--host", default="0.0.0.0",
                   help="address to bind (default 0.0.0.0: the whole LAN, so phones can "
                        "join; 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--data-dir", default="data", help="SQLite database and print runs")
    p.add_argument("--threads", type=int, default=256,
                   help="server threads; each open page holds one (default 256)")
    p.add_argument("--public-url", default=None,
                   help="base URL for join links (default: the LAN address when bound to it)")
    p.add_argument("--camera-preview", default=None, metavar="URL",
                   help="show the camera's annotated preview (companion watch --preview-port) "
                        "on the referee page, e.g. http://127.0.0.1:8765")
    p.add_argument("--tls", action="store_true",
                   help="serve HTTPS with a self-signed certificate made once and kept in the "
                        "data dir (phones need it for the live camera page)")
    p.add_argument("--demo", action="store_true",
                   help="make sure a demo WuXing table exists and print its links and QR codes")
    p.add_argument("--database", default=os.environ.get("COMPANION_DATABASE_URL"),
                   metavar="URL",
                   help="postgresql://user:pass@host/db: keep tables in PostgreSQL, shared by "
                        "several serve processes (default: SQLite in --data-dir; also "
                        "COMPANION_DATABASE_URL)")
    p.add_argument("--db-pool", type=int, default=8,
                   help="PostgreSQL connections this process may hold (default 8)")
    p.add_argument("--streams-per-client", type=int, default=16, metavar="N",
                   help="event streams one client address may hold open (default 16; a "
                        "cap against a client starving the server)")
    p.add_argument("--tables-per-client", type=int, default=20, metavar="N",
                   help="tables one client address may make per 10 minutes (default 20)")
    p.add_argument("--live-tables-per-client", type=int, default=40, metavar="N",
                   help="tables made by one client address that may be in play at once "
                        "(default 40)")
    p.add_argument("--tables-total", type=int, default=300, metavar="N",
                   help="tables all clients may make per 10 minutes; one address at most "
                        "its fair share, half when alone (default 300)")
    p.add_argument("--behind-proxy", type=int, default=0, metavar="HOPS",
                   help="trust X-Forwarded-For/-Proto/-Host from this many reverse proxies "
                        "(nginx, Caddy); default 0")
    p.add_argument("--proxy-from", default="127.0.0.1,::1", metavar="ADDRS",
                   help="with --behind-proxy: the proxy's addresses or networks, comma-"
                        "separated (default 127.0.0.1,::1: a proxy on this machine); "
                        "X-Forwarded-* from any other client are ignored")
    m = cli.command("db", "database tools: copy a SQLite data dir into PostgreSQL", _db)
    m.add_argument("action", choices=["migrate"],
                   help="migrate: copy tables, logs, scan ids and print runs, then verify")
    m.add_argument("--to", required=True, metavar="URL", help="postgresql://... target")
    m.add_argument("--data-dir", default="data", help="the SQLite data dir to copy")
    x = cli.command("export", "write every game of a data dir as JSON records, its print runs "
                    "and games.csv (one line per table)", _export)
    x.add_argument("--data-dir", default="data", help="the data dir to read (default ./data)")
    x.add_argument("--out", required=True, metavar="DIR", help="the folder to write")
    i = cli.command("import", "read a folder that companion export wrote into a data dir "
                    "(nothing lost or changed; an identical table is skipped)", _import)
    i.add_argument("folder", metavar="DIR", help="the folder companion export wrote")
    i.add_argument("--data-dir", default="data", help="the data dir to add to (default ./data)")
    st = cli.command("stats", "every player's games, wins and longest run of wins, and every "
                     "table, from a data dir", _stats)
    st.add_argument("--data-dir", default="data", help="the data dir to read (default ./data)")
    st.add_argument("--json", action="store_true", help="print JSON")


def _serve(args: argparse.Namespace) -> int:
    from web import create_app, services
    from web.server import make_server, public_url, run_until_stopped

    if not 1 <= args.port <= 65535:
        raise SystemExit(f"companion: --port must be 1-65535, got {args.port}")
    if args.threads < 8:
        raise SystemExit("companion: --threads must be at least 8 (each open page holds one)")
    base = args.public_url or public_url(args.host, args.port)
    if args.database and not args.database.startswith(("postgresql://", "postgres://")):
        raise SystemExit("companion: --database must be a postgresql:// URL")
    try:
        app = create_app({"DATA_DIR": str(Path(args.data_dir).resolve()), "PUBLIC_URL": base,
                          "CAMERA_PREVIEW": args.camera_preview, "DATABASE": args.database,
                          "DB_POOL": args.db_pool, "PROXY_HOPS": args.behind_proxy,
                          "PROXY_FROM": args.proxy_from,
                          "SSE_MAX_PER_CLIENT": max(1, args.streams_per_client),
                          "TABLES_PER_CLIENT": max(1, args.tables_per_client),
                          "TABLES_LIVE_PER_CLIENT": max(1, args.live_tables_per_client),
                          "TABLES_TOTAL": max(2, args.tables_total)})
    except ValueError as exc:  # --proxy-from that is no address
        raise SystemExit(f"companion: --proxy-from: {exc}") from None
    except RuntimeError as exc:  # PostgreSQL unreachable: said without the password
        print(f"companion: {exc}", file=sys.stderr)
        return 2
    front = None
    try:
        if args.tls:
            from web.tls import serve_tls

            server, front, said = serve_tls(app, args.host, args.port, args.threads,
                                            Path(args.data_dir).resolve())
            print(said)
        else:
            server = make_server(app, args.host, args.port, args.threads)
    except OSError as exc:
        services(app).close()
        print(f"companion: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    port = front.port if front is not None else server.effective_port
    scheme = "https" if front is not None else "http"
    base = args.public_url or public_url(args.host, port).replace("http:", scheme + ":", 1)
    app.config["PUBLIC_URL"] = base
    if args.database:
        from web.pgstore import redact

        where = f"tables in {redact(args.database)}"
    else:
        where = f"data in {Path(args.data_dir).resolve()}"
    print(f"Table Companion serving on {scheme}://{args.host}:{port}/ "
          f"({args.threads} threads); {where}")
    print(f"Lobby: {base}")
    if not args.database:  # a shared database may hold thousands: they load on first use
        print_referee_links(app, base)
    if args.demo:
        print_demo(app, base)
    print("Stop with Ctrl+C.", flush=True)
    def stopped() -> None:
        if front is not None:
            front.stop()
        print("Stopped; every table is saved.", flush=True)

    run_until_stopped(app, server, stopped)
    return 0


def demo_table(app: Any) -> Any:
    """The newest demo-able WuXing table, created (with a demo print run) if none exists."""
    from companion.registry import GAMES, demo_run, find_rules
    from web.resources import services

    svc = services(app)
    if svc.runs.newest("wuxing") is None:
        svc.runs.save(demo_run("wuxing", len(DEMO_PLAYERS)))
    # So that every game can be tried from the lobby before anything is printed: one demo
    # run per game, with the sets its largest table needs (extra sets start out of play).
    for game in GAMES:
        if svc.runs.newest(game) is None:
            try:
                rules = find_rules(game)
            except ImportError:
                continue
            svc.runs.save(demo_run(game, rules.max_players))
    # The newest WuXing table in play (read from the list: no other table is loaded).
    newest = next((t for t in svc.tables.listing(200) if t.game == "wuxing"), None)
    if newest is not None:
        return svc.tables.get(newest.id)
    return svc.tables.create("wuxing", list(DEMO_PLAYERS))


def print_referee_links(app: Any, base: str) -> None:
    """The referee link of every table still in play (the host token is shown nowhere else
    after creation, and this terminal is the host's)."""
    from web.resources import services

    # From the stored list, newest first: start-up loads no table (they load on use).
    tables = [t for t in services(app).tables.listing(200) if not t.finished]
    if tables:
        print("Tables in play (referee links):")
    for t in tables:
        print(f"  {t.title} {t.id} ({', '.join(t.players)}, version {t.version}): "
              f"{base.rstrip('/')}/t/{t.id}/referee?token={t.config.get('host_token', '')}")
    broken = services(app).tables.broken
    for tid, why in broken.items():
        print(f"  table {tid} could not be rebuilt: {why}")


def print_demo(app: Any, base: str) -> None:
    from web.qr import ascii_art

    table = demo_table(app)
    root = base.rstrip("/")
    print(f"\nDemo table {table.id} ({table.rules.title}, version {table.version})")
    print(f"  Table page (big screen): {root}/t/{table.id}?token={table.display_token()}")
    host = table.config["host_token"]
    print(f"  Referee page (host):     {root}/t/{table.id}/referee?token={host}")
    print(f"  Camera token:            {table.config['camera_token']}")
    cam = f"{root}/t/{table.id}/camera?token={table.config['camera_token']}"
    if root.startswith("https:"):
        print(f"  Phone as camera:         {cam}")
    else:  # live video in a browser needs a secure context
        print("  Phone as camera:         start with --tls for live video (Scan my card "
              "works on http)")
    print(f"  Camera:                  companion watch --camera 0 --server {root} "
          f"--table {table.id} --token {table.config['camera_token']} "
          f"--game {table.game} --players {len(table.players)}")
    for i, name in enumerate(table.players, start=1):
        url = f"{root}/t/{table.id}/seat/{i}?token={table.config['seat_tokens'][i - 1]}"
        print(f"  Seat {i} ({name}): {url}")
    for i, name in enumerate(table.players, start=1):
        url = f"{root}/t/{table.id}/seat/{i}?token={table.config['seat_tokens'][i - 1]}"
        print(f"\nScan to join as {name} (seat {i}):")
        print(ascii_art(url), end="")


def _db(args: argparse.Namespace) -> int:
    from web.migrate import migrate_sqlite_to_pg

    return migrate_sqlite_to_pg(Path(args.data_dir), args.to)


def _export(args: argparse.Namespace) -> int:
    from companion.progress import progress
    from web.archive import export

    with progress(None, "exporting", "tables") as bar:
        done = export(args.data_dir, args.out, bar)
    print(f"wrote {done['tables']} tables and {done['runs']} print runs to {args.out} "
          "(games.csv, tables/, runs/; it holds every token: keep it private)")
    return 0


def _import(args: argparse.Namespace) -> int:
    from companion.progress import progress
    from web.archive import import_into

    with progress(0, "replaying", "tables") as bar:
        done = import_into(args.folder, args.data_dir, bar)
    print(f"imported {done['tables']} tables and {done['runs']} print runs into "
          f"{args.data_dir} ({done['skipped']} already there, unchanged)")
    return 0


def _stats(args: argparse.Namespace) -> int:
    import json

    from web.archive import stats, stats_text

    figures = stats(args.data_dir)
    print(json.dumps(figures, indent=1) if args.json else stats_text(figures), end="")
    return 0
