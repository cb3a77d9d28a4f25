"""`assistant eval facets [--json]`: the question-facet classifier on the labelled PrivacyQA test questions
(`data/privacyqa_test.tsv`): the system as it runs (the model where it is confident, else the word rules)
beside the rules alone and the model alone (its most probable class): accuracy over the 17 classes (16 facets
and `none`) and macro F1 over the facets."""
from __future__ import annotations

from typing import Any

from assistant.models.facets.model import NONE, RELEASE_DIR, FacetClassifier
from assistant.models.facets.train import FacetRules, accuracy, combine, embed, load_labelled, macro_f1, rule_facets


def evaluate(rules: FacetRules, split: str = "test") -> dict[str, Any]:
    """The scores of the rules, the model and the two together on a labelled split (`rules`: see train.py)."""
    questions = load_labelled(split)
    model = FacetClassifier.load(RELEASE_DIR)
    probabilities = model.probabilities(embed(questions))
    gold, said = [q.facet for q in questions], rule_facets(questions, rules)
    systems = {"rules": said, "model": [model.labels[b] for b in probabilities.argmax(axis=1)],
               "model_then_rules": combine(said, probabilities, model.labels, model.threshold, model.none_threshold)}
    return {
        "split": f"privacyqa_{split}",
        "questions": len(questions),
        "with_a_facet": sum(g != NONE for g in gold),
        "threshold": model.threshold,
        "none_threshold": model.none_threshold,
        "systems": {name: {"accuracy": round(accuracy(gold, predicted), 1), "macro_f1": round(macro_f1(gold, predicted), 1)}
                    for name, predicted in systems.items()},
    }
