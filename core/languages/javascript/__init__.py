"""JavaScript and TypeScript: Biome, the team's configuration as data, and the checks of exports and
directives."""
