// A modal question in a native <dialog>: focus moves into it and stays there,
// Escape and the safe button both answer "no", and focus goes back to the
// control that asked. Resolves true only for the confirming button.

export function confirmDialog(dialog, { confirm, keep }) {
  return new Promise((resolve) => {
    const opener = document.activeElement;
    const done = (answer) => {
      confirm.removeEventListener("click", yes);
      keep.removeEventListener("click", no);
      dialog.removeEventListener("cancel", no);
      if (dialog.open) dialog.close();
      opener?.focus?.();
      resolve(answer);
    };
    const yes = () => done(true);
    const no = (event) => {
      event?.preventDefault?.();
      done(false);
    };
    confirm.addEventListener("click", yes);
    keep.addEventListener("click", no);
    dialog.addEventListener("cancel", no);
    dialog.showModal();
    keep.focus();
  });
}

/**
 * Does finishing this attempt need the player's confirmation? A ranked
 * attempt that can still be played does; practice, a win, and a ranked
 * attempt whose day is over (frozen: no move is accepted) do not.
 */
export function finishNeedsConfirmation(attempt) {
  return Boolean(attempt?.ranked && !attempt.finished && !attempt.frozen && attempt.status !== "won");
}
