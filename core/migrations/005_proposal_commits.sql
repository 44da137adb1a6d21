-- The commit memfix last pushed on each proposal's branch: a PR outcome is a verdict on memfix's change only
-- when the PR closed at that commit (someone else's commits on top make it someone else's change).
ALTER TABLE proposals ADD COLUMN head_sha text;
