"""How should the practice tagger's lexical half be built, and how much should it weigh? (A probe on
the OPP-115 validation split only: prints numbers; the shipped recipe is `nlu/lexical.py`.)

For each TF-IDF + logistic-regression recipe, its probabilities are mixed with the shipped encoder's
(`PracticeClassifier.encoder_probabilities`) at several lexical weights and scored on random halves
of the validation segments: thresholds tuned on one half, macro-F1 on the other, both ways, 30
splits. Tuning and scoring on the same segments would flatter every candidate alike.

    .venv/bin/python scripts/probe_categories_lexical.py     # about 5 min on the 2 cores
"""
from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score

from nlu.categories import PracticeClassifier, _label_matrix, _target_matrix, load_split, tune_thresholds
from nlu.practice_sentences import load_sentence_split

RECIPES = [  # (name, vectorizer options, C, class_weight, with train sentences)
    ("word 1-2, C=32", {"ngram_range": (1, 2), "min_df": 2}, 32, "balanced", False),
    ("word 1-2, C=32, + sentences (shipped)", {"ngram_range": (1, 2), "min_df": 2}, 32, "balanced", True),
    ("word 1-2, C=2", {"ngram_range": (1, 2), "min_df": 2}, 2, "balanced", False),
    ("word 1-2, C=128", {"ngram_range": (1, 2), "min_df": 2}, 128, "balanced", False),
    ("word 1-2, C=512", {"ngram_range": (1, 2), "min_df": 2}, 512, "balanced", False),
    ("word 1-2, C=32, min_df 1", {"ngram_range": (1, 2), "min_df": 1}, 32, "balanced", False),
    ("word 1-2, C=32, no class weights", {"ngram_range": (1, 2), "min_df": 2}, 32, None, False),
    ("word 1, C=8", {"ngram_range": (1, 1), "min_df": 2}, 8, "balanced", False),
    ("word 1-3, C=32", {"ngram_range": (1, 3), "min_df": 2}, 32, "balanced", False),
    ("char 2-5, C=8", {"analyzer": "char_wb", "ngram_range": (2, 5), "min_df": 3, "max_features": 100_000}, 8,
     "balanced", False),
]
WEIGHTS = (0.3, 0.4, 0.5, 0.6, 0.7)


def held_out_macro_f1(probabilities: np.ndarray, gold: np.ndarray, splits: int = 30) -> float:
    """Mean macro-F1 on one random half with thresholds tuned on the other (both ways)."""
    rng, results = np.random.default_rng(0), []
    for _ in range(splits):
        order = rng.permutation(len(gold))
        halves = order[: len(gold) // 2], order[len(gold) // 2 :]
        for tune, score in (halves, halves[::-1]):
            thresholds = np.asarray(tune_thresholds(probabilities[tune], gold[tune]))
            results.append(f1_score(gold[score], probabilities[score] >= thresholds, average="macro", zero_division=0))
    return 100 * float(np.mean(results))


def main() -> None:
    encoder = PracticeClassifier.load()
    labels = encoder.labels
    train, validation = load_split("train"), load_split("validation")
    sentences = load_sentence_split("train")
    gold = _label_matrix(validation, labels)
    encoder_probabilities = encoder.encoder_probabilities([e.text for e in validation])
    print(f"encoder alone: {held_out_macro_f1(encoder_probabilities, gold):.1f}", flush=True)
    for name, options, c, class_weight, with_sentences in RECIPES:
        texts = [e.text for e in train] + ([s.text for s in sentences] if with_sentences else [])
        targets = _label_matrix(train, labels)
        if with_sentences:
            targets = np.concatenate([targets, _target_matrix(sentences, labels) >= 0.5])
        vectorizer = TfidfVectorizer(sublinear_tf=True, **options)
        features = vectorizer.fit_transform(texts)
        validation_features = vectorizer.transform([e.text for e in validation])
        lexical = np.stack([LogisticRegression(C=c, max_iter=3000, class_weight=class_weight)
                            .fit(features, targets[:, j]).predict_proba(validation_features)[:, 1]
                            for j in range(len(labels))], axis=1)
        mixes = "  ".join(f"w={w}: {held_out_macro_f1((1 - w) * encoder_probabilities + w * lexical, gold):.1f}"
                          for w in WEIGHTS)
        print(f"{name}: alone {held_out_macro_f1(lexical, gold):.1f}  {mixes}", flush=True)


if __name__ == "__main__":
    main()
