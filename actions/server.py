"""The action server: rasa-sdk's app in one process, bound to loopback, the engine loaded once.

    .venv/bin/python -m actions.server [--host 127.0.0.1] [--port 5055]

Equivalent to `python -m rasa_sdk --actions actions`, except that it serves from a single process
(rasa-sdk's own runner forks a worker, importing the actions twice), binds to 127.0.0.1 by default
rather than all interfaces, and starts loading the models as soon as it is up. GET /health answers
at once; the first question waits for the models (about 10 s on 2 cores).
"""
from __future__ import annotations

import argparse
import logging
import os

from rasa_sdk import utils
from rasa_sdk.endpoint import create_app
from rasa_sdk.executor import ActionExecutor

from actions import runtime


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the privacy assistant's Rasa custom actions.")
    parser.add_argument("--host", default=os.environ.get("ACTIONS_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("ACTIONS_PORT", "5055")))
    parser.add_argument("--no-warm-up", action="store_true", help="Load the models on the first question instead.")
    parser.add_argument("--log-level", default=os.environ.get("ACTIONS_LOG_LEVEL", "INFO"))
    args = parser.parse_args()

    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    runtime.check_served_corpus()
    utils.update_sanic_log_level()
    executor = ActionExecutor()
    executor.register_package("actions")
    app = create_app(executor, cors_origins=None)
    app.config.KEEP_ALIVE_TIMEOUT = 30
    if not args.no_warm_up:
        app.register_listener(lambda *_: runtime.warm_up(), "after_server_start")
    app.run(host=args.host, port=args.port, single_process=True, access_log=False, motd=False)


if __name__ == "__main__":
    main()
