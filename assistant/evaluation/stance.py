"""How well denials are read: `assistant eval stance`.

Gold: OPP-115 sentences of First Party Collection/Use and Third Party Sharing/Collection practices,
labelled from the annotators' `Does/Does Not` attribute (`corpora.stance_sentences`). Three readers
of "this sentence denies the practice" are scored (precision / recall / F1 of *denies*, in %):

- `rule`: `understanding.stance.denies(text)`, the word rules (tuned on the train split only);
- `policyie`: the PolicyIE model's `polarity` slot alone;
- `union`: either of them, which is what statements and the privacy label use (`understanding.statements.denied`).
"""
from __future__ import annotations

from assistant.corpora.stance_sentences import load_stance_split
from assistant.evaluation.metrics import binary_score
from assistant.understanding.stance import denies
from assistant.understanding.statements import has_polarity


def evaluate(split: str = "validation", policyie=None) -> dict:
    """Scores of the three readers on one split (`train`, `validation` or `test`)."""
    if policyie is None:
        from assistant.models.policyie.model import PolicyIETagger  # lazy: torch loads only when scoring

        policyie = PolicyIETagger.load()
    sentences = load_stance_split(split)
    gold = [s.denies for s in sentences]
    rule = [denies(s.text) for s in sentences]
    model = [has_polarity(f) for f in policyie.facts([s.text for s in sentences])]
    union = [r or m for r, m in zip(rule, model)]
    result: dict = {"split": split, "sentences": len(sentences), "denials": sum(gold)}
    for name, predicted in (("rule", rule), ("policyie", model), ("union", union)):
        score = binary_score(zip(predicted, gold)).percent()
        result[name] = {k: score[k] for k in ("precision", "recall", "f1")} | {"predicted": sum(predicted)}
    return result
