"""The resources one app owns (store, print runs, tables, broker, rate limit), found from
any request's app by ``services(app)``; ``create_app`` in ``web/__init__.py`` makes them."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask

from companion.runs import RunStore
from web.broker import Broker
from web.guard import RateLimit
from web.store import EventStore
from web.tables import Tables


@dataclass
class Services:
    """The resources one app owns, with an explicit lifecycle (``close``)."""

    store: EventStore
    runs: RunStore
    tables: Tables
    broker: Broker
    creations: RateLimit

    def close(self) -> None:
        self.broker.close()
        self.store.close()


def services(app: Flask) -> Services:
    svc: Services = app.extensions["companion"]
    return svc
