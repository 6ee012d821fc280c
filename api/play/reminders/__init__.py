"""A private calendar feed per player: each day's deals, with a reminder."""
