// Scores as the page shows them: from Red's side everywhere, as lichess shows White's. The
// engines (Chariot's analysis and games, the external engines) speak for the side to move or
// for themselves; each place that shows a score turns it here:
//
//   +0.31   Red is better by 0.31 of a pawn (centipawns / 100); -1.20 Black is better
//   #3      Red mates in 3 moves (a move is Red's and Black's ply: ⌈plies / 2⌉)
//   #-3     Black mates in 3 moves
//
// The same signs in both languages (lichess's Chinese page writes them so too); a score's
// tooltip says it in words.

import { t } from './i18n.js';

/**
 * A score `{cp, mate}` (centipawns, or plies to mate: negative when mated, 0 when mated
 * already) for the side `side` (`red` or `black`) as Red's: `{cp}` (negated for Black), or
 * `{mate, winner}` (plies, and the side that mates).
 */
export function forRed({ cp = null, mate = null }, side) {
  const other = side === 'black' ? 'red' : 'black';
  if (mate !== null && mate !== undefined) {
    return { cp: null, mate: Math.abs(mate), winner: mate > 0 ? side : other };
  }
  return { cp: side === 'black' ? -cp : cp, mate: null };
}

/** An engine's score in the API's words (`"31"`, `"mate 5"`) for `side`, as Red's. */
export function wordsForRed(words, side) {
  if (words.startsWith('mate')) return forRed({ mate: Number(words.split(' ')[1]) }, side);
  return forRed({ cp: Number(words) }, side);
}

/** Red's score (`forRed`) written: `+0.31`, `-1.20`, `#3`, `#-3`. */
export function scoreText(red) {
  if (red.mate !== null) {
    const moves = Math.ceil(red.mate / 2);
    return red.winner === 'red' ? `#${moves}` : `#-${moves}`;
  }
  const pawns = red.cp / 100;
  return (pawns > 0 ? '+' : '') + pawns.toFixed(2);
}

/** Red's score in words, for a tooltip: "Red mates in 3", "Black is better by 1.20". */
export function scoreWords(red) {
  if (red.mate !== null) {
    const n = Math.ceil(red.mate / 2);
    return t(red.winner === 'red' ? 'score.red-mates' : 'score.black-mates', { n });
  }
  if (red.cp === 0) return t('score.even');
  const pawns = (Math.abs(red.cp) / 100).toFixed(2);
  return t(red.cp > 0 ? 'score.red-better' : 'score.black-better', { pawns });
}

/** The share of a red/black bar that is Red's for Red's score: a mate is all of it. */
export function redShare(red) {
  if (red.mate !== null) return red.winner === 'red' ? 1 : 0;
  return 1 / (1 + Math.exp(-red.cp / 250));
}
