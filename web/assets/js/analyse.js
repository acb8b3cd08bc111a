// The analysis view: any position (from a FEN, set up on the board, reached by moves, or read
// from a game file), its book moves and table value, and the engine's lines streamed live, for
// some seconds or until stopped (∞), with an arrow per line; their moves step into the line on
// the board (lines.js). Scores are Red's (scores.js).

import * as address from './address.js';
import * as api from './api.js';
import { errorText, stopText } from './errors.js';
import { t, resultText } from './i18n.js';
import { renderMoves, stepKey } from './moves.js';
import { showOpening } from './openings.js';
import { soundOf } from './sounds.js';
import { Explorer } from './explorer.js';
import { LinePeek, drawLines, onPick } from './lines.js';
import { forRed, redShare, scoreWords } from './scores.js';

const $ = (id) => document.getElementById(id);
const START = address.START;
const ROLES = ['k', 'a', 'b', 'n', 'r', 'c', 'p'];

/**
 * The arrows' brushes by the rank of their line (board.js): the best line's strongest, the
 * others paler and thinner.
 */
const LINE_BRUSHES = ['line1', 'line2', 'line3', 'line4', 'line5'];

/** Reads an SSE stream from a fetch response, calling `on(event, data)`. */
export async function readEvents(response, on) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data += line.slice(5).trim();
      }
      if (data) on(event, JSON.parse(data));
    }
  }
}

export class Analyse {
  constructor(app) {
    this.app = app;
    this.base = START; // the FEN the line starts from
    this.line = []; // ICCS moves from it
    this.texts = []; // the line's moves in three notations (the API's MoveText)
    this.opening = null; // the whole line's opening (the API's `opening`), null when none
    this.index = -1; // the ply shown (-1: the base position)
    this.here = null; // the position shown, as /api/position describes it
    this.refreshes = 0; // refresh() calls so far: only the latest one's answer is drawn
    this.lines = new Map(); // multipv -> latest info
    this.analysed = null; // the position the lines are about (`shown()`), null when none
    this.stream = null; // the running analysis's AbortController
    this.arrowsOn = false; // the lines' arrows are drawn: from a start until the player stops
    this.games = [];
    this.explorer = new Explorer(this);
    this.peek = new LinePeek(this);
    onPick($('lines'), (multipv, ply) => this.peek.open('chariot', 'Chariot', this.lines.get(multipv), ply));
    this.buildPalette();
    $('set-fen').addEventListener('click', () => this.setFen($('fen').value.trim()));
    $('fen').addEventListener('keydown', (e) => {
      if (e.key === 'Enter') this.setFen($('fen').value.trim());
    });
    $('start-position').addEventListener('click', () => this.load(START, []));
    $('edit-position').addEventListener('click', () => this.edit());
    $('setup-done').addEventListener('click', () => this.finishEdit());
    $('setup-clear').addEventListener('click', () => this.app.board.clear());
    $('analyse').addEventListener('click', () => (this.stream ? this.stop(true) : this.start()));
    $('multipv').addEventListener('change', () => this.restart());
    $('seconds').addEventListener('change', () => this.restart());
    $('load-file').addEventListener('change', (e) => this.readFile(e.target.files[0]));
    $('loaded-games').addEventListener('change', () => this.pickGame(Number($('loaded-games').value)));
    $('play-from-here').addEventListener('click', () => {
      this.app.switchTo('play');
      this.app.play.start({ side: this.here.turn, level: Number($('new-level').value), ...this.position() });
    });
    document.addEventListener('keydown', (e) => {
      if (this.app.view !== 'analyse' || e.target.tagName === 'INPUT') return;
      if (this.peek.key(e)) return;
      const next = stepKey(e, this.index, this.line.length);
      if (next !== null) this.goTo(next);
    });
  }

  /** The position shown as a new game's setup: the base FEN and the moves to it. */
  position() {
    return { fen: this.base, moves: this.line.slice(0, this.index + 1) };
  }

  /** The position shown as one string: the base FEN and the moves to it. */
  shown() {
    return `${this.base} | ${this.line.slice(0, this.index + 1).join(' ')}`;
  }

  /**
   * Forgets the engine's lines, with their arrow, score bar and summary: they are about a
   * position no longer shown (an analysis that ended or was stopped left them on every later
   * position before, the bar even flipping with the new side to move).
   */
  forget() {
    this.lines.clear();
    this.analysed = null;
    this.app.engines.clearAnalysis();
    $('analysis-summary').textContent = '';
    $('lines-side').hidden = true;
    $('eval-bar').hidden = true;
    this.app.board.clearArrows();
  }

  /** The address of the position shown, with its line (address.js). */
  address() {
    return address.analyse(this.base, this.line, this.index + 1);
  }

  /**
   * Takes the position an address names (`address.parse`): a step along the line shown, or
   * another position, which the view loads when it is shown (`activate`).
   */
  goToAddress({ fen, moves, ply }) {
    const index = (ply ?? moves.length) - 1;
    if (this.here && fen === this.base && moves.join() === this.line.join()) {
      if (index !== this.index) this.goTo(index);
      return;
    }
    this.base = fen;
    this.line = moves;
    this.index = index;
    this.here = null;
    $('loaded').hidden = true;
  }

  /**
   * Shows `fen` with `moves` played from it, at move `index` (by default the last): another
   * position, so a new entry in the history.
   */
  async load(fen, moves, index = moves.length - 1) {
    this.app.review.loaded(fen, moves);
    this.base = fen;
    this.line = moves;
    this.index = Math.min(index, moves.length - 1);
    this.app.remember(true);
    await this.refreshLine();
    await this.refresh();
  }

  /** Shows `fen` from another view (the tablebase pages) and switches to this view. */
  show(fen) {
    this.base = fen;
    this.line = [];
    this.index = -1;
    this.here = null; // so that activate() loads it
    $('loaded').hidden = true;
    if (this.app.view === 'analyse') this.load(fen, []);
    else this.app.switchTo('analyse');
  }

  async setFen(fen) {
    if (!fen) return;
    try {
      await api.position(fen);
      $('loaded').hidden = true;
      await this.load(fen, []);
    } catch (e) {
      this.app.toast(errorText(e), true);
    }
  }

  /**
   * Fetches the line's moves in the three notations. A line that does not play (an address
   * edited by hand) is dropped, and a FEN that is no position (the same) gives way to the usual
   * start; the address follows.
   */
  async refreshLine() {
    try {
      const view = await api.position(this.base, this.line);
      this.texts = view.line;
      this.opening = view.opening;
    } catch (e) {
      this.app.toast(errorText(e), true);
      const fenOk = await api.position(this.base).then(() => true, () => false);
      if (!fenOk) this.base = START;
      this.line = [];
      this.texts = [];
      this.opening = null;
      this.index = -1;
      this.app.remember();
    }
  }

  /**
   * Fetches the position shown and draws everything; restarts a running analysis. Only the
   * latest call's answer is drawn: stepping through a game quickly asks for several positions,
   * and one answered late must not replace the position shown now.
   */
  async refresh() {
    // Another position (or the same one again): a line stepped into belongs to the last one.
    this.peek.close(true);
    this.refreshes += 1;
    const serial = this.refreshes;
    let here;
    try {
      here = await api.position(this.base, this.line.slice(0, this.index + 1));
    } catch (e) {
      if (serial === this.refreshes) this.app.toast(errorText(e), true);
      return;
    }
    if (serial !== this.refreshes) return;
    this.here = here;
    if (this.analysed !== this.shown()) this.forget();
    this.render();
    if (this.stream) this.restart();
  }

  render() {
    if (this.app.view !== 'analyse' || !this.here || this.editing) return;
    const h = this.here;
    $('share').disabled = false;
    this.drawBoard();
    // Not while someone is typing a FEN there.
    if (document.activeElement !== $('fen')) $('fen').value = h.fen;
    const status = h.result
      ? resultText(h.result)
      : t('pos.turn', { side: t(h.turn) }) + (h.check ? ` · ${t('pos.check')}` : '');
    $('position-status').textContent = status;
    // The move list names the whole line's opening, the explorer the position shown.
    showOpening($('opening-analyse'), this.opening);
    showOpening($('explorer-opening'), h.opening);
    renderMoves($('moves-analyse'), {
      moves: this.texts,
      current: this.index,
      startFen: this.base,
      notation: this.app.notation,
      onPick: (i) => this.goTo(i),
    });
    this.explorer.update();
    $('analyse').textContent = t(this.stream ? 'analyse.stop' : 'analyse.start');
    this.app.review.render();
  }

  /**
   * Draws the board, the position shown or a line's stepped into (view only, lines.js), and the
   * engines' lines with their marks and arrows.
   */
  drawBoard() {
    if (this.app.view !== 'analyse' || !this.here || this.editing) return;
    const h = this.here;
    if (!this.peek.draw(this.app.board, this.app.notation)) {
      this.app.board.show({
        fen: h.fen,
        lastMove: this.index >= 0 ? this.line[this.index] : null,
        check: h.check,
        movable: h.legal,
        forbidden: h.forbidden,
      });
    }
    this.renderLines();
    this.app.engines.renderColumns();
  }

  /**
   * Draws the engine's lines (scores from Red's side, every move clickable), the score bar, the
   * summary and, while the analysis is on, an arrow for each line's first move.
   */
  renderLines() {
    const ordered = [...this.lines.values()].sort((a, b) => a.multipv - b.multipv);
    drawLines($('lines').tBodies[0], ordered, {
      fen: this.here.fen,
      turn: this.here.turn,
      notation: this.app.notation,
      peeked: this.peek.peeked('chariot'),
    });
    $('lines-side').hidden = !ordered.length;
    const bar = $('eval-bar');
    bar.hidden = this.app.view !== 'analyse' || !ordered.length;
    if (ordered.length) {
      const first = ordered[0];
      const red = forRed(first, this.here.turn);
      const share = redShare(red);
      bar.classList.toggle('flipped', this.app.board.orientation === 'black');
      // Red's share: a height beside the board, a width under it on a phone (style.css).
      bar.style.setProperty('--red-share', `${(100 * share).toFixed(1)}%`);
      bar.title = scoreWords(red);
      $('analysis-summary').textContent = `${t('analysis.summary', {
        depth: first.depth,
        nodes: first.nodes.toLocaleString(),
        nps: first.nps.toLocaleString(),
      })} · ${t('analysis.time', { secs: Math.round(first.millis / 1000) })}`;
    }
    this.renderArrows(ordered);
  }

  /**
   * An arrow for each line's first move, the best line's strongest (`LINE_BRUSHES`), drawn
   * weakest first so that the best is on top; none once the player stopped the analysis or
   * while a line is stepped into (the board shows another position).
   */
  renderArrows(ordered) {
    if (!this.arrowsOn || this.peek.active || this.app.view !== 'analyse') return;
    const arrows = ordered
      .filter((line) => line.pv.length)
      .map((line, rank) => ({ iccs: line.pv[0], brush: LINE_BRUSHES[Math.min(rank, LINE_BRUSHES.length - 1)] }))
      .reverse();
    this.app.board.showArrows(arrows);
  }

  /** A move made on the board (or picked from the book): the line goes on from here. */
  async play(iccs) {
    if (this.here.forbidden.includes(iccs)) {
      this.app.toast(t('forbidden'), true);
      this.render();
      return;
    }
    if (!this.here.legal.includes(iccs)) {
      this.render();
      return;
    }
    const before = this.here.fen;
    this.line = [...this.line.slice(0, this.index + 1), iccs];
    this.index += 1;
    this.app.remember();
    await this.refreshLine();
    await this.refresh();
    const h = this.here;
    if (h && h.fen !== before) this.app.sounds.play(soundOf(before, h.fen, { check: h.check, over: Boolean(h.result) }));
  }

  /**
   * Plays `moves` on from the position shown (the tables' best line, an engine's line taken
   * into the board's moves), showing the position after the move `shown` of them (by default
   * the last).
   */
  async playLine(moves, shown = moves.length - 1) {
    if (!moves.length) return;
    this.line = [...this.line.slice(0, this.index + 1), ...moves];
    this.index += Math.min(shown, moves.length - 1) + 1;
    this.app.remember();
    await this.refreshLine();
    await this.refresh();
  }

  /** Shows a stored game (from the explorer's list) with its description and PGN link. */
  async showGame(fen, moves, description, pgnUrl) {
    $('loaded').hidden = false;
    $('loaded-games').replaceChildren();
    $('loaded-games').hidden = true;
    const link = document.createElement('a');
    link.href = pgnUrl;
    link.textContent = 'PGN';
    link.setAttribute('download', '');
    $('loaded-tags').replaceChildren(document.createTextNode(`${description} · `), link);
    await this.load(fen, moves);
    this.goTo(-1);
  }

  /** Shows the position after move `index` of the line (-1: its start). */
  goTo(index) {
    this.index = index;
    this.app.remember();
    this.refresh();
  }

  async start() {
    this.stop();
    const controller = new AbortController();
    this.stream = controller;
    this.forget();
    this.analysed = this.shown();
    this.render();
    const { fen, moves } = { fen: this.base, moves: this.line.slice(0, this.index + 1) };
    this.arrowsOn = true;
    const url = api.analysisUrl(fen, moves, $('multipv').value, $('seconds').value);
    this.app.engines.startAnalysis({
      fen, moves, turn: this.here?.turn, multipv: $('multipv').value, seconds: $('seconds').value,
    }, controller.signal);
    try {
      const response = await fetch(url, { signal: controller.signal });
      if (!response.ok) throw await api.failure(response);
      await readEvents(response, (event, data) => {
        if (this.stream !== controller) return;
        if (event === 'info') {
          this.lines.set(data.multipv, data);
          this.renderLines();
        } else if (event === 'done') {
          $('analysis-summary').textContent += ` · ${t('analysis.done')}`;
        }
      });
    } catch (e) {
      if (e.name !== 'AbortError') this.app.toast(errorText(e), true);
    } finally {
      if (this.stream === controller) {
        this.stream = null;
        $('analyse').textContent = t('analyse.start');
      }
    }
  }

  /**
   * Stops the analysis (its streams closed: the server stops the engines). Stopped by the
   * player (`byPlayer`), the arrows go; the lines stay, to be read and stepped into.
   */
  stop(byPlayer = false) {
    if (this.stream) {
      const s = this.stream;
      this.stream = null;
      s.abort();
    }
    if (byPlayer) {
      this.arrowsOn = false;
      if (!this.peek.active) this.app.board.clearArrows();
    }
    $('analyse').textContent = t('analyse.start');
  }

  restart() {
    if (this.stream) this.start();
  }

  buildPalette() {
    const palette = $('setup-palette');
    const tools = [];
    for (const color of ['white', 'black']) {
      for (const role of ROLES) tools.push({ role: `${role}-piece`, color, img: `${color === 'white' ? 'r' : 'b'}${role}` });
    }
    for (const tool of tools) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.piece = tool.img;
      const img = document.createElement('img');
      img.src = this.app.pieceImage(tool.img);
      img.alt = tool.img;
      button.append(img);
      button.addEventListener('click', () => {
        for (const b of palette.querySelectorAll('button')) b.classList.remove('active');
        button.classList.add('active');
        this.app.board.setTool({ role: tool.role, color: tool.color });
      });
      palette.append(button);
    }
    const erase = document.createElement('button');
    erase.type = 'button';
    erase.textContent = '✕';
    erase.dataset.piece = 'erase';
    erase.addEventListener('click', () => {
      for (const b of palette.querySelectorAll('button')) b.classList.remove('active');
      erase.classList.add('active');
      this.app.board.setTool('erase');
    });
    palette.append(erase);
  }

  edit() {
    this.stop();
    this.peek.close();
    this.forget();
    this.editing = true;
    $('setup-palette').hidden = false;
    $('setup-controls').hidden = false;
    $('setup-turn').value = this.here && this.here.turn === 'black' ? 'b' : 'w';
    $('position-status').textContent = t('setup.hint');
    this.app.board.startEditing();
  }

  async finishEdit() {
    const fen = `${this.app.board.boardFen()} ${$('setup-turn').value} - - 0 1`;
    try {
      await api.position(fen);
    } catch (e) {
      this.app.toast(errorText(e), true);
      return;
    }
    this.endEdit();
    $('loaded').hidden = true;
    await this.load(fen, []);
  }

  endEdit() {
    this.editing = false;
    $('setup-palette').hidden = true;
    $('setup-controls').hidden = true;
    this.app.board.stopEditing();
  }

  async readFile(file) {
    if (!file) return;
    try {
      const view = await api.readFile(await file.arrayBuffer());
      this.games = view.games;
      const select = $('loaded-games');
      select.replaceChildren();
      for (const [i, g] of view.games.entries()) {
        const option = document.createElement('option');
        const tag = (name) => (g.tags.find(([k]) => k.toLowerCase() === name) || [])[1];
        const who = [tag('red'), tag('black')].filter(Boolean).join(' – ');
        option.value = String(i);
        option.textContent = `${t('loaded.game', { n: g.number })}${who ? `: ${who}` : ''}${g.result ? ` ${g.result}` : ''}`;
        select.append(option);
      }
      $('loaded').hidden = false;
      select.hidden = false;
      this.app.toast(t('file.read', { n: view.total, format: view.format }));
      if (view.games.length) await this.pickGame(0);
    } catch (e) {
      this.app.toast(`${file.name}: ${errorText(e)}`, true);
    } finally {
      $('load-file').value = '';
    }
  }

  async pickGame(i) {
    const g = this.games[i];
    if (!g) return;
    const tags = g.tags.map(([k, v]) => `${k}: ${v}`).join(' · ');
    $('loaded-tags').textContent = g.error ? `${tags} · ${t('loaded.error', { error: stopText(g.error, g.stop) })}` : tags;
    await this.load(g.fen, g.moves.map((m) => m.iccs));
  }

  /** Called when the view is shown. */
  activate() {
    if (this.here) this.render();
    else this.load(this.base, this.line, this.index);
  }

  /** Called when the view is hidden. */
  deactivate() {
    this.stop();
    this.peek.close(true);
    if (this.editing) this.endEdit();
    $('eval-bar').hidden = true;
  }
}
