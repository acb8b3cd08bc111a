// The Xiangqi board: chessgroundx on a 9 x 10 grid, spoken to in ICCS squares and FEN.
//
// ICCS files are a-i from Red's left, ranks 0-9 from Red's side; chessgroundx names the ten
// ranks '1'-'9' and ':' and the colours white (Red) and black.

import { Chessground } from '../vendor/chessgroundx/chessground.js';

const CG_RANKS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', ':'];

/** The mark of a forbidden destination, in chessground's 100 x 100 box of a square. */
const FORBIDDEN_MARK = '<g class="forbidden"><circle cx="50" cy="50" r="19"/>'
  + '<path d="M41 41 L59 59 M59 41 L41 59"/></g>';

/**
 * The brushes of the engine's lines' arrows, best line first (analyse.js): the best line's a
 * strong wide blue, the next ones paler, narrower and greyer, as lichess draws its engine's.
 */
const LINE_BRUSHES = {
  line1: { key: 'l1', color: '#1f5fbf', opacity: 0.9, lineWidth: 15 },
  line2: { key: 'l2', color: '#3f7fd0', opacity: 0.6, lineWidth: 11 },
  line3: { key: 'l3', color: '#58708a', opacity: 0.5, lineWidth: 9 },
  line4: { key: 'l4', color: '#6b7580', opacity: 0.42, lineWidth: 7 },
  line5: { key: 'l5', color: '#7a7a7a', opacity: 0.36, lineWidth: 6 },
};

/** Red's numbers of the files a-i in Chinese notation: Red counts from its right, 一 to 九. */
const CHINESE_FILES = ['九', '八', '七', '六', '五', '四', '三', '二', '一'];

/**
 * What the margin of the board says of file `f` (0-8, a-i) in Chinese or WXF notation, on Red's
 * edge and on Black's: each side's own numbering from its right (Red's 九…一 in Chinese notation,
 * 9…1 in WXF; Black's 1…9 from file a).
 */
export function fileLabel(f, notation) {
  return { red: notation === 'chinese' ? CHINESE_FILES[f] : String(9 - f), black: String(f + 1) };
}

/** The chessground key of an ICCS square (`h2` -> `h3`, `e9` -> `e:`). */
export function key(square) {
  return square[0] + CG_RANKS[Number(square[1])];
}

/** The ICCS square of a chessground key. */
export function square(k) {
  return k[0] + String(CG_RANKS.indexOf(k[1]));
}

/** The chessground keys [from, to] of an ICCS move. */
export function moveKeys(iccs) {
  return [key(iccs.slice(0, 2)), key(iccs.slice(2, 4))];
}

/** chessground's colour for a side (`red`, `w`) and back. */
export function cgColor(side) {
  return side === 'red' || side === 'w' ? 'white' : 'black';
}

/** A Map of legal destinations per origin, from ICCS moves, as chessground wants them. */
export function dests(moves) {
  const map = new Map();
  for (const m of moves) {
    const [from, to] = moveKeys(m);
    if (!map.has(from)) map.set(from, []);
    map.get(from).push(to);
  }
  return map;
}

/** The side to move of a FEN: `red` or `black`. */
export function turnOf(fen) {
  const side = fen.split(' ')[1];
  return side === 'b' ? 'black' : 'red';
}

/**
 * The board in `element`. `onMove(iccs)` is called for every move made on it by the person,
 * and for a click on a forbidden destination (the view says why it is refused). `margins`
 * (`{top, bottom, left, right}`, elements around the board) get the coordinates.
 */
export class Board {
  constructor(element, onMove, margins = null) {
    this.onMove = onMove;
    this.margins = margins;
    this.notation = 'chinese';
    this.orientation = 'white';
    this.editing = null; // the piece placed by a click while setting up, or 'erase'
    this.forbidden = new Map(); // forbidden destinations per origin (chessground keys)
    this.arrows = []; // the arrows shown (chessground shapes)
    this.selectedBefore = undefined; // the piece selected when the last press began
    this.cg = Chessground(element, {
      dimensions: { width: 9, height: 10 },
      kingRoles: ['k-piece'],
      coordinates: false,
      fen: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR',
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: 180 },
      premovable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      movable: {
        free: false,
        showDests: true,
        events: { after: (orig, dest) => this.onMove(square(orig) + square(dest)) },
      },
      events: { select: (k) => this.onSelect(k) },
      drawable: { enabled: true, visible: true, brushes: LINE_BRUSHES },
    });
    // chessground measures where the board is on the page once and keeps that until the
    // window is resized or scrolled; but the board also moves when something around it appears,
    // goes or changes size (the clocks above it, the score bar beside it, the other view's
    // panels), and a click then landed on the point the board had been under (issue 47). So
    // the board is measured again at the start of every press, before chessground's own
    // handler (capture) reads the measure: a click or a drag starts on the point under the
    // pointer, whatever moved the board. Nothing else needs the page position: pieces, marks
    // and arrows are placed relative to the board, and a change of the board's size is
    // chessground's own ResizeObserver's business.
    // The piece selected before the press is kept too: chessground tells of a click (its
    // select event) only after it has handled it, and a click on a forbidden destination
    // needs the piece that was to go there.
    const press = () => {
      this.cg.state.dom.bounds.clear();
      this.selectedBefore = this.cg.state.selectable.selected;
    };
    for (const type of ['mousedown', 'touchstart']) {
      element.addEventListener(type, press, { capture: true, passive: true });
    }
    // A piece dropped on a forbidden destination is put back by chessground (no legal move
    // goes there); the view is told, to say why. Seen before chessground's own handler (capture),
    // which forgets the drag; told after it.
    const release = () => {
      const drag = this.cg.state.draggable.current;
      if (!drag || !drag.started || this.cg.state.movable.free) return;
      const dest = this.cg.getKeyAtDomPos(drag.pos);
      if ((this.forbidden.get(drag.orig) || []).includes(dest)) {
        setTimeout(() => this.onMove(square(drag.orig) + square(dest)));
      }
    };
    for (const type of ['mouseup', 'touchend']) {
      document.addEventListener(type, release, { capture: true });
      // A drag may end with the piece put back and no longer selected, without a select
      // event: the forbidden marks follow the selection once chessground has handled it.
      document.addEventListener(type, () => queueMicrotask(() => this.drawShapes()));
    }
  }

  /**
   * Shows a position: `fen`, the last move (ICCS) or none, whether the side to move is in
   * check, the moves the person may make (ICCS; none makes the board view-only) and the legal
   * moves they may not (forbidden repetitions: marked as such when their piece is picked,
   * and a click on one is passed on to be refused with its reason).
   */
  show({ fen, lastMove = null, check = false, movable = [], forbidden = [] }) {
    const turn = cgColor(turnOf(fen));
    this.cg.set({
      fen: fen.split(' ')[0],
      turnColor: turn,
      lastMove: lastMove ? moveKeys(lastMove) : undefined,
      check: check ? turn : false,
      movable: { color: movable.length ? turn : undefined, dests: dests(movable), free: false },
      draggable: { enabled: movable.length > 0, deleteOnDropOff: false },
    });
    this.forbidden = dests(forbidden);
    this.arrows = [];
    this.drawShapes();
  }

  /** Keeps the pieces as they stand but lets nobody move them (a move is on its way). */
  freeze() {
    this.cg.set({ movable: { color: undefined, dests: new Map() }, draggable: { enabled: false } });
    this.forbidden = new Map();
    this.drawShapes();
  }

  /** Draws an arrow for an ICCS move (a hint, the engine's best line). */
  arrow(iccs, brush = 'green') {
    const [orig, dest] = moveKeys(iccs);
    this.arrows = [{ orig, dest, brush }];
    this.drawShapes();
  }

  /** Draws arrows for ICCS moves, `[{iccs, brush}]` in the order drawn (the last on top). */
  showArrows(list) {
    const arrows = list.map(({ iccs, brush }) => {
      const [orig, dest] = moveKeys(iccs);
      return { orig, dest, brush };
    });
    const same = arrows.length === this.arrows.length
      && arrows.every((a, i) => a.orig === this.arrows[i].orig && a.dest === this.arrows[i].dest && a.brush === this.arrows[i].brush);
    if (same) return;
    // chessground keeps the elements of the shapes that stay and appends the new ones, so a
    // line's new arrow would be drawn over the best line's: the arrows go, then come back in
    // their order, both at once (no frame is painted without them).
    this.cg.state.drawable.autoShapes = [];
    this.cg.state.dom.redrawNow();
    this.arrows = arrows;
    this.drawShapes();
    this.cg.state.dom.redrawNow();
  }

  /** Marks a square with a circle (a puzzle's hint: the piece to move). */
  circle(square, brush = 'green') {
    this.arrows = [{ orig: key(square), brush }];
    this.drawShapes();
  }

  /** Takes the arrows off the board. */
  clearArrows() {
    this.arrows = [];
    this.drawShapes();
  }

  /** Draws the arrows and the forbidden destinations of the piece selected, if any. */
  drawShapes() {
    const from = this.cg.state.selectable.selected;
    const marks = (typeof from === 'string' && this.forbidden.get(from)) || [];
    const shapes = [...this.arrows, ...marks.map((orig) => ({ orig, customSvg: FORBIDDEN_MARK }))];
    const drawn = this.cg.state.drawable.autoShapes;
    const same = shapes.length === drawn.length
      && shapes.every((s, i) => s.orig === drawn[i].orig && s.dest === drawn[i].dest && s.brush === drawn[i].brush);
    if (!same) this.cg.setAutoShapes(shapes);
  }

  /** Turns the board: Red at the bottom for `red`, Black for `black`. */
  orient(side) {
    this.orientation = cgColor(side);
    this.cg.set({ orientation: this.orientation });
    this.drawCoordinates();
  }

  /** Turns the board around. */
  flip() {
    this.cg.toggleOrientation();
    this.orientation = this.cg.state.orientation;
    this.drawCoordinates();
  }

  /** Writes the coordinates of `notation` (`chinese`, `wxf`, `iccs`) around the board. */
  setNotation(notation) {
    this.notation = notation;
    this.drawCoordinates();
  }

  /**
   * The coordinates in the margins, as the board is turned: in Chinese and WXF notation the
   * files along the top and bottom edges, each side's numbering on its own edge (fileLabel); in
   * ICCS the letters a-i along the bottom and the ranks 0-9 up the left, as chess boards have
   * them.
   */
  drawCoordinates() {
    if (!this.margins) return;
    const redBottom = this.orientation === 'white';
    const iccs = this.notation === 'iccs';
    const files = redBottom ? [0, 1, 2, 3, 4, 5, 6, 7, 8] : [8, 7, 6, 5, 4, 3, 2, 1, 0];
    const ranks = redBottom ? [9, 8, 7, 6, 5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const cells = (items) => items.map(({ text, red, data }) => {
      const span = document.createElement('span');
      span.textContent = text;
      if (red) span.className = 'red';
      Object.assign(span.dataset, data);
      return span;
    });
    const edge = (red) => files.map((f) => ({
      text: iccs ? '' : fileLabel(f, this.notation)[red ? 'red' : 'black'], red, data: { file: 'abcdefghi'[f] },
    }));
    const { top, bottom, left, right } = this.margins;
    top.replaceChildren(...cells(edge(!redBottom)));
    bottom.replaceChildren(...cells(iccs
      ? files.map((f) => ({ text: 'abcdefghi'[f], red: false, data: { file: 'abcdefghi'[f] } }))
      : edge(redBottom)));
    const side = (labelled) => cells(ranks.map((r) => ({ text: labelled ? String(r) : '', red: false, data: { rank: String(r) } })));
    left.replaceChildren(...side(iccs));
    right.replaceChildren(...side(false));
    // The ranks need the side margins; on a narrow screen they are thin otherwise (style.css).
    document.documentElement.dataset.coordinates = iccs ? 'ranks' : 'files';
  }

  /** The number of pieces on the board now. */
  pieceCount() {
    return this.cg.state.boardState.pieces.size;
  }

  /** The board part of the FEN shown. */
  boardFen() {
    return this.cg.getFen();
  }

  /** Starts setting up a position: pieces move freely, clicks place or remove pieces. */
  startEditing() {
    this.cg.set({
      movable: { free: true, color: 'both', dests: undefined },
      draggable: { enabled: true, deleteOnDropOff: true },
      lastMove: undefined,
      check: false,
    });
    this.editing = null;
  }

  /** Stops setting up. */
  stopEditing() {
    this.editing = null;
    this.cg.set({ movable: { free: false, color: undefined }, draggable: { deleteOnDropOff: false } });
  }

  /** While setting up: the piece the next click places (`{role, color}`), or `'erase'`. */
  setTool(tool) {
    this.editing = tool;
  }

  /** Empties the board (setting up). */
  clear() {
    this.cg.set({ fen: '9/9/9/9/9/9/9/9/9/9' });
  }

  /** A click on square `k` (chessground has handled it). */
  onSelect(k) {
    if (!this.cg.state.movable.free) {
      const from = this.selectedBefore;
      if (typeof from === 'string' && (this.forbidden.get(from) || []).includes(k)) {
        this.onMove(square(from) + square(k));
      }
      this.drawShapes();
      return;
    }
    if (!this.editing) return;
    const here = this.cg.state.boardState.pieces.get(k);
    if (this.editing === 'erase' || (here && here.role === this.editing.role && here.color === this.editing.color)) {
      this.cg.setPieces(new Map([[k, undefined]]));
    } else {
      this.cg.setPieces(new Map([[k, { ...this.editing }]]));
    }
    this.cg.selectSquare(null);
  }
}
