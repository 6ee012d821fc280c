"""Daily deals: one per game and date, derived from a secret, verified by the solver."""
