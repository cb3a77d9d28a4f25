"""`assistant train`: reproduce the shipped fine-tuned weights.

Each command imports its training inside its function, for start-up speed: torch and the training code take
seconds to import, and `--help` must answer at once.
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from assistant.frontends.cli.common import console, friendly_errors, print_json

app = typer.Typer(help="Reproduce the shipped fine-tuned weights (resumable).", no_args_is_help=True)


@app.command("attributes")
@friendly_errors
def train_attributes() -> None:
    """Fit the OPP-115 attribute heads over the retriever's vectors into weights/attributes/ (a few minutes)."""
    from assistant.models.attributes.train import train  # lazy, for start-up speed

    train(log=console.print)


@app.command("facets")
@friendly_errors
def train_facets() -> None:
    """Fit the question-facet classifier over question embeddings into weights/facets/ (about a minute)."""
    from assistant.evaluation.sets import find_set  # lazy, for start-up speed
    from assistant.models.facets.train import WORDING_SETS, train  # lazy, for start-up speed
    from assistant.understanding.facets import facet_rules  # lazy, for start-up speed

    train(facet_rules(), {name: find_set(name).answers for name in WORDING_SETS}, log=console.print)


@app.command("answer-sentences")
@friendly_errors
def train_answer_sentences(
    home: Annotated[Path | None, typer.Option(
        "--home", help="Keep the sets' stores here (a second run reads them back); default: a throwaway folder.")] = None,
) -> None:
    """Fit the answer-sentence scorer on the answers sets' labelled sentences into weights/answer_sentences/
    (the dev set and heldout1–11 of sets/answers/, their policies rebuilt by scripts/heldout_policies.py; ingests
    their 90 policies: about ten minutes, a minute with --home kept)."""
    from assistant.evaluation.answer_sentences import train  # lazy, for start-up speed

    if home is not None:
        train(home, log=console.print)
        return
    with tempfile.TemporaryDirectory(prefix="answer-sentences-") as folder:
        train(Path(folder), log=console.print)


@app.command("categories")
@friendly_errors
def train_categories(
    lexical_only: Annotated[bool, typer.Option(
        "--lexical-only", help="Refit only the TF-IDF half on the shipped encoder (about a minute).")] = False,
) -> None:
    """Fine-tune the OPP-115 practice-category classifier into weights/practice_categories/ (resumes
    per epoch), then fit its lexical half."""
    from assistant.models.practices.train import fit_lexical, train_release  # lazy, for start-up speed

    console.print(fit_lexical(log=console.print) if lexical_only else train_release(log=console.print))


@app.command("questions")
@friendly_errors
def train_questions() -> None:
    """Train the question classifiers (answerability, categories) into weights/question_classifier/."""
    from assistant.models.questions.train import train_release  # lazy, for start-up speed
    from assistant.models.retriever.model import Embedder  # lazy, for start-up speed

    console.print(train_release(Embedder()))


@app.command("policyie")
@friendly_errors
def train_policyie() -> None:
    """Fine-tune the PolicyIE intent + slot model into weights/policyie/ (resumes per epoch)."""
    from assistant.models.policyie.train import train_release  # lazy, for start-up speed

    console.print(train_release(log=console.print))


@app.command("piextract")
@friendly_errors
def train_piextract() -> None:
    """Fine-tune the PI-Extract tagger into weights/piextract/ (resumes per epoch)."""
    from assistant.models.piextract.train import train_release  # lazy, for start-up speed

    console.print(train_release(log=console.print))


@app.command("reader")
@friendly_errors
def train_reader() -> None:
    """Fine-tune the PolicyQA span reader into weights/reader/ (checkpoints and resumes)."""
    from assistant.models.reader.train import train_release  # lazy, for start-up speed

    console.print(train_release(log=console.print))


@app.command("retriever")
@friendly_errors
def train_retriever() -> None:
    """Fine-tune the bi-encoder's top layers on PolicyQA pairs into weights/retriever/ (resumes)."""
    from assistant.models.retriever.train import train_release  # lazy, for start-up speed

    console.print(train_release(log=console.print))


@app.command("policy-detector")
@friendly_errors
def train_policy_detector() -> None:
    """Fit the privacy-policy detector on the screening corpus into weights/policy_detector/ (about a minute;
    rebuild the corpus first with scripts/screening_corpus.py)."""
    from assistant.evaluation.screening import train_release  # lazy, for start-up speed

    print_json(train_release(log=console.print))

