// External engines (`chariot serve --engine`, docs/web-app.md): an opponent chooser with its
// limits in the new-game form, a chooser of engines in the analysis view with their lines side
// by side with Chariot's, and an options panel for each engine. Nothing shows when the server
// has no engine. The page's other files call in at a few points: play.js for the new game's
// setup and the words about the opponent's moves, analyse.js when an analysis starts or its
// lines are forgotten.

import { analysisUrl, call } from './api.js';
import { el } from './dom.js';
import { t, wordsOf } from './i18n.js';
import { readEvents } from './analyse.js';
import { drawLines, onPick } from './lines.js';
import { scoreText, wordsForRed } from './scores.js';

const $ = (id) => document.getElementById(id);

const WORDS = {
  en: {
    opponent: 'Opponent', limit: 'Limit', options: 'Engine options…', 'options.title': 'Options of {name}',
    'limit.movetime': 'seconds a move', 'limit.depth': 'depth', 'limit.nodes': 'nodes a move',
    'limit.none': 'its full strength', save: 'Save', close: 'Close', press: 'Press',
    saved: 'Options saved.', pressed: '{name} pressed.', thinking: '{name} is thinking…',
    'move.search': "{name} played {move}: depth {depth}, score {score} (Red's side), {nodes} nodes, {secs} s",
    'move.noscore': '{name} played {move}: depth {depth}, {secs} s', 'move.book': '{name} played {move} from its book',
    failed: '{name} cannot be used: {error}', engines: 'Engines', done: 'finished',
    summary: 'depth {depth} · {nodes} nodes · {nps} nodes/s',
  },
  zh: {
    opponent: '对手', limit: '限制', options: '引擎设置…', 'options.title': '{name} 的设置',
    'limit.movetime': '秒/步', 'limit.depth': '深度', 'limit.nodes': '结点/步', 'limit.none': '全力',
    save: '保存', close: '关闭', press: '执行', saved: '设置已保存。', pressed: '已执行 {name}。',
    thinking: '{name} 思考中…',
    'move.search': '{name} 走 {move}：深度 {depth}，分数 {score}（红方视角），{nodes} 结点，{secs} 秒',
    'move.noscore': '{name} 走 {move}：深度 {depth}，{secs} 秒', 'move.book': '{name} 走 {move}（开局库）',
    failed: '{name} 无法使用：{error}', engines: '引擎', done: '完毕',
    summary: '深度 {depth} · {nodes} 结点 · {nps} 结点/秒',
  },
};

/** The words for `key` in the page's language. */
const w = wordsOf(WORDS);

export class Engines {
  constructor(app) {
    this.app = app;
    this.list = []; // GET /api/engines
    this.streams = new Map(); // engine name -> { lines: Map(multipv -> info), done, error }
    this.load();
  }

  /** Reads the server's engines and adds the choosers when there are any. */
  async load() {
    try {
      this.list = (await call('GET', '/api/engines')).engines;
    } catch {
      return;
    }
    if (!this.list.length) return;
    const link = el('link', { rel: 'stylesheet', href: '/assets/engines.css' });
    document.head.append(link);
    this.buildPlay();
    this.buildAnalyse();
    this.dialog = el('dialog', { id: 'engine-options', className: 'engine-options' });
    document.body.append(this.dialog);
    // The language switch re-translates the page: these words too.
    new MutationObserver(() => this.translate()).observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['lang'],
    });
    $('notation').addEventListener('change', () => this.renderColumns());
    this.translate();
  }

  /** The engine `name` as last listed. */
  engine(name) {
    return this.list.find((e) => e.name === name);
  }

  /** How an engine is named to people: its name and, when it gave one, its `id name`. */
  label(e) {
    return e.id_name ? `${e.name} (${e.id_name})` : e.name;
  }

  // --- Play -----------------------------------------------------------------------------------

  buildPlay() {
    const options = [el('option', { value: '', textContent: 'Chariot' })];
    for (const e of this.list) {
      const ready = e.state === 'ready';
      const title = ready ? '' : w('failed', { name: e.name, error: e.error });
      options.push(el('option', { value: e.name, textContent: this.label(e), disabled: !ready, title }));
    }
    const select = el('select', { id: 'new-opponent' }, ...options);
    const chooser = el('label', {}, el('span', { className: 'w-opponent' }), select);
    const levelLabel = $('new-level').closest('label');
    levelLabel.before(chooser);
    const kind = el('select', { id: 'new-limit-kind' },
      ...['movetime', 'depth', 'nodes', 'none'].map((k) => el('option', { value: k, className: `w-limit-${k}` })));
    const value = el('input', { id: 'new-limit-value', type: 'number', min: '0.1', step: '0.1', value: '1' });
    const optionsButton = el('button', { type: 'button', id: 'new-engine-options', className: 'w-options' });
    optionsButton.addEventListener('click', () => this.openOptions(select.value));
    const row = el('div', { id: 'new-limits', className: 'row', hidden: true },
      el('label', {}, el('span', { className: 'w-limit' }), kind), value, optionsButton);
    levelLabel.closest('.row').after(row);
    const defaults = { movetime: ['1', '0.1', '0.1'], depth: ['8', '1', '1'], nodes: ['100000', '1', '1000'] };
    kind.addEventListener('change', () => {
      value.hidden = kind.value === 'none';
      const [v, min, step] = defaults[kind.value] || defaults.movetime;
      Object.assign(value, { value: v, min, step });
    });
    const chosen = () => {
      const external = Boolean(select.value);
      levelLabel.hidden = external;
      row.hidden = !external;
      localStorage.setItem('chariot.opponent', select.value);
    };
    select.addEventListener('change', chosen);
    const saved = localStorage.getItem('chariot.opponent');
    if (saved && this.engine(saved)?.state === 'ready') select.value = saved;
    chosen();
  }

  /** What a new game's setup gains from the form: the external engine and its limits. */
  playSetup() {
    const engine = $('new-opponent')?.value;
    if (!engine) return {};
    const kind = $('new-limit-kind').value;
    const value = Number($('new-limit-value').value);
    const limits = {};
    if (kind === 'movetime') limits.movetime = Math.max(1, Math.round(value * 1000));
    else if (kind === 'depth') limits.depth = Math.max(1, Math.round(value));
    else if (kind === 'nodes') limits.nodes = Math.max(1, Math.round(value));
    return { engine, limits };
  }

  /** The opponent's name in a game's words. */
  opponentName(game) {
    return game.opponent ? game.opponent.id_name || game.opponent.engine : 'Chariot';
  }

  /** The status while the opponent of `game` thinks. */
  thinking(game) {
    return game.opponent ? w('thinking', { name: this.opponentName(game) }) : t('thinking');
  }

  /**
   * What the external opponent of `game` said with its last move (in the notation shown), or
   * why the game ended when it was the engine's fault (the rules core's sentence names the
   * illegal move or the failure).
   */
  moveText(game, move) {
    const name = this.opponentName(game);
    const result = game.result;
    if (result && ['illegal-move', 'no-move', 'engine-failure', 'time'].includes(result.why)) {
      return result.reason;
    }
    const e = game.engine;
    if (!e) return '';
    if (e.source === 'book') return w('move.book', { name, move });
    const values = { name, move, depth: e.depth, secs: (e.millis / 1000).toFixed(1) };
    if (e.score === null) return w('move.noscore', values);
    // The engine's score is its own; Red's is shown (scores.js).
    const red = wordsForRed(e.score, game.side === 'red' ? 'black' : 'red');
    return w('move.search', { ...values, score: scoreText(red), nodes: e.nodes.toLocaleString() });
  }

  // --- Analyse --------------------------------------------------------------------------------

  buildAnalyse() {
    const panel = $('analyse').closest('.panel');
    const boxes = this.list.map((e) => {
      const box = el('input', { type: 'checkbox', value: e.name, disabled: e.state !== 'ready' });
      box.checked = (localStorage.getItem('chariot.analysis-engines') || '').split(' ').includes(e.name);
      box.addEventListener('change', () => {
        localStorage.setItem('chariot.analysis-engines', this.chosen().join(' '));
        if (!box.checked) {
          this.streams.get(e.name)?.abort?.abort();
          this.streams.delete(e.name);
        }
        this.renderColumns();
      });
      const gear = el('button', { type: 'button', className: 'gear', textContent: '⚙', title: e.name });
      gear.addEventListener('click', () => this.openOptions(e.name));
      const title = e.state === 'ready' ? this.label(e) : w('failed', { name: e.name, error: e.error });
      return el('span', { className: 'engine-choice', title }, el('label', {}, box, ` ${e.name}`), gear);
    });
    // Chariot always analyses: its box is ticked for good.
    const chariot = el('label', {}, el('input', { type: 'checkbox', checked: true, disabled: true }), ' Chariot');
    const row = el('div', { id: 'analysis-engines', className: 'row' },
      el('span', { className: 'w-engines' }), chariot, ...boxes);
    $('analyse').closest('.row').after(row);
    // Chariot's lines become the first column.
    const first = el('div', { className: 'engine-column', id: 'column-chariot' },
      el('h4', { textContent: 'Chariot' }));
    const columns = el('div', { id: 'engine-columns', className: 'engine-columns' }, first);
    $('analysis-summary').before(columns);
    first.append($('analysis-summary'), $('lines'));
    this.panel = panel;
    this.renderColumns();
  }

  /** The external engines ticked for analysis. */
  chosen() {
    return [...document.querySelectorAll('#analysis-engines input:checked:not(:disabled)')].map((b) => b.value);
  }

  /**
   * Starts the chosen engines on the position `fen` + `moves` beside Chariot's analysis; the
   * streams end when `signal` aborts (the analysis is stopped or starts again).
   */
  startAnalysis({ fen, moves, turn, multipv, seconds }, signal) {
    if (!this.list.length) return;
    this.clearAnalysis();
    for (const name of this.chosen()) {
      const abort = new AbortController();
      signal.addEventListener('abort', () => abort.abort());
      // `turn`: the side to move of the position analysed, whose scores the engine gives.
      const stream = { lines: new Map(), done: false, error: null, abort, turn };
      this.streams.set(name, stream);
      this.run(name, stream, `${analysisUrl(fen, moves, multipv, seconds)}&engine=${encodeURIComponent(name)}`);
    }
    this.renderColumns();
  }

  async run(name, stream, url) {
    try {
      const response = await fetch(url, { signal: stream.abort.signal });
      if (!response.ok) {
        let message = `${response.status}`;
        try {
          message = (await response.json()).error;
        } catch { /* not JSON */ }
        throw new Error(message);
      }
      await readEvents(response, (event, data) => {
        if (this.streams.get(name) !== stream) return;
        if (event === 'info') stream.lines.set(data.multipv, data);
        else if (event === 'done') stream.done = true;
        else if (event === 'error') stream.error = data.error;
        this.renderColumns();
      });
    } catch (e) {
      if (e.name !== 'AbortError' && this.streams.get(name) === stream) {
        stream.error = e.message;
        this.renderColumns();
      }
    }
  }

  /** Forgets every engine's lines (they belong to a position no longer shown). */
  clearAnalysis() {
    for (const s of this.streams.values()) s.abort.abort();
    this.streams.clear();
    this.renderColumns();
  }

  /** Draws one column of lines per external engine ticked, beside Chariot's. */
  renderColumns() {
    const columns = $('engine-columns');
    if (!columns) return;
    const chosen = this.chosen();
    columns.classList.toggle('several', chosen.length > 0);
    // A column stays while its engine is ticked (what a reader holds stays in place).
    for (const old of columns.querySelectorAll('.engine-column.external')) {
      if (!chosen.includes(old.dataset.engine)) old.remove();
    }
    for (const name of chosen) {
      let column = columns.querySelector(`.engine-column.external[data-engine="${CSS.escape(name)}"]`);
      if (!column) {
        const table = el('table', { className: 'lines' }, el('tbody'));
        column = el('div', { className: 'engine-column external' },
          el('h4', { textContent: this.label(this.engine(name)) }),
          el('div', { className: 'engine-info' }),
          table);
        column.dataset.engine = name;
        // Its moves step into the line on the board, as Chariot's do (lines.js).
        onPick(table, (multipv, ply) => {
          const line = this.streams.get(name)?.lines.get(multipv);
          this.app.analyse.peek.open(name, name, line, ply);
        });
        columns.append(column);
      }
      this.renderColumn(column, this.streams.get(name));
    }
  }

  /** Draws an engine's lines (and its summary, or its error) into its column. */
  renderColumn(column, stream) {
    const summary = column.querySelector('.engine-info');
    const ordered = stream ? [...stream.lines.values()].sort((a, b) => a.multipv - b.multipv) : [];
    const here = this.app.analyse?.here;
    drawLines(column.querySelector('tbody'), here ? ordered : [], {
      fen: here?.fen,
      turn: stream?.turn ?? here?.turn,
      notation: this.app.notation,
      peeked: this.app.analyse?.peek.peeked(column.dataset.engine),
    });
    if (stream?.error) summary.textContent = stream.error;
    else if (ordered.length) {
      const first = ordered[0];
      summary.textContent = w('summary', {
        depth: first.depth, nodes: first.nodes.toLocaleString(), nps: first.nps.toLocaleString(),
      }) + (stream.done ? ` · ${w('done')}` : '');
    } else summary.textContent = '';
  }

  // --- Options --------------------------------------------------------------------------------

  /** Opens the options panel of engine `name`, read afresh from the server. */
  async openOptions(name) {
    let e;
    try {
      e = await call('GET', `/api/engines/${encodeURIComponent(name)}`);
    } catch (error) {
      this.app.toast(error.message, true);
      return;
    }
    const dialog = this.dialog;
    dialog.replaceChildren();
    const form = el('form', { method: 'dialog' });
    form.append(el('h3', { textContent: w('options.title', { name: this.label(e) }) }));
    if (e.state !== 'ready') form.append(el('p', { textContent: w('failed', { name, error: e.error }) }));
    const inputs = new Map();
    const table = el('table', { className: 'options' }, el('tbody'));
    for (const o of e.options) {
      const row = table.tBodies[0].insertRow();
      row.insertCell().append(el('label', { textContent: o.name, htmlFor: `opt-${o.name}` }));
      const cell = row.insertCell();
      let input;
      if (o.kind === 'check') {
        input = el('input', { type: 'checkbox', checked: o.value });
      } else if (o.kind === 'spin') {
        input = el('input', { type: 'number', value: String(o.value), step: '1' });
        if (o.min !== null) input.min = String(o.min);
        if (o.max !== null) input.max = String(o.max);
      } else if (o.kind === 'combo') {
        input = el('select', {}, ...o.choices.map((c) => el('option', { value: c, textContent: c })));
        input.value = o.value;
      } else if (o.kind === 'string') {
        input = el('input', { type: 'text', value: o.value, spellcheck: false });
      } else {
        input = el('button', { type: 'button', textContent: w('press') });
        input.addEventListener('click', () => this.setOptions(name, { [o.name]: null }, w('pressed', { name: o.name })));
      }
      input.id = `opt-${o.name}`;
      cell.append(input);
      if (o.kind !== 'button') inputs.set(o, input);
    }
    form.append(table);
    const save = el('button', { type: 'button', className: 'primary', textContent: w('save') });
    const close = el('button', { type: 'submit', textContent: w('close') });
    save.addEventListener('click', async () => {
      const changed = {};
      for (const [o, input] of inputs) {
        const value = o.kind === 'check' ? input.checked : o.kind === 'spin' ? Number(input.value) : input.value;
        if (value !== o.value) changed[o.name] = value;
      }
      if (await this.setOptions(name, changed, w('saved'))) dialog.close();
    });
    form.append(el('div', { className: 'row' }, save, close));
    dialog.append(form);
    dialog.showModal();
  }

  /** Sets options of engine `name` (`POST /api/engines/{name}/options`); true when taken. */
  async setOptions(name, values, done) {
    try {
      const e = await call('POST', `/api/engines/${encodeURIComponent(name)}/options`, values);
      this.list = this.list.map((x) => (x.name === name ? e : x));
      this.app.toast(done);
      return true;
    } catch (error) {
      this.app.toast(error.message, true);
      return false;
    }
  }

  /** Puts this module's words into its elements in the page's language. */
  translate() {
    for (const [selector, key] of [
      ['.w-opponent', 'opponent'], ['.w-limit', 'limit'], ['.w-options', 'options'], ['.w-engines', 'engines'],
      ['.w-limit-movetime', 'limit.movetime'], ['.w-limit-depth', 'limit.depth'],
      ['.w-limit-nodes', 'limit.nodes'], ['.w-limit-none', 'limit.none'],
    ]) {
      for (const e of document.querySelectorAll(selector)) e.textContent = w(key);
    }
    this.renderColumns();
  }
}
