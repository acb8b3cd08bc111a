// The page's address (the part after `#`): which view is shown and what it shows, so that Back
// and Forward move between views and positions, an address typed or pasted opens what it names,
// a reload restores the analysis board, and a link shares a position or a game
// (docs/web-app.md, "Addresses").
//
//   #play                   the new-game form, or this tab's game
//   #play/ID                the game ID of the server (a game in progress or just finished)
//   #analyse                the analysis board at the usual start position
//   #analyse/FEN            a position: its FEN with `_` for the spaces (`start`: the usual one)
//   #analyse/FEN/MOVES      and moves played from it, ICCS separated by `,`
//   #analyse/FEN/MOVES/N    showing the position after the first N of them (0: the FEN's)
//   #review/FEN/MOVES[/N]   the same, with the review of that game (review.js)
//   #tables                 the endgame tables
//   #tables/MATERIAL        one table's page (`KRKAABB`)
//   #puzzles                the puzzles: the one under way, or the next not yet tried
//   #puzzles/ID             one puzzle (`GET /api/puzzles/{id}`)
//
// A FEN's board has exactly ten ranks separated by `/`, so the first ten parts after
// `#analyse/` are the FEN and what follows is the moves.

export const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

const RANKS = 10;

/** The text of an address, percent escapes decoded (a typed space arrives as `%20`). */
function decoded(hash) {
  const text = hash.replace(/^#/, '');
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * What an address names: `{view: 'play', game}`, `{view: 'analyse', fen, moves, ply}` (`ply`
 * null for the end of the moves), `{view: 'review', fen, moves, ply}` (the same, reviewed),
 * `{view: 'tables', material}`, `{view: 'puzzles', id}`. An address that names nothing known is
 * the play view.
 */
export function parse(hash) {
  const parts = decoded(hash).split('/');
  const view = parts.shift();
  if (view === 'tables') {
    const material = (parts[0] || '').trim();
    return { view, material: /^\w+$/.test(material) ? material.toUpperCase() : null };
  }
  if (view === 'analyse' || view === 'review') {
    if (!parts.length || !parts[0]) return { view, fen: START, moves: [], ply: null };
    let fen;
    if (parts[0] === 'start') {
      fen = START;
      parts.shift();
    } else {
      fen = parts.splice(0, RANKS).join('/').replace(/_/g, ' ').trim();
    }
    const moves = (parts.shift() || '').split(/[,\s]+/).filter(Boolean);
    const n = parts.length ? Number.parseInt(parts[0], 10) : NaN;
    const ply = Number.isInteger(n) && n >= 0 && n <= moves.length ? n : null;
    return { view, fen, moves, ply };
  }
  if (view === 'puzzles') {
    const id = (parts[0] || '').trim().toLowerCase();
    return { view, id: /^[0-9a-f]{8}$/.test(id) ? id : null };
  }
  if (view === 'play') {
    const game = (parts[0] || '').trim();
    return { view, game: /^[0-9a-f]+$/.test(game) ? game : null };
  }
  return { view: 'play', game: null };
}

/** The address of the analysis board showing the position after `ply` of `moves` from `fen`. */
export function analyse(fen, moves = [], ply = moves.length) {
  if (fen === START && !moves.length) return '#analyse';
  const where = fen === START ? 'start' : fen.trim().replace(/ /g, '_');
  if (!moves.length) return `#analyse/${where}`;
  const shown = ply === moves.length ? '' : `/${ply}`;
  return `#analyse/${where}/${moves.join(',')}${shown}`;
}

/** The address of the review of the game `moves` from `fen`, showing the position after `ply`. */
export function review(fen, moves, ply = moves.length) {
  const where = fen === START ? 'start' : fen.trim().replace(/ /g, '_');
  const shown = ply === moves.length ? '' : `/${ply}`;
  return `#review/${where}/${moves.join(',')}${shown}`;
}

/** The address of the play view, with the game `id` when there is one. */
export function play(id) {
  return id ? `#play/${id}` : '#play';
}

/** The address of the tables' pages, with one table's when `material` is given. */
export function tables(material) {
  return material ? `#tables/${material}` : '#tables';
}

/** The address of the puzzles, with one puzzle's when `id` is given. */
export function puzzles(id) {
  return id ? `#puzzles/${id}` : '#puzzles';
}

/** A whole link (this page's address and `hash`), to copy and share. */
export function link(hash) {
  return `${window.location.origin}${window.location.pathname}${hash}`;
}
