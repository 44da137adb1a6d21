"""Running the tools a run needs: bounded processes (and, for the team's own tools, what the repository pins, the
install cache and the sandbox)."""
