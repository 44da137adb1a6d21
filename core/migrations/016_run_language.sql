-- Which language a run worked on (its files and its linter): the dashboard shows it per run.
ALTER TABLE runs ADD COLUMN language text NOT NULL DEFAULT 'python' CHECK (language IN ('python', 'javascript'));
