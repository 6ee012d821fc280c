"""An attempt's life: the rules of play on plain values (domain), its one home in the database (store), the services between, hints."""
