"""Players and how they sign in: guests, registration, display names, lockouts, sessions, tokens."""
