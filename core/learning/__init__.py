"""Learning: the policy memfix learns from outcomes and words (policy.py, explore.py, places.py), behind one façade
(learning.py)."""
