// Game review (docs/web-app.md, "Game review"; lichess's computer analysis is the model): the
// server values every position of a game in the background (`POST /api/review`, polled); the
// page shows its progress, then an evaluation graph under the board (Red's side up), the marks
// ?! ? ?? in the analysis view's move list and in a list of their own, each side's counts,
// average loss and accuracy. At any position of the game reviewed, the panel says what the next
// move cost; for a marked move the board shows the better move (a green arrow) beside the move
// played (a red one), and the better line can be played out. A click on a mark, in the lists or
// on the graph, goes to the position where it was played.
//
// The page's other files call in at a few points: app.js (the address, the views), analyse.js
// (render, and another position loaded), play.js (the Review button of a finished game) and
// played.js (a past game's Review button).

import * as address from './address.js';
import * as api from './api.js';
import { errorText } from './errors.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { scoreText as redScoreText } from './scores.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

/** How often a running review is asked how far it is (ms). */
const POLL = 400;

/** An SVG element with attributes. */
function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * A value from Red's side for the reader (`{cp}`, `{mate}` in plies, `{win}`): as every score
 * of the page (`scores.js`: `+0.31`, `#3`, `#-2`), or who wins.
 */
function scoreText(score) {
  if (!score) return '';
  if ('win' in score) return t(`result.${score.win}`);
  if ('mate' in score) {
    return redScoreText({ cp: null, mate: Math.abs(score.mate), winner: score.mate > 0 ? 'red' : 'black' });
  }
  return redScoreText({ cp: score.cp, mate: null });
}

/** The move number of ply `ply` (from 1) of a game starting at `fen`: `3.` for Red, `3…` for Black. */
export function moveNumber(fen, ply) {
  const [, turn, , , , full] = fen.split(' ');
  const blackFirst = turn === 'b';
  const start = Number(full) || 1;
  const index = ply - 1 + (blackFirst ? 1 : 0);
  const no = start + Math.floor(index / 2);
  return index % 2 === 0 ? `${no}.` : `${no}…`;
}

export class Review {
  constructor(app) {
    this.app = app;
    this.game = null; // the game reviewed or asked for: {fen, moves} (ICCS)
    this.job = null; // the review's job as the server last showed it
    this.timer = null;
    this.asked = 0; // requests made: only the latest one's answer is shown
    document.head.append(el('link', { rel: 'stylesheet', href: '/assets/review.css' }));
    this.build();
    $('review-start').addEventListener('click', () => this.reviewShown());
    $('review-game').addEventListener('click', () => {
      const g = this.app.play.game;
      if (g) this.show(g.start_fen, g.moves.map((m) => m.iccs));
    });
    new ResizeObserver(() => this.drawGraph()).observe(this.graph);
  }

  /** The panel (after the analysis view's first panel) and the graph (under the board). */
  build() {
    this.panel = el('div', { id: 'review', className: 'panel review', hidden: true });
    const name = el('span');
    name.dataset.i18n = 'review.title';
    const title = el('h3', {}, name);
    this.stopButton = el('button', { id: 'review-stop', type: 'button', hidden: true });
    this.stopButton.dataset.i18n = 'review.stop';
    this.stopButton.addEventListener('click', () => this.stop());
    title.append(this.stopButton);
    this.progress = el('progress', { id: 'review-progress', hidden: true });
    this.status = el('div', { id: 'review-status', className: 'engine-info', role: 'status' });
    this.summary = el('table', { id: 'review-summary', className: 'review-summary' });
    this.marks = el('div', { id: 'review-marks', className: 'review-marks' });
    this.detail = el('div', { id: 'review-move', className: 'review-move' });
    const note = el('div', { className: 'engine-info review-side' });
    note.dataset.i18n = 'review.side';
    this.panel.append(title, this.progress, this.status, this.summary, this.marks, this.detail, note);
    $('view-analyse').firstElementChild.after(this.panel);
    this.graph = el('div', { id: 'review-graph', className: 'review-graph', hidden: true });
    this.graph.addEventListener('click', (e) => this.clickGraph(e));
    document.querySelector('.board-area .board-buttons').after(this.graph);
  }

  // --- Starting, following and stopping ---------------------------------------------------------

  /** Reviews the game on the analysis board: its start and every move of its line. */
  reviewShown() {
    const a = this.app.analyse;
    if (!a.line.length) return;
    this.game = { fen: a.base, moves: [...a.line] };
    this.request({ fen: a.base, moves: a.line });
    this.app.remember();
  }

  /** Shows a game (`fen`, ICCS `moves`) on the analysis board, at its start, and reviews it. */
  show(fen, moves) {
    const a = this.app.analyse;
    const same = a.base === fen && a.line.join() === moves.join();
    this.game = { fen, moves };
    if (this.app.view !== 'analyse') {
      a.goToAddress({ fen, moves, ply: 0 });
      this.app.switchTo('analyse');
    } else if (!same) {
      a.load(fen, moves, -1);
    }
    this.request({ fen, moves });
    this.app.remember();
  }

  /** Reviews a game played here (its id in the past games), shown on the analysis board. */
  async reviewPlayed(id) {
    const asked = ++this.asked;
    try {
      // The server names the game (its start and moves); the review is then the same job.
      const job = await api.call('POST', '/api/review', { played: id });
      if (asked === this.asked) this.show(job.result.fen, job.result.played);
    } catch (e) {
      this.app.toast(errorText(e), true);
    }
  }

  /** What an address names (`#review/...`): that game's review, started or asked again. */
  open(wanted) {
    if (!wanted.moves.length) return;
    if (this.game && this.game.fen === wanted.fen && this.game.moves.join() === wanted.moves.join()) return;
    this.game = { fen: wanted.fen, moves: wanted.moves };
    this.request({ fen: wanted.fen, moves: wanted.moves });
  }

  /** Another position was loaded on the analysis board: a review of another game is put away. */
  loaded(fen, moves) {
    if (this.game && (fen !== this.game.fen || moves.join() !== this.game.moves.join())) this.close();
  }

  /** Asks the server for the review of a game (it answers the one it has, or starts one). */
  async request(body) {
    const asked = ++this.asked;
    this.cancelRunning();
    this.job = null;
    this.render();
    try {
      const job = await api.call('POST', '/api/review', body);
      if (asked === this.asked) this.follow(job);
    } catch (e) {
      if (asked !== this.asked) return;
      this.app.toast(errorText(e), true);
      this.close();
    }
  }

  /** Shows `job` and, while it runs, asks how far it is. */
  follow(job) {
    this.job = job;
    clearTimeout(this.timer);
    this.render();
    if (job.state !== 'running') return;
    this.timer = setTimeout(async () => {
      try {
        const next = await api.call('GET', `/api/review/${job.id}`);
        if (this.job?.id === job.id) this.follow(next);
      } catch (e) {
        if (this.job?.id === job.id) this.app.toast(errorText(e), true);
      }
    }, POLL);
  }

  /** Stops the running review (the server keeps what it found). */
  async stop() {
    const job = this.job;
    if (!job || job.state !== 'running') return;
    try {
      const view = await api.call('DELETE', `/api/review/${job.id}`);
      if (this.job?.id === job.id) this.follow(view);
    } catch (e) {
      this.app.toast(errorText(e), true);
    }
  }

  /** A review of this page's still running is stopped when another is asked for. */
  cancelRunning() {
    clearTimeout(this.timer);
    if (this.job?.state === 'running') api.call('DELETE', `/api/review/${this.job.id}`).catch(() => {});
  }

  /** Puts the review away (a review still running goes on on the server, for a while). */
  close() {
    clearTimeout(this.timer);
    this.asked += 1;
    this.game = null;
    this.job = null;
    this.panel.hidden = true;
    this.graph.hidden = true;
    document.documentElement.classList.remove('reviewing');
  }

  /** The address of the review shown, when the analysis board shows its game (else null). */
  address() {
    const a = this.app.analyse;
    if (!this.game || a.base !== this.game.fen || a.line.join() !== this.game.moves.join()) return null;
    return address.review(this.game.fen, this.game.moves, a.index + 1);
  }

  // --- Drawing ----------------------------------------------------------------------------------

  /** The review's data so far (the job's `result`), or null. */
  data() {
    return this.job?.result ?? null;
  }

  /**
   * How many plies of the analysis board's line are the game reviewed's (from its start): the
   * marks and arrows are drawn on those only.
   */
  agreed() {
    const a = this.app.analyse;
    if (!this.game || a.base !== this.game.fen) return -1;
    let n = 0;
    while (n < a.line.length && n < this.game.moves.length && a.line[n] === this.game.moves[n]) n += 1;
    return n;
  }

  /** Draws everything (after each render of the analysis view, and as the review grows). */
  render() {
    const shown = this.app.view === 'analyse' && this.game !== null;
    this.panel.hidden = !shown;
    this.graph.hidden = !shown || !this.data()?.positions.length;
    document.documentElement.classList.toggle('reviewing', !this.graph.hidden);
    // Under the board of the analysis view: the game shown is reviewed.
    $('review-start').hidden = this.app.view !== 'analyse';
    $('review-start').disabled = !this.app.analyse.line.length;
    if (!shown) return;
    this.renderStatus();
    this.renderSummary();
    this.renderMarks();
    this.renderDetail();
    this.decorateMoves();
    this.drawGraph();
    this.drawArrows();
  }

  renderStatus() {
    const job = this.job;
    this.progress.hidden = !job || job.state !== 'running';
    this.stopButton.hidden = this.progress.hidden;
    if (!job) {
      this.status.textContent = t('review.asking');
      return;
    }
    const values = { done: job.done, total: job.total ?? '?', secs: job.seconds.toFixed(1) };
    this.progress.max = job.total ?? 1;
    this.progress.value = job.done;
    if (job.state === 'running') this.status.textContent = t('review.running', values);
    else if (job.state === 'done') {
      this.status.textContent = t('review.done', { ...values, nodes: (job.result?.nodes ?? 0).toLocaleString() });
    } else if (job.state === 'cancelled') this.status.textContent = t('review.cancelled', values);
    else this.status.textContent = t('review.failed', { error: job.error ?? '' });
  }

  renderSummary() {
    const data = this.data();
    this.summary.replaceChildren();
    if (!data?.moves.length) return;
    const head = this.summary.createTHead().insertRow();
    for (const key of ['', 'review.inaccuracy', 'review.mistake', 'review.blunder', 'review.loss', 'review.accuracy']) {
      const th = el('th', { title: key ? t(key) : '' });
      const glyph = { 'review.inaccuracy': '?!', 'review.mistake': '?', 'review.blunder': '??' }[key];
      // A count's column is its mark and its word (the word left out on a phone).
      if (glyph) th.append(el('span', { className: `glyph ${key.slice(7)}`, textContent: glyph }), ' ');
      th.append(el('span', { className: glyph ? 'word' : '', textContent: key ? t(key) : '' }));
      head.append(th);
    }
    const body = this.summary.createTBody();
    for (const side of ['red', 'black']) {
      const s = data.summary[side];
      const row = body.insertRow();
      row.className = side;
      row.insertCell().textContent = t(side);
      for (const n of [s.inaccuracies, s.mistakes, s.blunders]) row.insertCell().textContent = String(n);
      row.insertCell().textContent = s.average_loss ?? '–';
      row.insertCell().textContent = s.accuracy === null ? '–' : `${s.accuracy.toFixed(1)}%`;
    }
  }

  /** The marked moves, each a button that goes to the position where it was played. */
  renderMarks() {
    const data = this.data();
    this.marks.replaceChildren();
    if (!data) return;
    const marked = data.moves.filter((m) => m.judgement);
    if (!marked.length) {
      if (data.moves.length) this.marks.append(el('span', { className: 'engine-info', textContent: t('review.none') }));
      return;
    }
    for (const m of marked) {
      const button = el('button', {
        type: 'button',
        className: `mark ${m.judgement} ${m.side}`,
        title: t(`review.${m.judgement}`),
        textContent: `${moveNumber(data.fen, m.ply)} ${this.name(m.move)}${m.glyph}`,
      });
      button.dataset.ply = String(m.ply);
      button.addEventListener('click', () => this.goToMark(m.ply));
      this.marks.append(button);
    }
  }

  /** A move (the API's MoveText) in the notation chosen. */
  name(move) {
    return move[this.app.notation] ?? move.iccs;
  }

  /** The judged move played from the position shown, if it is the game's. */
  nextMove() {
    const data = this.data();
    const a = this.app.analyse;
    if (!data || a.index + 1 > this.agreed()) return null;
    // Moves are judged in order: the move of ply p is moves[p - 1].
    return data.moves[a.index + 1] ?? null;
  }

  /**
   * What the panel says of the position shown: its value, and what the game's next move cost,
   * with the better move and its line (and a button that plays it) when it was marked.
   */
  renderDetail() {
    this.detail.replaceChildren();
    const data = this.data();
    const a = this.app.analyse;
    if (!data || a.index + 1 > this.agreed()) return;
    const here = data.positions[a.index + 1];
    if (here) this.detail.append(el('div', { className: 'here', textContent: t('review.here', { score: scoreText(here.score) }) }));
    const m = this.nextMove();
    if (!m) return;
    const head = el('div', { className: `next ${m.judgement ?? ''}` });
    const verdict = m.forced ? t('review.forced') : m.judgement ? t(`review.${m.judgement}`) : m.best === m.move.iccs ? t('review.engine') : '';
    head.append(
      el('b', { textContent: `${moveNumber(data.fen, m.ply)} ${this.name(m.move)}${m.glyph ?? ''}` }),
      ` ${verdict ? `${verdict} · ` : ''}${scoreText(m.before)} → ${scoreText(m.after)}`,
    );
    this.detail.append(head);
    if (!m.judgement || !m.best) return;
    const line = this.app.notation === 'iccs' ? m.line : this.app.notation === 'wxf' ? m.line_wxf : m.line_chinese;
    this.detail.append(el('div', { className: 'better', textContent: t('review.better', { move: line[0] ?? m.best }) }));
    this.detail.append(el('div', { className: 'line', textContent: t('review.line', { line: line.join(' ') }) }));
    const play = el('button', { id: 'review-play-line', type: 'button', textContent: t('review.playline') });
    play.addEventListener('click', () => this.app.analyse.playLine(m.line));
    this.detail.append(play);
  }

  /** Marks the judged moves in the analysis view's move list (while it shows the game's). */
  decorateMoves() {
    const data = this.data();
    if (!data) return;
    const agreed = this.agreed();
    for (const m of data.moves) {
      if (!m.judgement || m.ply > agreed) continue;
      const cell = document.querySelector(`#moves-analyse .mv[data-index="${m.ply - 1}"]`);
      if (!cell || cell.querySelector('.review-mark')) continue;
      cell.classList.add(`review-${m.judgement}`);
      const mark = el('span', { className: `review-mark ${m.judgement}`, textContent: m.glyph, title: t(`review.${m.judgement}`) });
      mark.dataset.ply = String(m.ply);
      mark.addEventListener('click', (e) => {
        e.stopPropagation();
        this.goToMark(m.ply);
      });
      cell.append(mark);
    }
  }

  /** The better move and the move played, as arrows, before a marked move of the game. */
  drawArrows() {
    const m = this.nextMove();
    if (!m?.judgement || !m.best || this.app.analyse.lines.size) return;
    this.app.board.showArrows([{ iccs: m.move.iccs, brush: 'red' }, { iccs: m.best, brush: 'green' }]);
  }

  /** Goes to the position where the move of ply `ply` was played (its mark explained). */
  goToMark(ply) {
    this.showGamePosition(ply - 2);
  }

  /** Shows the game's position after move `index` (-1: its start), the game's line restored. */
  showGamePosition(index) {
    const a = this.app.analyse;
    if (this.agreed() === this.game.moves.length && a.line.length === this.game.moves.length) a.goTo(index);
    else a.load(this.game.fen, this.game.moves, index);
  }

  // --- The graph ----------------------------------------------------------------------------------

  /** The graph's geometry now: its size and the point of each ply's value. */
  geometry() {
    const width = Math.max(120, this.graph.clientWidth || 300);
    const height = width < 500 ? 72 : 96;
    const plies = Math.max(1, this.game.moves.length);
    const x = (ply) => 4 + (ply * (width - 8)) / plies;
    const y = (chances) => height / 2 - chances * (height / 2 - 4);
    return { width, height, plies, x, y };
  }

  /**
   * Draws Red's winning chances position by position (Red's side up: the area above the middle
   * red, below it dark), the marks as coloured dots after the moves they judge, and a line at
   * the position shown.
   */
  drawGraph() {
    const data = this.data();
    if (!data || this.graph.hidden || !this.game) return;
    const { width, height, x, y } = this.geometry();
    const root = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img' });
    const title = svg('title');
    title.textContent = t('review.graph');
    root.append(title);
    root.setAttribute('aria-label', t('review.graph'));
    const mid = height / 2;
    const points = data.positions.map((p) => [x(p.ply), y(p.red_chances)]);
    const defs = svg('defs');
    for (const [id, top] of [['review-above', 0], ['review-below', mid]]) {
      const clip = svg('clipPath', { id });
      clip.append(svg('rect', { x: 0, y: top, width, height: mid }));
      defs.append(clip);
    }
    root.append(defs, svg('rect', { class: 'bg', x: 0, y: 0, width, height }));
    if (points.length) {
      const area = `M${points[0][0]},${mid} ${points.map(([px, py]) => `L${px},${py}`).join(' ')} L${points.at(-1)[0]},${mid} Z`;
      root.append(svg('path', { class: 'red-area', d: area, 'clip-path': 'url(#review-above)' }));
      root.append(svg('path', { class: 'black-area', d: area, 'clip-path': 'url(#review-below)' }));
    }
    root.append(svg('line', { class: 'mid', x1: 0, y1: mid, x2: width, y2: mid }));
    if (points.length > 1) root.append(svg('polyline', { class: 'curve', points: points.map((p) => p.join(',')).join(' ') }));
    const a = this.app.analyse;
    if (a.index + 1 <= this.agreed()) {
      const cx = x(a.index + 1);
      root.append(svg('line', { class: 'cursor', x1: cx, y1: 0, x2: cx, y2: height }));
    }
    for (const m of data.moves) {
      if (!m.judgement) continue;
      const p = data.positions[m.ply];
      if (!p) continue;
      const dot = svg('circle', { class: `mark ${m.judgement}`, cx: x(m.ply), cy: y(p.red_chances), r: 4.5 });
      dot.dataset.ply = String(m.ply);
      const tip = svg('title');
      tip.textContent = `${moveNumber(data.fen, m.ply)} ${this.name(m.move)}${m.glyph} ${t(`review.${m.judgement}`)}`;
      dot.append(tip);
      root.append(dot);
    }
    this.graph.replaceChildren(root);
  }

  /**
   * A click on the graph: on a mark (within a finger's width), the position where its move was
   * played; elsewhere the position at that point.
   */
  clickGraph(e) {
    const data = this.data();
    if (!data || !this.game) return;
    const box = this.graph.querySelector('svg').getBoundingClientRect();
    const px = e.clientX - box.left;
    const py = e.clientY - box.top;
    const { x, y, plies } = this.geometry();
    let near = null;
    for (const m of data.moves) {
      const p = data.positions[m.ply];
      if (!m.judgement || !p) continue;
      const d = Math.hypot(x(m.ply) - px, y(p.red_chances) - py);
      if (d <= 14 && (!near || d < near.d)) near = { ply: m.ply, d };
    }
    if (near) {
      this.goToMark(near.ply);
      return;
    }
    const ply = Math.round(((px - 4) / (box.width - 8)) * plies);
    const reached = Math.min(Math.max(0, ply), data.positions.length - 1);
    this.showGamePosition(reached - 1);
  }
}
