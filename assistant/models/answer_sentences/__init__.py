"""The answer-sentence scorer: which of the sentences that speak of a question's facet a reader would quote
as the answer (model.py: inference; train.py: fitting from the answers sets' labelled sentences)."""
