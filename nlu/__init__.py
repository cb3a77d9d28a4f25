"""Language understanding over policies and questions: answerability, PolicyIE, the span reader."""
