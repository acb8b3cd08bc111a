// The play view: a game against Chariot at a chosen level, with take-back, hint, draw offers,
// resignation, an optional clock, the move list and the PGN.

import * as address from './address.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { current, t, resultText } from './i18n.js';
import { renderMoves, stepKey } from './moves.js';
import { showOpening } from './openings.js';
import { soundOf } from './sounds.js';
import { scoreText, scoreWords, wordsForRed } from './scores.js';

const $ = (id) => document.getElementById(id);

/** Minutes and seconds (tenths under ten seconds). */
function clockText(ms) {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.ceil(s);
  const m = Math.floor(whole / 60);
  return `${m}:${String(whole % 60).padStart(2, '0')}`;
}

export class Play {
  constructor(app) {
    this.app = app;
    this.game = null;
    this.browse = null; // the move index looked at, or null for the game's current position
    this.busy = false;
    this.clockAt = 0;
    this.sounded = 0; // the plies of the game whose sounds were played
    this.levels = [];
    this.loadLevels();
    this.loadBooks();
    $('new-start').addEventListener('change', () => {
      $('new-fen').hidden = $('new-start').value !== 'fen';
    });
    this.restoreClock();
    $('new-clock').addEventListener('change', () => {
      $('custom-clock').hidden = $('new-clock').value !== 'custom';
    });
    $('new-game').addEventListener('submit', (e) => {
      e.preventDefault();
      this.startFromForm();
    });
    $('takeback').addEventListener('click', () => this.act(() => api.takeBack(this.game.id, this.game.moves.length)));
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
    // A game open in two tabs (a tab duplicated, its address opened again) stays one game: a
    // tab that changes it tells the others of this browser, which show it as it is now; a tab
    // coming back into view asks the server; and a move sent from a tab that missed a change is
    // refused by the server (`at`), which the tab answers by showing the game as it is.
    this.channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('chariot.play') : null;
    this.channel?.addEventListener('message', (e) => this.heard(e.data));
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.catchUp(false);
    });
    this.translate();
  }

  /**
   * Shows the game an address names (`#play/ID`), or without one the game this tab played last
   * (kept for the tab while the server keeps the game). A game the server no longer has is
   * said to be gone; the address then names what is shown.
   */
  async open(id) {
    if (!id) {
      if (!this.game) await this.resume();
      return;
    }
    if (this.game?.id === id) return;
    try {
      const game = await api.showGame(id);
      this.app.board.orient(game.side);
      this.show(game);
    } catch (e) {
      this.app.toast(e.status === 404 ? t('game.gone') : errorText(e), true);
    }
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

  /** What another tab says of a game it changed: this tab shows it too, when it is this one. */
  heard(news) {
    if (!this.game || news.id !== this.game.id || news.stamp === this.stamp()) return;
    this.catchUp(true);
  }

  /**
   * Shows the game as the server has it now; `tell` says so when it moved on meanwhile (in
   * another tab). Nothing while this tab waits for an answer of its own.
   */
  async catchUp(tell) {
    if (!this.game || this.busy) return;
    const before = this.stamp();
    try {
      const game = await api.showGame(this.game.id);
      if (this.busy || game.id !== this.game?.id) return;
      this.show(game, false);
      if (tell && this.stamp() !== before) this.app.toast(t('moved.on'));
    } catch {
      /* the game is gone: the next action says so */
    }
  }

  /**
   * The sound of what changed from `before` to `game` (one game): the end, or the last move
   * unless it was heard already (the person's, made on the board).
   */
  listen(before, game) {
    if (!before || before.id !== game.id) {
      this.sounded = game.moves.length;
      return;
    }
    const n = game.moves.length;
    if (game.result && !before.result) {
      this.app.sounds.play('end');
      // The server has kept it: the list of past games shows it.
      this.app.past?.refresh();
    } else if (n > before.moves.length && n > (this.sounded ?? 0)) {
      const previous = n > 1 ? game.moves[n - 2].fen : game.start_fen;
      this.app.sounds.play(soundOf(previous, game.moves[n - 1].fen, { check: game.check }));
    }
    this.sounded = n;
  }

  /** What identifies the state of the game shown: its moves and its result. */
  stamp() {
    const g = this.game;
    return g ? `${g.id} ${g.moves.map((m) => m.iccs).join(' ')} ${g.result ? g.result.result : ''}` : '';
  }

  /**
   * The address of the position shown, as a link to the analysis board: the game's moves to it
   * (the whole game when it is over and looked at its end).
   */
  shareAddress() {
    const g = this.game;
    if (!g) return null;
    const moves = g.moves.map((m) => m.iccs);
    return address.analyse(g.start_fen, moves, this.browse === null ? moves.length : this.browse + 1);
  }

  /** Fills the level choice from `GET /api/levels`. */
  async loadLevels() {
    try {
      this.levels = await api.levels();
    } catch (e) {
      this.app.toast(errorText(e), true);
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
      option.textContent = t('level.option', { n, elo: level.elo }) + (role ? t('level.role', { role }) : '');
      option.title = t('level.detail', {
        elo: level.elo, lower: level.elo_lower, upper: level.elo_upper, games: level.games,
        nodes: level.nodes.toLocaleString(),
      });
    }
    const anchor = this.levels[0]?.anchor;
    $('new-level-scale').textContent = anchor
      ? t('level.scale', { engine: anchor.engine, nodes: anchor.nodes.toLocaleString(), elo: anchor.elo })
      : '';
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
    // The analysis board's position with its moves (`analyse.here` is the position's view).
    if (start === 'analysis') Object.assign(setup, this.app.analyse.position());
    const clock = $('new-clock').value;
    if (clock === 'custom') {
      setup.clock = { minutes: Number($('clock-minutes').value), increment: Number($('clock-increment').value) };
    } else if (clock) {
      const [minutes, increment] = clock.split('+').map(Number);
      setup.clock = { minutes, increment };
    }
    localStorage.setItem('chariot.clock', clock === 'custom' ? `custom:${setup.clock.minutes}+${setup.clock.increment}` : clock);
    const name = (localStorage.getItem('chariot.name') || '').trim();
    if (name) setup.name = name;
    await this.start(setup);
  }

  /**
   * The clock chosen last (a time control of the list, or the player's own minutes and
   * increment), kept by the browser; the server enforces whatever is sent.
   */
  restoreClock() {
    const saved = localStorage.getItem('chariot.clock');
    if (saved === null) return;
    const own = /^custom:([\d.]+)\+([\d.]+)$/.exec(saved);
    if (own) {
      $('new-clock').value = 'custom';
      [$('clock-minutes').value, $('clock-increment').value] = [own[1], own[2]];
    } else if ([...$('new-clock').options].some((o) => o.value === saved)) {
      $('new-clock').value = saved;
    }
    $('custom-clock').hidden = $('new-clock').value !== 'custom';
  }

  /**
   * Starts a game (`POST /api/play` with `setup`) and shows it. The game in progress is
   * replaced only once the new one is made (the server closes it then): a new game refused,
   * for a mistake in its FEN say, leaves it playing, and the error is shown.
   */
  async start(setup) {
    this.busy = true;
    try {
      // The game's PGN is written in the page's language.
      const asked = { ...setup, lang: current() };
      const game = await api.newGame(this.game ? { ...asked, replaces: this.game.id } : asked);
      this.app.board.orient(game.side);
      this.show(game);
    } catch (e) {
      this.app.toast(errorText(e), true);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /**
   * Shows `game` as the server answered it; `tell` (by default) lets the other tabs of this
   * browser know when it changed.
   */
  show(game, tell = true) {
    const before = this.stamp();
    this.listen(this.game, game);
    this.game = game;
    sessionStorage.setItem('chariot.game', game.id);
    this.browse = null;
    this.clockAt = performance.now();
    this.render();
    this.app.remember();
    if (tell && this.channel && this.stamp() !== before) this.channel.postMessage({ id: game.id, stamp: this.stamp() });
  }

  /**
   * The person's move (ICCS from the board, `fromBoard`, or typed in any notation). A move made
   * on the board is heard at once; the answer's moves when they come.
   */
  async move(text, fromBoard = false) {
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
    if (fromBoard && this.game.playable.includes(text)) {
      // chessground has moved the piece: fewer pieces on the board is a capture.
      const taken = this.app.board.pieceCount() < this.game.fen.split(' ')[0].replace(/[^a-zA-Z]/g, '').length;
      this.app.sounds.play(taken ? 'capture' : 'move');
      this.sounded = this.game.moves.length + 1;
    }
    // The board keeps the person's move while the engine thinks.
    this.pending = true;
    this.thinkingSince = performance.now();
    this.render();
    let movedOn = false;
    try {
      const game = await api.playMove(this.game.id, text, this.game.moves.length);
      this.pending = false;
      this.show(game);
      $('move-text').value = '';
    } catch (e) {
      movedOn = e.code === 'moved-on';
      this.app.toast(this.refusal(e), !movedOn);
    } finally {
      this.pending = false;
      this.busy = false;
      this.render();
    }
    if (movedOn) await this.catchUp(false);
  }

  /** Why a move was refused, in the page's language. */
  refusal(e) {
    if (e.code === 'moved-on') return t('moved.on');
    if (e.code === 'forbidden-move') return t('forbidden');
    if (e.code === 'illegal-move') return t('illegal.because', { why: errorText(e) });
    return errorText(e);
  }

  /**
   * Runs `work` on the game while the buttons wait (one request at a time); an error is shown.
   * Returns what `work` returned, or undefined.
   */
  async busyWith(work) {
    if (!this.game || this.busy) return undefined;
    this.busy = true;
    this.render();
    let movedOn = false;
    try {
      return await work();
    } catch (e) {
      movedOn = e.code === 'moved-on';
      this.app.toast(this.refusal(e), !movedOn);
      return undefined;
    } finally {
      this.busy = false;
      this.render();
      if (movedOn) this.catchUp(false);
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
    $('share').disabled = !g;
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
    showOpening($('opening-play'), g.opening);
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
    $('review-game').hidden = !over || !g.moves.length;
    $('save-pgn').href = api.pgnUrl(g.id, notation, current());
    $('share').disabled = false;
    this.renderClocks();
  }

  engineText() {
    const e = this.game.engine;
    const m = e && this.game.moves.find((x, i) => x.iccs === e.move && i === this.lastEngineIndex());
    const move = m ? m[this.app.notation] : e?.move;
    if (this.game.opponent) return this.app.engines.moveText(this.game, move);
    if (!e) return '';
    if (e.source === 'book') return t('engine.book', { move });
    // The engine's score is its own: Red's is shown (scores.js); the tables' in words.
    const red = wordsForRed(e.score, this.game.side === 'red' ? 'black' : 'red');
    if (e.source === 'tables') return t('engine.tables', { move, score: scoreWords(red) });
    return t('engine.search', {
      move,
      depth: e.depth,
      score: scoreText(red),
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
