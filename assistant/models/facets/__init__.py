"""The question-facet classifier: which privacy facet a question asks about when the rules of
`assistant.understanding.facets` name none (model.py: inference; train.py; evaluate.py)."""
