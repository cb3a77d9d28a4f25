"""`python -m assistant.frontends.cli`: the command line without the entry point's early model loading."""
from assistant.frontends.cli import main

main()
