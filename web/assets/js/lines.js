// The engines' lines in the analysis view, as lichess shows them: each line's score from Red's
// side, its depth and its moves, every move clickable. A click on a move shows on the board the
// position after it (the line's earlier moves played); the arrow keys (or ‹ ›) step along the
// line, Escape (or "Back to the position") returns to the position analysed, and "Play this
// line" takes the line into the analysis board's moves. Chariot's lines and each external
// engine's column (engines.js) are drawn by `drawLines`; `LinePeek` is the stepping into a line.

import * as api from './api.js';
import { errorText } from './errors.js';
import { t } from './i18n.js';
import { forRed, scoreText, scoreWords } from './scores.js';

const $ = (id) => document.getElementById(id);

/** A line's moves in `notation` (`iccs`, `wxf`, `chinese`). */
export function lineMoves(line, notation) {
  if (notation === 'iccs') return line.pv;
  return notation === 'wxf' ? line.pv_wxf : line.pv_chinese;
}

/**
 * The text before each move of a line from the position `fen`: the move number before Red's
 * moves (`12.`), and `12…` before a first move of Black's; empty before Black's other moves.
 */
function numbers(fen, count) {
  const [, side, , , , full] = fen.split(' ');
  const first = Number(full) || 1;
  const black = side === 'b';
  return Array.from({ length: count }, (_, i) => {
    const ply = i + (black ? 1 : 0);
    if (ply % 2 === 0) return `${first + ply / 2}.`;
    return i === 0 ? `${first}…` : '';
  });
}

/**
 * A move with its number before it (`numbers`), kept on one line together; the move alone when
 * it has none.
 */
function numbered(number, move) {
  if (!number) return move;
  const step = document.createElement('span');
  step.className = 'pv-step';
  const no = document.createElement('span');
  no.className = 'pv-no';
  no.textContent = number;
  step.append(no, move);
  return step;
}

/**
 * Draws `lines` (the API's `info` events, best first) into the table body `body`: a row per
 * line with its score for Red (`turn` is the side to move of the position `fen` the lines are
 * about), its depth and its moves in `notation`, each a `.pv-move` with its `data-ply`. A row
 * whose moves did not change keeps its elements, so that a click is not lost to a redraw while
 * the lines stream. `peeked` (`{multipv, moves, ply}`, or null) marks the move shown on the
 * board when the line still begins with the moves stepped into.
 */
export function drawLines(body, lines, { fen, turn, notation, peeked = null }) {
  while (body.rows.length > lines.length) body.deleteRow(-1);
  lines.forEach((line, i) => {
    const row = body.rows[i] || body.insertRow();
    if (!row.cells.length) {
      row.insertCell().className = 'score';
      row.insertCell().className = 'depth';
      row.insertCell().className = 'pv';
    }
    row.dataset.multipv = String(line.multipv);
    const red = forRed(line, turn);
    const [score, depth, pv] = row.cells;
    score.textContent = scoreText(red);
    score.title = scoreWords(red);
    depth.textContent = `d${line.depth}`;
    const moves = lineMoves(line, notation);
    const key = `${fen}|${notation}|${line.pv.join(' ')}`;
    if (pv.dataset.key !== key) {
      pv.dataset.key = key;
      pv.replaceChildren();
      const before = numbers(fen, moves.length);
      moves.forEach((text, ply) => {
        if (ply) pv.append(' ');
        const move = document.createElement('span');
        move.className = 'pv-move';
        move.dataset.ply = String(ply);
        move.textContent = text;
        move.title = line.pv[ply];
        pv.append(numbered(before[ply], move));
      });
    }
    const on = peeked && peeked.multipv === line.multipv
      && peeked.moves.slice(0, peeked.ply + 1).every((m, k) => line.pv[k] === m) ? peeked.ply : -1;
    for (const move of pv.querySelectorAll('.pv-move')) {
      move.classList.toggle('peeked', Number(move.dataset.ply) === on);
    }
  });
}

/**
 * Calls `pick(multipv, ply)` for a click (or a tap) on a move of a table drawn by `drawLines`.
 * One listener on the table: the rows are redrawn as the lines stream.
 */
export function onPick(table, pick) {
  table.addEventListener('click', (e) => {
    const move = e.target.closest?.('.pv-move');
    const row = move?.closest('tr');
    if (!move || !row || !table.contains(row)) return;
    pick(Number(row.dataset.multipv), Number(move.dataset.ply));
  });
}

/**
 * Stepping into a line: the position after one of its moves shown on the board, view only,
 * until the player goes back, plays the line or the analysis board's position changes.
 */
export class LinePeek {
  constructor(analyse) {
    this.analyse = analyse;
    this.line = null; // the line stepped into: {source, name, multipv, pv, pv_wxf, pv_chinese}
    this.ply = -1; // the move of it shown
    this.here = null; // the position shown, as /api/position describes it
    this.serial = 0; // positions asked for: only the latest answer is drawn
    this.scrolled = null; // the page's scroll before the board was brought into view
    $('peek-back').addEventListener('click', () => this.close());
    $('peek-prev').addEventListener('click', () => this.step(-1));
    $('peek-next').addEventListener('click', () => this.step(1));
    $('peek-take').addEventListener('click', () => this.take());
  }

  /** Whether a line is stepped into. */
  get active() {
    return this.line !== null;
  }

  /** Where the line and its moves are, for `drawLines`: `{multipv, moves, ply}` of `source`. */
  peeked(source) {
    if (!this.line || this.line.source !== source) return null;
    return { multipv: this.line.multipv, moves: this.line.pv, ply: this.ply };
  }

  /**
   * Steps into `line` (an `info` event of the engine `source`, `chariot` or an external
   * engine's name, called `name`) at its move `ply`. The line is kept as it is now: the
   * analysis goes on and its lines change, the moves stepped through do not.
   */
  open(source, name, line, ply) {
    if (!line || ply < 0 || ply >= line.pv.length) return;
    const { multipv, pv, pv_wxf: wxf, pv_chinese: chinese } = line;
    const fen = this.analyse.here.fen;
    this.line = { source, name, multipv, fen, pv: [...pv], pv_wxf: [...wxf], pv_chinese: [...chinese] };
    this.place();
    this.bringBoardIntoView();
    this.go(ply);
  }

  /** Shows the position after move `ply` of the line. */
  async go(ply) {
    if (!this.line) return;
    this.ply = Math.max(0, Math.min(this.line.pv.length - 1, ply));
    this.serial += 1;
    const serial = this.serial;
    const line = this.line;
    const { fen, moves } = this.analyse.position();
    let here;
    try {
      here = await api.position(fen, [...moves, ...line.pv.slice(0, this.ply + 1)]);
    } catch (e) {
      if (serial === this.serial) this.analyse.app.toast(errorText(e), true);
      return;
    }
    if (serial !== this.serial || this.line !== line) return;
    this.here = here;
    this.analyse.drawBoard();
  }

  /** One move along the line (`-1` back, `1` on); back from its first move is the position. */
  step(delta) {
    if (!this.line) return;
    if (this.ply + delta < 0) this.close();
    else this.go(this.ply + delta);
  }

  /**
   * Back to the position analysed (its board, moves and arrows); `quiet` when the caller draws
   * the page itself (another position is on its way).
   */
  close(quiet = false) {
    if (!this.line) return;
    this.line = null;
    this.here = null;
    this.ply = -1;
    this.serial += 1;
    $('peek').hidden = true;
    if (this.scrolled !== null) {
      window.scrollTo({ top: this.scrolled });
      this.scrolled = null;
    }
    if (!quiet) this.analyse.drawBoard();
  }

  /** Takes the line into the analysis board's moves, showing the position stepped to. */
  take() {
    if (!this.line) return;
    const { pv } = this.line;
    const ply = this.ply;
    this.scrolled = null; // the board stays in view: the player goes on from there
    this.close(true);
    this.analyse.playLine(pv, ply);
  }

  /** The keys while a line is stepped into: ←/→ step, Home/End its ends, Escape back. */
  key(e) {
    if (!this.line) return false;
    const last = this.line.pv.length - 1;
    const keys = {
      ArrowLeft: () => this.step(-1),
      ArrowRight: () => this.step(1),
      Home: () => this.go(0),
      End: () => this.go(last),
      Escape: () => this.close(),
    };
    if (!keys[e.key]) return false;
    e.preventDefault();
    keys[e.key]();
    return true;
  }

  /**
   * Puts the bar where the player looks: under the lines clicked (the pointer is there), or on
   * a phone under the board, which the lines are below.
   */
  place() {
    const bar = $('peek');
    if (window.matchMedia('(max-width: 640px)').matches) $('clock-bottom').after(bar);
    else $('analyse').closest('.panel').append(bar);
  }

  /**
   * On a phone the lines are under the board, out of view: the board is brought into view (and
   * the page scrolled back when the player goes back).
   */
  bringBoardIntoView() {
    const box = $('board').getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) return;
    if (this.scrolled === null) this.scrolled = window.scrollY;
    document.querySelector('.board-area').scrollIntoView({ block: 'start' });
  }

  /** Draws the position stepped to on the board (view only) and the bar that says which. */
  draw(board, notation) {
    const bar = $('peek');
    if (!this.line) {
      bar.hidden = true;
      return false;
    }
    bar.hidden = false;
    const { pv } = this.line;
    if (this.here) {
      board.show({ fen: this.here.fen, lastMove: pv[this.ply], check: this.here.check });
    }
    $('peek-title').textContent = t('peek.title', {
      n: this.line.multipv, engine: this.line.name, ply: this.ply + 1, of: pv.length,
    });
    const moves = $('peek-moves');
    moves.replaceChildren();
    const before = numbers(this.line.fen, pv.length);
    lineMoves(this.line, notation).forEach((text, ply) => {
      const move = document.createElement('button');
      move.type = 'button';
      move.className = 'pv-move';
      move.classList.toggle('peeked', ply === this.ply);
      move.textContent = text;
      move.title = pv[ply];
      move.addEventListener('click', () => this.go(ply));
      moves.append(numbered(before[ply], move));
    });
    $('peek-prev').disabled = false;
    $('peek-next').disabled = this.ply >= pv.length - 1;
    return true;
  }
}
