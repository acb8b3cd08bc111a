// The play view: a game against Chariot at a chosen level, with take-back, hint, draw offers,
// resignation, an optional clock, the move list and the PGN.

import * as api from './api.js';
import { t, resultText } from './i18n.js';
import { renderMoves, stepKey } from './moves.js';

const $ = (id) => document.getElementById(id);

/** Minutes and seconds (tenths under ten seconds). */
function clockText(ms) {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.ceil(s);
  const m = Math.floor(whole / 60);
  return `${m}:${String(whole % 60).padStart(2, '0')}`;
}

/** The engine's score for the person to read: pawns, or mate in moves. */
export function scoreText(score) {
  if (score.startsWith('mate')) {
    const plies = Number(score.split(' ')[1]);
    const moves = Math.ceil(Math.abs(plies) / 2);
    return plies >= 0 ? t('mate', { n: moves }) : t('mated', { n: moves });
  }
  const pawns = Number(score) / 100;
  return (pawns > 0 ? '+' : '') + pawns.toFixed(2);
}

export class Play {
  constructor(app) {
    this.app = app;
    this.game = null;
    this.browse = null; // the move index looked at, or null for the game's current position
    this.busy = false;
    this.clockAt = 0;
    this.levels = [];
    this.loadLevels();
    this.loadBooks();
    $('new-start').addEventListener('change', () => {
      $('new-fen').hidden = $('new-start').value !== 'fen';
    });
    $('new-game').addEventListener('submit', (e) => {
      e.preventDefault();
      this.startFromForm();
    });
    $('takeback').addEventListener('click', () => this.act(() => api.takeBack(this.game.id)));
    $('resign').addEventListener('click', () => {
      if (window.confirm(t('resign.confirm'))) this.act(() => api.resign(this.game.id));
    });
    $('draw').addEventListener('click', () => this.offerDraw());
    $('hint').addEventListener('click', () => this.hint());
    $('type-move').addEventListener('submit', (e) => {
      e.preventDefault();
      const text = $('move-text').value.trim();
      if (text) this.move(text);
    });
    $('to-analysis').addEventListener('click', () => {
      const g = this.game;
      const upto = this.browse === null ? g.moves.length : this.browse + 1;
      this.app.analyse.load(g.start_fen, g.moves.slice(0, upto).map((m) => m.iccs));
      this.app.switchTo('analyse');
    });
    document.addEventListener('keydown', (e) => {
      if (this.app.view !== 'play' || !this.game || e.target.tagName === 'INPUT') return;
      const current = this.browse === null ? this.game.moves.length - 1 : this.browse;
      const next = stepKey(e, current, this.game.moves.length);
      if (next !== null) this.look(next);
    });
    setInterval(() => this.tick(), 100);
    this.translate();
    this.resume();
  }

  /** After a reload, the tab's game goes on (the server keeps it while it is not idle). */
  async resume() {
    const id = sessionStorage.getItem('chariot.game');
    if (!id) return;
    try {
      const game = await api.showGame(id);
      this.app.board.orient(game.side);
      this.show(game);
    } catch {
      sessionStorage.removeItem('chariot.game');
    }
  }

  /** Fills the level choice from `GET /api/levels`. */
  async loadLevels() {
    try {
      this.levels = await api.levels();
    } catch (e) {
      this.app.toast(e.message, true);
      return;
    }
    const select = $('new-level');
    select.replaceChildren();
    for (const l of this.levels) {
      const option = document.createElement('option');
      option.value = String(l.level);
      select.append(option);
    }
    const saved = localStorage.getItem('chariot.level');
    select.value = this.levels.some((l) => String(l.level) === saved) ? saved : '3';
    this.translate();
  }

  /** Fills the book choice from `GET /api/books`: the configured books (the engine's own
   * choice) and every book compiled in the browser; `chosen` is selected when given. */
  async loadBooks(chosen) {
    let list;
    try {
      list = (await api.books()).books;
    } catch {
      return;
    }
    const select = $('new-book');
    const keep = chosen ?? select.value;
    for (const option of [...select.options]) if (option.value) option.remove();
    for (const b of list.filter((b) => b.kind === 'compiled')) {
      const option = document.createElement('option');
      option.value = b.name;
      option.textContent = b.name;
      select.append(option);
    }
    select.value = [...select.options].some((o) => o.value === keep) ? keep : '';
  }

  /** Refreshes the words that depend on the language. */
  translate() {
    const last = this.levels.length;
    for (const option of $('new-level').options) {
      const n = Number(option.value);
      const level = this.levels[n - 1];
      const role = n === 1 ? t('level.desc.1') : n === last ? t('level.desc.top') : '';
      const nodes = t('level.nodes', { n: level.nodes.toLocaleString() });
      option.textContent = `${t('level.n', { n })} (${role ? `${role}, ` : ''}${nodes})`;
    }
    if (this.app.view === 'play') this.render();
  }

  async startFromForm() {
    const setup = {
      side: $('new-side').value,
      level: Number($('new-level').value),
    };
    localStorage.setItem('chariot.level', $('new-level').value);
    Object.assign(setup, this.app.engines.playSetup());
    if (setup.engine) delete setup.level;
    if ($('new-book').value) setup.book = $('new-book').value;
    const start = $('new-start').value;
    if (start === 'fen') setup.fen = $('new-fen').value.trim();
    if (start === 'analysis') Object.assign(setup, this.app.analyse.here());
    const clock = $('new-clock').value;
    if (clock) {
      const [minutes, increment] = clock.split('+').map(Number);
      setup.clock = { minutes, increment };
    }
    await this.start(setup);
  }

  /**
   * Starts a game (`POST /api/play` with `setup`) and shows it. The game in progress is
   * replaced only once the new one is made (the server closes it then): a new game refused,
   * for a mistake in its FEN say, leaves it playing, and the error is shown.
   */
  async start(setup) {
    this.busy = true;
    try {
      const game = await api.newGame(this.game ? { ...setup, replaces: this.game.id } : setup);
      this.app.board.orient(game.side);
      this.show(game);
    } catch (e) {
      this.app.toast(e.message, true);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  show(game) {
    this.game = game;
    sessionStorage.setItem('chariot.game', game.id);
    this.browse = null;
    this.clockAt = performance.now();
    this.render();
  }

  /** The person's move (ICCS from the board, or typed in any notation). */
  async move(text) {
    if (!this.game || this.busy) return;
    if (this.browse !== null) {
      this.render();
      return;
    }
    if (this.game.forbidden.includes(text)) {
      this.app.toast(t('forbidden'), true);
      this.render();
      return;
    }
    this.busy = true;
    // The board keeps the person's move while the engine thinks.
    this.pending = true;
    this.thinkingSince = performance.now();
    this.render();
    try {
      const game = await api.playMove(this.game.id, text);
      this.pending = false;
      this.show(game);
      $('move-text').value = '';
    } catch (e) {
      this.app.toast(this.refusal(e), true);
    } finally {
      this.pending = false;
      this.busy = false;
      this.render();
    }
  }

  /** Why a move was refused, in the page's language. */
  refusal(e) {
    if (e.message.includes('is forbidden')) return t('forbidden');
    if (e.status === 422) return `${t('illegal')} (${e.message})`;
    return e.message;
  }

  /**
   * Runs `work` on the game while the buttons wait (one request at a time); an error is shown.
   * Returns what `work` returned, or undefined.
   */
  async busyWith(work) {
    if (!this.game || this.busy) return undefined;
    this.busy = true;
    this.render();
    try {
      return await work();
    } catch (e) {
      this.app.toast(e.message, true);
      return undefined;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /** Runs a game action that answers with the game. */
  act(request) {
    return this.busyWith(async () => this.show(await request()));
  }

  offerDraw() {
    return this.busyWith(async () => {
      const answer = await api.offerDraw(this.game.id);
      this.show(answer.game);
      this.app.toast(t(answer.accepted ? 'draw.accepted' : 'draw.declined'));
    });
  }

  async hint() {
    const hint = await this.busyWith(() => api.hint(this.game.id));
    if (!hint) return;
    if (hint.move) {
      // After the last render, which cleared the board's arrows.
      this.app.board.arrow(hint.move);
      const named = this.app.notation === 'iccs' ? hint.move : hint[this.app.notation];
      this.app.toast(t('hint.move', { move: named }));
    } else {
      this.app.toast(t('hint.none'));
    }
  }

  /** Shows the position after move `index` (-1: the start), or the game's position at the end. */
  look(index) {
    if (!this.game) return;
    this.browse = index >= this.game.moves.length - 1 ? null : index;
    this.render();
  }

  render() {
    if (this.app.view !== 'play') return;
    const g = this.game;
    $('game').hidden = !g;
    if (!g) {
      this.app.board.show({ fen: 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w' });
      return;
    }
    const notation = this.app.notation;
    const browsing = this.browse !== null;
    const index = browsing ? this.browse : g.moves.length - 1;
    const fen = index >= 0 ? g.moves[index].fen : g.start_fen;
    const mine = !browsing && !this.busy && !g.result && g.turn === g.side;
    if (this.pending) {
      this.app.board.freeze();
    } else {
      this.app.board.show({
        fen,
        lastMove: index >= 0 ? g.moves[index].iccs : null,
        check: browsing ? false : g.check,
        movable: mine ? g.playable : [],
        forbidden: mine ? g.forbidden : [],
      });
    }
    renderMoves($('moves-play'), {
      moves: g.moves,
      current: index,
      startFen: g.start_fen,
      notation,
      onPick: (i) => this.look(i),
    });
    const status = $('status');
    status.classList.toggle('over', Boolean(g.result));
    if (g.result) status.textContent = resultText(g.result);
    else if (this.busy || g.turn !== g.side) status.textContent = this.app.engines.thinking(g);
    else status.textContent = t('yourmove', { side: t(g.side) }) + (g.check ? ` · ${t('pos.check')}` : '');
    $('engine-info').textContent = this.engineText();
    const over = Boolean(g.result);
    $('takeback').disabled = this.busy || !g.moves.length;
    $('hint').disabled = this.busy || over || g.turn !== g.side;
    $('draw').disabled = this.busy || over;
    $('resign').disabled = this.busy || over;
    $('save-pgn').href = api.pgnUrl(g.id, notation);
    this.renderClocks();
  }

  engineText() {
    const e = this.game.engine;
    const m = e && this.game.moves.find((x, i) => x.iccs === e.move && i === this.lastEngineIndex());
    const move = m ? m[this.app.notation] : e?.move;
    if (this.game.opponent) return this.app.engines.moveText(this.game, move);
    if (!e) return '';
    if (e.source === 'book') return t('engine.book', { move });
    if (e.source === 'tables') return t('engine.tables', { move, score: scoreText(e.score) });
    return t('engine.search', {
      move,
      depth: e.depth,
      score: scoreText(e.score),
      nodes: e.nodes.toLocaleString(),
      secs: (e.millis / 1000).toFixed(1),
    });
  }

  lastEngineIndex() {
    const g = this.game;
    for (let i = g.moves.length - 1; i >= 0; i -= 1) {
      const moverIsRed = (i % 2 === 0) === (g.start_fen.split(' ')[1] !== 'b');
      if ((moverIsRed ? 'red' : 'black') !== g.side) return i;
    }
    return -1;
  }

  /** The clocks' times now: the server's, less the time since it answered for the side to move. */
  clockTimes() {
    const c = this.game && this.game.clock;
    if (!c) return null;
    const running = this.busy ? (this.game.side === 'red' ? 'black' : 'red') : c.running;
    const since = this.busy ? performance.now() - this.thinkingSince : performance.now() - this.clockAt;
    const times = { red: c.red_ms, black: c.black_ms };
    if (running) times[running] -= since;
    return { times, running };
  }

  renderClocks() {
    const now = this.clockTimes();
    const top = $('clock-top');
    const bottom = $('clock-bottom');
    top.hidden = bottom.hidden = !now || this.app.view !== 'play';
    if (!now) return;
    const bottomSide = this.app.board.orientation === 'white' ? 'red' : 'black';
    const topSide = bottomSide === 'red' ? 'black' : 'red';
    for (const [el, side] of [[top, topSide], [bottom, bottomSide]]) {
      el.textContent = clockText(now.times[side]);
      el.classList.toggle('running', now.running === side);
      el.classList.toggle('low', now.times[side] < 10000);
      el.dataset.side = side;
    }
  }

  /** Ticks the clocks; when the person's time is up, asks the server, which ends the game. */
  tick() {
    const now = this.clockTimes();
    if (!now) return;
    this.renderClocks();
    const g = this.game;
    if (!this.busy && !g.result && now.running && now.times[now.running] <= 0 && !this.asked) {
      this.asked = true;
      api.showGame(g.id).then((game) => this.show(game)).catch(() => {}).finally(() => {
        this.asked = false;
      });
    }
  }
}
