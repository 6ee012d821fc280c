"""What players read: the days' deals, their own attempts, history, the leaderboard and the archive's calendar."""
