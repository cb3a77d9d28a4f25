"""Code the Rasa server loads (it runs in .venv-rasa, from the project root): custom input channels."""
