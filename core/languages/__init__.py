"""Languages memfix works on: a registry (registry.py), the contract every adapter keeps (adapter.py), and
one package per language."""
