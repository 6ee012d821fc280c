// Midnight in the daily time zone, seen from an open page: once the countdown
// reaches zero the page asks the server for the day again, and when the date
// has changed it shows the notice (onNewDay) and the countdown goes on to the
// next midnight (onDaily). Until the server says so it asks again every few
// seconds, so the countdown never rests at zero.

export function watchMidnight({ fetchDaily, currentDate, onDaily, onNewDay, retryMs = 5000, now = () => performance.now() }) {
  let pending = false;
  let lastTry = -Infinity;
  return {
    async check(secondsLeft) {
      if (secondsLeft > 0 || pending || now() - lastTry < retryMs) return;
      lastTry = now();
      pending = true;
      const before = currentDate();
      try {
        const daily = await fetchDaily();
        if (daily.date !== before) {
          onDaily(daily);
          onNewDay(daily);
        }
      } catch {
        // Offline for a moment: the next tick after retryMs asks again.
      } finally {
        pending = false;
      }
    },
  };
}
