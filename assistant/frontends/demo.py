"""`make demo`: ingest the bundled example policies and answer a few sample questions."""
from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console
from rich.rule import Rule

from assistant.engine import Assistant
from assistant.frontends.render import render_answer

SAMPLE_QUESTIONS = (
    "What information do they collect about me?",
    "Do they share my personal information with third parties?",
    "Do they use cookies?",
    "How do they protect my information?",
    "Can children use the site?",
    "How long do they keep my data?",
    "Has Amazon ever been hacked?",
    "Will my order arrive by Friday?",
)


def main(policy_path: str) -> None:
    console = Console()
    assistant = Assistant()
    path = Path(policy_path)
    for example in sorted(path.parent.glob("*.html")):
        result = assistant.ingest(example, name=example.stem)
        state = "already stored" if result.unchanged else f"ingested in {result.seconds:.1f} s"
        console.print(f"[dim]{result.version.name}: {result.version.n_sentences} sentences, {state}[/dim]")
    for question in SAMPLE_QUESTIONS:
        console.print(Rule(f"Q: {question}"))
        console.print(render_answer(assistant.ask(question, policy=path.stem)))
    console.print(Rule())
    console.print(f"Store: {assistant.settings.home}. Ask your own, for example:")
    example = f'ASSISTANT_HOME={assistant.settings.home} .venv/bin/assistant ask "Do they sell my data?"'
    console.print(f"  {example} --policy {path.stem}", markup=False)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "examples/policies/amazon.com.html")
