-- A repository's id and name stay recorded after it leaves the installation (removed, or deleted on GitHub), so a
-- new repository that takes its name later is told apart from it: its memory starts empty (core/tenants.py).
ALTER TABLE repositories ADD COLUMN removed_at timestamptz;
