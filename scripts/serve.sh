#!/usr/bin/env bash
# The chat stack: the action server (engine env), the Rasa server (Rasa env) and the chat page.
#
#   scripts/serve.sh start    start all three in the background, wait until they answer
#   scripts/serve.sh stop     stop them
#   scripts/serve.sh status   show what runs
#   scripts/serve.sh shell    action server in the background + `rasa shell` in this terminal
#
# Settings (environment): CHAT_HOST (127.0.0.1), ACTIONS_PORT (5055), RASA_PORT (5005),
# WEB_PORT (8000), ASSISTANT_HOME (the store the actions answer from and the page adds to),
# ASSISTANT_CORPUS (a folder `assistant corpus ingest` wrote: services it holds are answered without an ingest, and
# "which of them…" is asked across it), RASA_MODEL (models/privacy-assistant.tar.gz), CHAT_RUN_DIR
# (.chat-run: pid and log files), CHAT_START_TIMEOUT (seconds, 240), CHAT_REPLY_TIMEOUT (seconds the chat
# page waits for a reply before it says none came back, 30), VENV (.venv), RASA_VENV (.venv-rasa).
# Security (docs/chat.md): CHAT_REST_TOKEN (the REST channel's bearer token; generated per run when
# unset, written to CHAT_RUN_DIR/rest-token), CHAT_SESSION_SECRET (signs the socketio session ids;
# generated per run when unset), CHAT_ALLOWED_ORIGINS (the page origins allowed to use the Rasa
# server from a browser; default the chat page's: http://CHAT_HOST:WEB_PORT and its loopback names).
set -euo pipefail
cd "$(dirname "$0")/.."

HOST=${CHAT_HOST:-127.0.0.1}
export ACTIONS_PORT=${ACTIONS_PORT:-5055}
RASA_PORT=${RASA_PORT:-5005}
WEB_PORT=${WEB_PORT:-8000}
RUN_DIR=${CHAT_RUN_DIR:-.chat-run}
VENV=${VENV:-.venv}
RASA_VENV=${RASA_VENV:-.venv-rasa}
MODEL=${RASA_MODEL:-models/privacy-assistant.tar.gz}
TIMEOUT=${CHAT_START_TIMEOUT:-240}
export RASA_TELEMETRY_ENABLED=false TF_CPP_MIN_LOG_LEVEL=2 PYTHONUNBUFFERED=1 PYTHONWARNINGS=ignore

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

alive() { [ -f "$RUN_DIR/$1.pid" ] && kill -0 "$(cat "$RUN_DIR/$1.pid")" 2>/dev/null; }

launch() {  # name command...: a new session (process group) per service, so stop ends its children too
    local name=$1; shift
    if alive "$name"; then
        echo "$name is already running (pid $(cat "$RUN_DIR/$name.pid")): scripts/serve.sh stop first." >&2
        exit 1
    fi
    setsid "$@" >"$RUN_DIR/$name.log" 2>&1 </dev/null &
    echo $! >"$RUN_DIR/$name.pid"
}

wait_for() {  # name url: until the url answers, the process dies, or the timeout
    local name=$1 url=$2 waited=0
    until python3 -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=5)" "$url" 2>/dev/null; do
        if ! alive "$name"; then
            echo "$name exited while starting; the end of $RUN_DIR/$name.log:" >&2
            tail -n 30 "$RUN_DIR/$name.log" >&2
            return 1
        fi
        if [ "$waited" -ge "$TIMEOUT" ]; then
            echo "$name did not answer on $url within $TIMEOUT s; see $RUN_DIR/$name.log" >&2
            return 1
        fi
        sleep 1
        waited=$((waited + 1))
    done
}

stop_one() {
    local name=$1 pid
    [ -f "$RUN_DIR/$name.pid" ] || return 0
    pid=$(cat "$RUN_DIR/$name.pid")
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        kill -KILL -- "-$pid" 2>/dev/null || true
        echo "stopped $name (pid $pid)"
    fi
    rm -f "$RUN_DIR/$name.pid"
}

random_secret() { python3 -c "import secrets; print(secrets.token_urlsafe(32))"; }

secure_settings() {  # the variables credentials.yml reads; the token where tests and scripts find it
    export CHAT_ALLOWED_ORIGINS=${CHAT_ALLOWED_ORIGINS:-"http://$HOST:$WEB_PORT http://localhost:$WEB_PORT http://127.0.0.1:$WEB_PORT"}
    export CHAT_SESSION_SECRET=${CHAT_SESSION_SECRET:-$(random_secret)}
    export CHAT_REST_TOKEN=${CHAT_REST_TOKEN:-$(random_secret)}
    (umask 077 && printf '%s\n' "$CHAT_REST_TOKEN" >"$RUN_DIR/rest-token")
}

check_model() {
    [ -f "$MODEL" ] || { echo "No Rasa model at $MODEL: run make rasa-train first." >&2; exit 1; }
}

start_actions() {
    launch actions "$VENV/bin/python" -m actions.server --host "$HOST" --port "$ACTIONS_PORT"
}

cmd=${1:-}
mkdir -p "$RUN_DIR"
case "$cmd" in
start)
    check_model
    secure_settings
    start_actions
    # shellcheck disable=SC2086 (one argument per origin)
    launch rasa "$RASA_VENV/bin/rasa" run --model "$MODEL" --endpoints endpoints.yml \
        --credentials credentials.yml -i "$HOST" -p "$RASA_PORT" --cors $CHAT_ALLOWED_ORIGINS
    launch web "$VENV/bin/python" web/server.py --host "$HOST" --port "$WEB_PORT" \
        --rasa-url "http://$HOST:$RASA_PORT"
    trap 'echo "Start failed; stopping." >&2; for s in web rasa actions; do stop_one $s; done' ERR
    wait_for actions "http://$HOST:$ACTIONS_PORT/health"
    wait_for web "http://$HOST:$WEB_PORT/"
    wait_for rasa "http://$HOST:$RASA_PORT/"
    trap - ERR
    echo "Chat page:        http://$HOST:$WEB_PORT/"
    echo "REST channel:     http://$HOST:$RASA_PORT/webhooks/rest/webhook (Authorization: Bearer \$(cat $RUN_DIR/rest-token))"
    echo "Action server:    http://$HOST:$ACTIONS_PORT/health"
    echo "Store:            ${ASSISTANT_HOME:-(default)}   logs: $RUN_DIR/"
    ;;
stop)
    for service in web rasa actions; do stop_one "$service"; done
    rm -f "$RUN_DIR/rest-token"
    ;;
status)
    for service in actions rasa web; do
        if alive "$service"; then echo "$service: running (pid $(cat "$RUN_DIR/$service.pid"))"; else echo "$service: stopped"; fi
    done
    ;;
shell)
    check_model
    secure_settings
    start_actions
    trap 'stop_one actions >/dev/null' EXIT
    echo "Loading the assistant (action server log: $RUN_DIR/actions.log)..."
    wait_for actions "http://$HOST:$ACTIONS_PORT/health"
    # rasa_addons/terminal.py: Rasa's CLI without the dependencies' warnings, text wrapped to the
    # terminal, menus by title
    "$RASA_VENV/bin/python" -m rasa_addons.terminal shell --model "$MODEL" --endpoints endpoints.yml \
        -i "$HOST" -p "$RASA_PORT" --quiet
    ;;
*)
    usage
    ;;
esac
