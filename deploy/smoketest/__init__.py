"""deploy/smoke's runs and the steps they share (see deploy/smoke)."""
