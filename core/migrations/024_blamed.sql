-- The rules of a closed memfix PR that people's closing words or review comments pointed to: the policy blames those
-- (empty: nobody said, and blame falls as the evidence decides).
ALTER TABLE proposals ADD COLUMN blamed text[] NOT NULL DEFAULT '{}';
