from datetime import date

from django.core.management.base import BaseCommand, CommandError

from api import clock
from api.deals.models import DailyDeal
from api.deals.services import GAMES, VerificationBudget, deals_prepare_range


def _iso_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--start {text!r} is not a date: use YYYY-MM-DD.") from None


class Command(BaseCommand):
    help = (
        "Create and verify the daily deals of a range of dates (default: today, both games). "
        "Verification runs here with progress shown, unless --queue hands it to Celery workers."
    )

    def add_arguments(self, parser):
        parser.add_argument("--start", type=_iso_date, help="First date, YYYY-MM-DD (default: today).")
        parser.add_argument("--days", type=int, default=1, help="How many dates (default 1).")
        parser.add_argument(
            "--game", choices=GAMES, action="append", dest="games", help="Only this game (repeatable)."
        )
        parser.add_argument(
            "--reverify", action="store_true", help="Run the solver again on deals already verified."
        )
        parser.add_argument(
            "--queue", action="store_true", help="Queue verification for the Celery workers and return."
        )
        parser.add_argument("--max-seconds", type=float, help="Solver budget per candidate, seconds.")
        parser.add_argument("--max-nodes", type=int, help="Solver budget per candidate, nodes.")
        parser.add_argument("--max-candidates", type=int, help="Candidates to try per date.")
        parser.add_argument(
            "--max-solution-moves",
            type=int,
            help="A candidate with a longer solution goes to the next one (the last keeps it).",
        )

    def handle(self, *args, start, days, games, reverify, queue, **options):
        if days < 1:
            raise CommandError(f"--days must be 1 or more, not {days}.")
        for name, value in options.items():
            if name.startswith("max_") and value is not None and value <= 0:
                flag = "--" + name.replace("_", "-")
                raise CommandError(f"{flag} must be more than 0, not {value}.")
        start = start or clock.today()
        games = games or list(GAMES)
        budget = VerificationBudget.from_settings(
            max_seconds=options["max_seconds"],
            max_nodes=options["max_nodes"],
            max_candidates=options["max_candidates"],
            max_solution_moves=options["max_solution_moves"],
        )
        total = days * len(games)
        self.stdout.write(
            f"Preparing {total} deal(s): {', '.join(games)} from {start.isoformat()} for {days} day(s)"
            + (", queued for the workers" if queue else "")
        )

        def on_candidate(deal, result):
            self.stdout.write(
                f"    {deal.date.isoformat()} {deal.game:<6} candidate {deal.candidate}: "
                f"{result.status.value} ("
                + (f"{len(result.moves)} moves, " if result.moves else "")
                + f"{result.nodes} nodes, {result.seconds:.1f} s)"
            )

        def on_deal(deal, index, count):
            self.stdout.write(f"[{index}/{count}] {self._describe(deal)}")

        deals = deals_prepare_range(
            start=start,
            days=days,
            games=games,
            verify_now=not queue,
            reverify=reverify,
            budget=budget,
            on_deal=on_deal,
            on_candidate=None if queue else on_candidate,
        )
        failed = [deal for deal in deals if deal.state == DailyDeal.State.FAILED]
        verified = sum(deal.state == DailyDeal.State.VERIFIED for deal in deals)
        self.stdout.write(f"{verified} of {len(deals)} verified.")
        if failed:
            raise CommandError(
                f"{len(failed)} deal(s) failed verification: "
                + "; ".join(f"{deal.game} {deal.date}: {deal.failure}" for deal in failed)
            )

    def _describe(self, deal: DailyDeal) -> str:
        head = f"{deal.date.isoformat()} {deal.game:<6} {deal.state}"
        if deal.state == DailyDeal.State.VERIFIED:
            return self.style.SUCCESS(
                f"{head}: candidate {deal.candidate}, {deal.solution_length} moves, "
                f"{deal.redeals} redeals, difficulty {deal.difficulty}, {deal.solve_seconds:.1f} s"
            )
        if deal.state == DailyDeal.State.FAILED:
            return self.style.ERROR(f"{head}: {deal.failure}")
        return head
