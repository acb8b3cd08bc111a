// The puzzles view (issue 47; docs/web-app.md, "Puzzles"): a position and its task ("红先胜 ·
// 三步杀", "Red to move and win: mate in 3"), solved on the board as on lichess. The player's
// move is judged by the server (a move other than the stored one that wins as surely is
// accepted), the opponent's reply is played at once, a wrong move is taken back; a hint marks
// the piece to move, "Show solution" plays the rest out; the next puzzle is the next one not yet
// tried under the filters chosen. Progress is kept by the browser (localStorage): each puzzle's
// result (solved or failed, as first tried), the counts, the streak of puzzles solved in a row,
// and the puzzle under way with its moves, so that a reload comes back to it. The view builds
// its own panel and words; app.js routes `#puzzles` and `#puzzles/ID` here and hands on the
// board's moves.

import * as address from './address.js';
import { call } from './api.js';
import { errorText } from './errors.js';
import { el } from './dom.js';
import { current, wordsOf } from './i18n.js';
import { materialName } from './material.js';
import { renderMoves } from './moves.js';
import { soundOf } from './sounds.js';

const $ = (id) => document.getElementById(id);

/** Where the progress is kept. */
const KEY = 'chariot.puzzles';

/** The pause before the opponent's reply, and between the moves of a solution played out (ms). */
const REPLY_MS = 350;
const SOLUTION_MS = 700;

const NUMERALS = ['', '一', '两', '三', '四', '五', '六', '七', '八', '九', '十'];

const WORDS = {
  en: {
    theme: 'Theme', difficulty: 'Difficulty', 'theme.all': 'all puzzles', 'theme.mate1': 'mate in 1',
    'theme.mate2': 'mate in 2', 'theme.mate3': 'mate in 3', 'theme.mate4': 'mate in 4 or more',
    'theme.endgame': 'endgames (tables)', 'theme.tactic': 'tactics (games)', 'difficulty.any': 'any',
    easy: 'easy', medium: 'medium', hard: 'hard',
    'task.red': 'Red to move and win', 'task.black': 'Black to move and win',
    'task.mate': 'mate in {n}', 'task.endgame': 'the only winning move each time', 'task.tactic': 'find the move that wins',
    yourmove: 'Your move: find the best move for {side}.', red: 'Red', black: 'Black',
    correct: 'Correct! Keep going.', wrong: 'Wrong: {move} does not win. Try again.',
    solved: 'Solved!', 'solved.again': 'Solved (this puzzle counted as failed the first time).',
    shown: 'The solution, played out.', thinking: 'Checking your move…',
    hint: 'Hint', 'hint.piece': 'Hint: move the marked piece.', solution: 'Show solution', next: 'Next puzzle',
    retry: 'Try again', analyse: 'Analyse', 'progress': 'Solved {solved} · failed {failed} · streak {streak} (best {best})',
    count: '{n} puzzles · {left} not yet tried', none: 'No puzzle matches these filters.',
    'state.solved': 'You solved this puzzle.', 'state.failed': 'You failed this puzzle before.',
    'source.classic': 'classical composed problem (walker8088/cchess, GPL-3.0)',
    'source.ccpd-mates': 'from a game: Chinese Chess Practical Dataset, mates (Yvonne761, CC BY 4.0)',
    'source.ccpd-tactics': 'from a game: Chinese Chess Practical Dataset, tactics (Yvonne761, CC BY 4.0)',
    'source.masters': 'from a master game (Chinese Chess Practical Dataset, Yvonne761, CC BY 4.0)',
    'source.tables': 'from Chariot\'s endgame tables',
    reset: 'Forget my progress', 'reset.confirm': 'Forget which puzzles you solved and failed?',
  },
  zh: {
    theme: '主题', difficulty: '难度', 'theme.all': '全部习题', 'theme.mate1': '一步杀', 'theme.mate2': '两步杀',
    'theme.mate3': '三步杀', 'theme.mate4': '四步杀以上', 'theme.endgame': '残局（残局库）', 'theme.tactic': '战术（实战）',
    'difficulty.any': '不限', easy: '简单', medium: '中等', hard: '困难',
    'task.red': '红先胜', 'task.black': '黑先胜',
    'task.mate': '{n}步杀', 'task.endgame': '每步只有一着能胜', 'task.tactic': '找出制胜的一着',
    yourmove: '轮到你走：为{side}找出最好的一着。', red: '红方', black: '黑方',
    correct: '正确！继续。', wrong: '不对：{move}不能取胜。再试一次。',
    solved: '解开了！', 'solved.again': '解开了（此题第一次未解出，仍记为失败）。',
    shown: '答案已演示。', thinking: '正在判断你的着法…',
    hint: '提示', 'hint.piece': '提示：走标出的这个棋子。', solution: '显示答案', next: '下一题',
    retry: '再试一次', analyse: '分析', progress: '解出 {solved} · 失败 {failed} · 连胜 {streak}（最多 {best}）',
    count: '共 {n} 题 · 未做 {left} 题', none: '没有符合这些条件的习题。',
    'state.solved': '你已解出此题。', 'state.failed': '此题你曾经失败。',
    'source.classic': '古典排局（walker8088/cchess，GPL-3.0）',
    'source.ccpd-mates': '实战杀局：Chinese Chess Practical Dataset（Yvonne761，CC BY 4.0）',
    'source.ccpd-tactics': '实战战术：Chinese Chess Practical Dataset（Yvonne761，CC BY 4.0）',
    'source.masters': '大师对局：Chinese Chess Practical Dataset（Yvonne761，CC BY 4.0）',
    'source.tables': 'Chariot 残局库',
    reset: '清除我的进度', 'reset.confirm': '清除已解出和失败的记录？',
  },
};

/** The words for `key` in the page's language. */
export const w = wordsOf(WORDS);

/** The filters' values: the theme choice as the API's parameters. */
const THEMES = {
  all: {}, mate1: { mate_in: '1' }, mate2: { mate_in: '2' }, mate3: { mate_in: '3' }, mate4: { mate_in: '4+' },
  endgame: { theme: 'endgame' }, tactic: { theme: 'tactic' },
};

/** The progress kept by the browser, read afresh (another tab may have changed it). */
export function loadProgress() {
  let p = null;
  try {
    p = JSON.parse(localStorage.getItem(KEY));
  } catch { /* a damaged entry: start again */ }
  if (!p || typeof p !== 'object') p = {};
  return {
    results: p.results && typeof p.results === 'object' ? p.results : {},
    solved: Number(p.solved) || 0,
    failed: Number(p.failed) || 0,
    streak: Number(p.streak) || 0,
    best: Number(p.best) || 0,
    current: p.current && typeof p.current.id === 'string' ? p.current : null,
    theme: THEMES[p.theme] ? p.theme : 'all',
    difficulty: ['easy', 'medium', 'hard'].includes(p.difficulty) ? p.difficulty : '',
  };
}

function saveProgress(p) {
  localStorage.setItem(KEY, JSON.stringify(p));
}

export class Puzzles {
  constructor(app) {
    this.app = app;
    this.list = null; // the filtered list's summaries, easiest first
    this.puzzle = null; // the puzzle shown (GET /api/puzzles/{id})
    this.played = []; // ICCS moves from its position: the player's and the replies
    this.texts = []; // the same in three notations (the API's MoveText)
    this.here = null; // {fen, check, legal, lastMove} of the position the player faces
    this.state = 'solving'; // 'solving', 'solved', 'shown'
    this.feedback = { key: 'yourmove', kind: '' };
    this.busy = false;
    this.loading = null; // the list request under way
    this.hinted = null; // the square marked by a hint
    this.built = false;
  }

  /** Builds the view's panels (once, when first shown) and its stylesheet. */
  build() {
    if (this.built) return;
    this.built = true;
    document.head.append(el('link', { rel: 'stylesheet', href: '/assets/puzzles.css' }));
    const view = $('view-puzzles');
    const theme = el('select', { id: 'puzzle-theme' });
    for (const k of Object.keys(THEMES)) theme.append(el('option', { value: k }));
    const difficulty = el('select', { id: 'puzzle-difficulty' });
    for (const k of ['', 'easy', 'medium', 'hard']) difficulty.append(el('option', { value: k }));
    view.append(
      el('div', { id: 'puzzle-panel', className: 'panel puzzle' },
        el('div', { id: 'puzzle-task', className: 'puzzle-task' }),
        el('div', { id: 'puzzle-about', className: 'engine-info' }),
        el('div', { id: 'puzzle-feedback', className: 'puzzle-feedback', role: 'status' }),
        el('div', { className: 'buttons' },
          el('button', { id: 'puzzle-hint', type: 'button' }),
          el('button', { id: 'puzzle-solution', type: 'button' }),
          el('button', { id: 'puzzle-retry', type: 'button' }),
          el('button', { id: 'puzzle-analyse', type: 'button' }),
          el('button', { id: 'puzzle-next', type: 'button', className: 'primary' })),
        el('div', { id: 'puzzle-moves', className: 'moves short' })),
      el('div', { className: 'panel' },
        el('div', { className: 'row' },
          el('label', {}, el('span', { id: 'puzzle-theme-label' }), ' ', theme),
          el('label', {}, el('span', { id: 'puzzle-difficulty-label' }), ' ', difficulty)),
        el('div', { id: 'puzzle-progress', className: 'puzzle-progress' }),
        el('div', { id: 'puzzle-count', className: 'engine-info' }),
        el('button', { id: 'puzzle-reset', type: 'button', className: 'link' })),
    );
    const saved = loadProgress();
    theme.value = saved.theme;
    difficulty.value = saved.difficulty;
    theme.addEventListener('change', () => this.filtersChanged());
    difficulty.addEventListener('change', () => this.filtersChanged());
    $('puzzle-hint').addEventListener('click', () => this.hint());
    $('puzzle-solution').addEventListener('click', () => this.showSolution());
    $('puzzle-retry').addEventListener('click', () => this.retry());
    $('puzzle-next').addEventListener('click', () => this.next());
    $('puzzle-analyse').addEventListener('click', () => {
      if (!this.puzzle) return;
      this.app.analyse.load(this.puzzle.fen, [...this.played]);
      this.app.switchTo('analyse');
    });
    $('puzzle-reset').addEventListener('click', () => {
      if (!window.confirm(w('reset.confirm'))) return;
      localStorage.removeItem(KEY);
      this.render();
    });
    this.translate();
  }

  /**
   * A new request for a puzzle to show: only the latest one's puzzle is shown (an address
   * followed while the list is still on its way, a filter changed twice).
   */
  claim() {
    this.ticket = (this.ticket ?? 0) + 1;
    return this.ticket;
  }

  /** The view is shown: the puzzle `id` (from an address), else the one under way, else the next. */
  async open(id = null) {
    this.build();
    $('clock-top').hidden = $('clock-bottom').hidden = true;
    $('eval-bar').hidden = true;
    if ((id && this.puzzle?.id === id) || (!id && this.puzzle)) {
      this.render();
      return;
    }
    const ticket = this.claim();
    // The puzzle under way comes back with its moves (after a reload, its address too).
    const saved = loadProgress().current;
    if (saved && (!id || saved.id === id)) await this.load(saved.id, saved.played, saved.state, ticket);
    else if (id) await this.load(id, [], 'solving', ticket);
    else await this.next(ticket);
  }

  /** The address of what is shown. */
  address() {
    return address.puzzles(this.puzzle?.id);
  }

  /** The filters chosen, as the list's query. */
  filters() {
    const params = new URLSearchParams({ ...THEMES[$('puzzle-theme').value], limit: '5000' });
    if ($('puzzle-difficulty').value) params.set('difficulty', $('puzzle-difficulty').value);
    return params;
  }

  /** The puzzles the filters select (asked once per choice of filters). */
  async puzzles() {
    const query = this.filters().toString();
    if (this.list && this.listQuery === query) return this.list;
    if (!this.loading || this.loadingQuery !== query) {
      this.loadingQuery = query;
      this.loading = call('GET', `/api/puzzles?${query}`).then((answer) => {
        if (this.loadingQuery === query) {
          this.list = answer.puzzles;
          this.listQuery = query;
        }
        return answer.puzzles;
      }).finally(() => {
        if (this.loadingQuery === query) this.loading = null;
      });
    }
    return this.loading;
  }

  async filtersChanged() {
    const p = loadProgress();
    p.theme = $('puzzle-theme').value;
    p.difficulty = $('puzzle-difficulty').value;
    saveProgress(p);
    await this.next();
  }

  /** The next puzzle not yet tried under the filters, after the one shown (round the list). */
  async next(ticket = this.claim()) {
    let list;
    try {
      list = await this.puzzles();
    } catch (e) {
      this.app.toast(errorText(e), true);
      return;
    }
    if (ticket !== this.ticket) return;
    if (!list.length) {
      this.puzzle = null;
      this.render();
      this.app.remember(true);
      return;
    }
    const { results } = loadProgress();
    const at = this.puzzle ? list.findIndex((p) => p.id === this.puzzle.id) : -1;
    let pick = null;
    for (let k = 1; k <= list.length; k += 1) {
      const p = list[(at + k + list.length) % list.length];
      if (!results[p.id]) {
        pick = p;
        break;
      }
    }
    pick ??= list[(at + 1) % list.length];
    await this.load(pick.id, [], 'solving', ticket);
  }

  /**
   * Shows puzzle `id`, with `played` moves already made and its `state` (a puzzle under way or
   * ended, after a reload), unless a later request (`claim`) came meanwhile.
   */
  async load(id, played = [], state = 'solving', ticket = this.claim()) {
    let puzzle;
    try {
      puzzle = await call('GET', `/api/puzzles/${encodeURIComponent(id)}`);
    } catch (e) {
      if (ticket !== this.ticket) return;
      this.app.toast(errorText(e), true);
      if (!this.puzzle) await this.next();
      return;
    }
    if (ticket !== this.ticket) return;
    this.puzzle = puzzle;
    // Whatever was under way belonged to the puzzle shown before (a solution being played out).
    this.busy = false;
    this.played = [];
    this.texts = [];
    this.hinted = null;
    this.state = 'solving';
    this.mistake = false;
    this.here = { fen: puzzle.fen, check: puzzle.check, legal: puzzle.legal, lastMove: null };
    this.app.board.orient(puzzle.side);
    // Moves made before a reload: the stored line's, played again without asking (the server
    // judged them then); a line that left the stored one is started again.
    const solution = puzzle.solution.map((m) => m.iccs);
    if (played.length && played.every((m, i) => m === solution[i])) {
      this.played = played.slice();
      this.texts = puzzle.solution.slice(0, played.length);
      const last = this.texts[this.texts.length - 1];
      this.here = { fen: last.fen, check: false, legal: null, lastMove: last.iccs };
      if (this.played.length === solution.length) this.state = state === 'shown' ? 'shown' : 'solved';
      else await this.refreshLegal();
    }
    const result = loadProgress().results[puzzle.id];
    if (this.state === 'shown') this.feedback = { key: 'shown', kind: '' };
    else if (this.state === 'solved') this.feedback = { key: result === 'failed' ? 'solved.again' : 'solved', kind: 'good' };
    else this.feedback = { key: 'yourmove', kind: '' };
    this.keep();
    this.render();
    this.app.remember(true);
  }

  /** The legal moves of the position reached by stored moves (asked of the server). */
  async refreshLegal() {
    const p = this.puzzle;
    const at = await call('GET', `/api/position?fen=${encodeURIComponent(p.fen)}&moves=${encodeURIComponent(this.played.join(' '))}`);
    if (this.puzzle !== p) return;
    this.here = { ...this.here, check: at.check, legal: at.legal };
  }

  /** Keeps the puzzle under way and its moves. */
  keep() {
    const p = loadProgress();
    p.current = this.puzzle ? { id: this.puzzle.id, played: this.played, state: this.state } : null;
    saveProgress(p);
  }

  /**
   * Records the result of a puzzle's first try: solved (no wrong move, no solution shown) or
   * failed; the streak counts puzzles solved in a row. A puzzle already tried keeps its result.
   */
  record(result) {
    const p = loadProgress();
    const id = this.puzzle.id;
    if (!p.results[id]) {
      p.results[id] = result;
      if (result === 'solved') {
        p.solved += 1;
        p.streak += 1;
        p.best = Math.max(p.best, p.streak);
      } else {
        p.failed += 1;
        p.streak = 0;
      }
    }
    p.current = { id, played: this.played, state: this.state };
    saveProgress(p);
  }

  /** The board's move, made by the player. */
  async move(iccs) {
    if (!this.puzzle || this.busy || this.state !== 'solving') {
      this.render();
      return;
    }
    const p = this.puzzle;
    const before = this.here;
    this.busy = true;
    this.hinted = null;
    this.feedback = { key: 'thinking', kind: '' };
    this.renderText();
    this.app.board.freeze();
    let answer;
    try {
      answer = await call('POST', `/api/puzzles/${p.id}/move`, { moves: this.played, move: iccs });
    } catch (e) {
      this.busy = false;
      this.app.toast(errorText(e), true);
      this.feedback = { key: 'yourmove', kind: '' };
      this.render();
      return;
    }
    if (this.puzzle !== p) return;
    this.app.sounds.play(soundOf(before.fen, answer.move.fen, {}));
    if (answer.verdict === 'wrong') {
      this.mistake = true;
      this.record('failed');
      this.feedback = { key: 'wrong', kind: 'bad', move: answer.move };
      this.here = { ...before, fen: answer.fen, legal: answer.legal };
      // The move stays a moment, then goes back.
      await this.pause(REPLY_MS);
      this.busy = false;
      this.render();
      return;
    }
    this.played.push(answer.move.iccs);
    this.texts.push(answer.move);
    this.here = { fen: answer.move.fen, check: false, legal: [], lastMove: answer.move.iccs };
    if (answer.verdict === 'solved') {
      // The position after the solving move: the mated general glows.
      this.here.check = answer.check;
      this.state = 'solved';
      this.record(this.mistake ? 'failed' : 'solved');
      this.feedback = { key: this.mistake ? 'solved.again' : 'solved', kind: 'good' };
      this.busy = false;
      this.app.sounds.play('end');
      this.render();
      return;
    }
    this.feedback = { key: 'correct', kind: 'good' };
    this.render();
    this.app.board.freeze();
    await this.pause(REPLY_MS);
    if (this.puzzle !== p) return;
    if (answer.reply) {
      this.played.push(answer.reply.iccs);
      this.texts.push(answer.reply);
      this.app.sounds.play(soundOf(answer.move.fen, answer.reply.fen, { check: answer.check }));
    }
    this.here = { fen: answer.fen, check: answer.check, legal: answer.legal, lastMove: answer.reply?.iccs ?? answer.move.iccs };
    this.busy = false;
    this.keep();
    this.render();
  }

  pause(ms) {
    return new Promise((resolve) => { setTimeout(resolve, ms); });
  }

  /** The rest of a winning line from the position reached: the stored one, or the server's. */
  async rest() {
    const solution = this.puzzle.solution;
    if (this.played.every((m, i) => solution[i]?.iccs === m)) return solution.slice(this.played.length);
    const answer = await call('POST', `/api/puzzles/${this.puzzle.id}/solution`, { moves: this.played });
    return answer.line;
  }

  /** Marks the piece the next winning move moves. */
  async hint() {
    if (!this.puzzle || this.busy || this.state !== 'solving') return;
    this.busy = true;
    try {
      const rest = await this.rest();
      if (rest.length) {
        this.hinted = rest[0].iccs.slice(0, 2);
        this.feedback = { key: 'hint.piece', kind: '' };
      }
    } catch (e) {
      this.app.toast(errorText(e), true);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /** Plays the rest of the solution out on the board, a move at a time; the puzzle is failed. */
  async showSolution() {
    if (!this.puzzle || this.busy || this.state !== 'solving') return;
    const p = this.puzzle;
    this.busy = true;
    let rest;
    try {
      rest = await this.rest();
    } catch (e) {
      this.busy = false;
      this.app.toast(errorText(e), true);
      return;
    }
    this.record('failed');
    this.state = 'shown';
    this.hinted = null;
    this.feedback = { key: 'shown', kind: '' };
    for (const m of rest) {
      if (this.puzzle !== p) return;
      const before = this.here.fen;
      this.played.push(m.iccs);
      this.texts.push(m);
      this.here = { fen: m.fen, check: false, legal: [], lastMove: m.iccs };
      this.app.sounds.play(soundOf(before, m.fen, {}));
      this.render();
      await this.pause(SOLUTION_MS);
    }
    this.busy = false;
    this.keep();
    this.render();
  }

  /** Starts the puzzle shown again from its position (its result stays as first recorded). */
  async retry() {
    if (!this.puzzle || this.busy) return;
    await this.load(this.puzzle.id);
  }

  translate() {
    if (!this.built) return;
    $('puzzle-theme-label').textContent = w('theme');
    $('puzzle-difficulty-label').textContent = w('difficulty');
    for (const o of $('puzzle-theme').options) o.textContent = w(`theme.${o.value}`);
    for (const o of $('puzzle-difficulty').options) o.textContent = o.value ? w(o.value) : w('difficulty.any');
    $('puzzle-hint').textContent = w('hint');
    $('puzzle-solution').textContent = w('solution');
    $('puzzle-retry').textContent = w('retry');
    $('puzzle-analyse').textContent = w('analyse');
    $('puzzle-next').textContent = w('next');
    $('puzzle-reset').textContent = w('reset');
    if (this.app.view === 'puzzles') this.render();
  }

  /** The task: whose move, and what to achieve. */
  taskText(p) {
    const who = w(`task.${p.side}`);
    let what;
    if (p.mate_in) {
      what = current() === 'zh' ? w('task.mate', { n: NUMERALS[p.mate_in] ?? p.mate_in }) : w('task.mate', { n: p.mate_in });
    } else {
      what = w(p.themes.includes('endgame') ? 'task.endgame' : 'task.tactic');
    }
    return current() === 'zh' ? `${who} · ${what}` : `${who}: ${what}`;
  }

  /** What the puzzle is and where it comes from. */
  aboutText(p) {
    const title = p.source === 'tables' && current() === 'zh' ? (materialName(p.title) ?? p.title) : p.title;
    return `${title} — ${w(p.difficulty)} · ${w(`source.${p.source}`)}`;
  }

  /** Shows the position, the task, the feedback and the buttons. */
  render() {
    if (!this.built || this.app.view !== 'puzzles') return;
    const board = this.app.board;
    if (this.puzzle && this.here) {
      const movable = this.state === 'solving' && !this.busy && this.here.legal ? this.here.legal : [];
      board.show({ fen: this.here.fen, lastMove: this.here.lastMove, check: this.here.check, movable });
      if (this.hinted) board.circle(this.hinted);
    }
    this.renderText();
  }

  /** The view's words: task, feedback, moves, progress. */
  renderText() {
    const p = this.puzzle;
    $('puzzle-task').textContent = p ? this.taskText(p) : w('none');
    $('puzzle-task').dataset.side = p?.side ?? '';
    $('puzzle-about').textContent = p ? this.aboutText(p) : '';
    const f = this.feedback;
    const fb = $('puzzle-feedback');
    const notation = this.app.notation;
    fb.textContent = f.key === 'wrong'
      ? w('wrong', { move: notation === 'iccs' ? f.move.iccs : f.move[notation] })
      : w(f.key, { side: p ? w(p.side) : '' });
    fb.className = `puzzle-feedback ${f.kind}`;
    const { results, solved, failed, streak, best } = loadProgress();
    const known = p && results[p.id] && this.state === 'solving' && f.key === 'yourmove'
      ? ` ${w(`state.${results[p.id]}`)}` : '';
    if (known) fb.textContent += known;
    const solving = Boolean(p) && this.state === 'solving';
    $('puzzle-hint').disabled = !solving || this.busy;
    $('puzzle-solution').disabled = !solving || this.busy;
    $('puzzle-retry').hidden = !p || this.state === 'solving';
    $('puzzle-analyse').disabled = !p;
    $('puzzle-next').disabled = this.busy && solving;
    $('puzzle-next').classList.toggle('primary', !solving);
    renderMoves($('puzzle-moves'), {
      moves: this.texts,
      current: this.texts.length - 1,
      startFen: p?.fen ?? '9/9/9/9/9/9/9/9/9/9 w - - 0 1',
      notation,
      onPick: () => {},
    });
    $('puzzle-progress').textContent = w('progress', { solved, failed, streak, best });
    if (this.list) {
      const left = this.list.filter((x) => !results[x.id]).length;
      $('puzzle-count').textContent = w('count', { n: this.list.length.toLocaleString(), left: left.toLocaleString() });
    } else {
      $('puzzle-count').textContent = '';
      this.puzzles().then(() => this.renderText()).catch(() => {});
    }
  }
}
