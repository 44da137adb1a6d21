"""Python: ruff, the project's own decisions, and the checks no lint makes."""
