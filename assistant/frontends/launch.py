"""The `assistant` command's entry point (`python -m assistant.frontends.launch` too): starts loading the question's models
before the command line is even parsed, when the command will answer a question in this process.

`assistant ask` from a fresh process spends its time importing Python modules and building two ONNX
Runtime sessions (the question's two embeddings in one graph, and the span reader); ONNX Runtime builds a
session without holding the GIL, so building them on a background thread while the interpreter imports the
command line and the engine overlaps the two. Nothing is
preloaded when a running `assistant serve` will answer instead (a refused connection costs a fraction of a
millisecond), for `--help`, or for any other command. Once that one question is answered, the process
ends without the interpreter's teardown (`_exit_now`).
"""
from __future__ import annotations

import sys

# what `ask` loads: the question's two embeddings in one graph (for its classifier and for search), the span reader
QUESTION_MODELS = ("question", "reader")


def main() -> None:
    one_question, code = run()
    if one_question:
        _exit_now(code)
    sys.exit(code)


def run() -> tuple[bool, int | str | None]:
    """Run the command in `sys.argv`: whether it answered a question in this process, and its exit status."""
    one_question = _answers_in_process(sys.argv[1:])
    if one_question:
        import gc

        from assistant.models.runtime import preload  # lazy: only for a question answered here

        # No cycle collection in a process that answers one question and ends without teardown: its passes
        # over the imported modules' objects cost about 10 ms, and peak memory stays the same (measured with
        # `ask --all` over thirty policies); everything is freed when the process ends.
        gc.disable()
        preload(QUESTION_MODELS)
    try:
        from assistant.frontends.cli import main as run_command_line  # lazy: after the preload has started

        run_command_line()
        code = None
    except SystemExit as done:
        code = done.code
    finally:
        from assistant.models.runtime import wait_for_preload  # lazy: loaded already if a preload started

        wait_for_preload()
    return one_question, code


def _exit_now(code: int | str | None) -> None:
    """End a process that has answered its one question without the interpreter's teardown: freeing the
    ONNX Runtime sessions and finalising numpy, FAISS and the engine's modules one by one takes about 60 ms,
    a sixth of the whole command, and nothing is left to save (the answer is printed, the store was only
    read). The output streams and log handlers are flushed first; the exit status is the command's."""
    import logging
    import os

    if isinstance(code, str):  # SystemExit("message"): printed, status 1, as the interpreter would
        print(code, file=sys.stderr)
        code = 1
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or 0)


def _answers_in_process(arguments: list[str]) -> bool:
    """Whether these arguments ask a question that this process will answer itself."""
    if not arguments or arguments[0] != "ask" or {"--help", "-h"} & set(arguments):
        return False
    from assistant.foundation.errors import AssistantError  # lazy: only for an `ask`
    from assistant.frontends.client import configured_server  # lazy: only for an `ask`

    try:
        server = configured_server()
    except AssistantError:  # the command reports the bad setting itself
        return False
    return server is None or not server.listening()  # something listens there: the command asks it first


if __name__ == "__main__":
    main()
