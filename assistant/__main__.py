"""`python -m assistant`: the `assistant` command."""
from assistant.frontends.launch import main

main()
