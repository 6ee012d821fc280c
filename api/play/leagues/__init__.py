"""Private leagues: friends who compare their records of the day, week and month."""
