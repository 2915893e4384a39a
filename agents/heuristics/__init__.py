"""One heuristic agent per game: sensible beginner play from the seat's observation alone."""
