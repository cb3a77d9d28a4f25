"""Rasa custom actions of the privacy assistant (served by `python -m actions.server`)."""
