// The tablebase pages (no board): the tables the server has, grouped by number of pieces, and
// one material's page: wins, draws and losses for each side to move, the file, the positions at
// each distance to mate as an SVG histogram (plies on the x axis) and the longest mates; a click
// on one opens it in the analysis view with its tables pane.

import * as api from './api.js';
import { errorText } from './errors.js';
import { current, t } from './i18n.js';
import { materialName, sideName } from './material.js';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

const number = (n) => n.toLocaleString();

/** `n` as a share of `total`, e.g. `81.0%`. */
function percent(n, total) {
  return total ? `${((100 * n) / total).toFixed(1)}%` : '–';
}

/** A file size for people: bytes, KiB or MiB. */
function size(bytes) {
  if (bytes < 1024) return t('tables.bytes', { n: number(bytes) });
  if (bytes < 1024 * 1024) return t('tables.kib', { n: (bytes / 1024).toFixed(1) });
  return t('tables.mib', { n: (bytes / (1024 * 1024)).toFixed(1) });
}

function svg(name, attributes = {}) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, String(v));
  return el;
}

/**
 * The positions of one side to move at each distance to mate: bars for wins (odd plies) and
 * losses (even plies) on one axis of plies.
 */
function histogram(side) {
  const bars = [
    ...side.histogram.wins.map((b) => ({ ...b, wdl: 'win' })),
    ...side.histogram.losses.map((b) => ({ ...b, wdl: 'loss' })),
  ];
  if (!bars.length) {
    const none = document.createElement('div');
    none.className = 'engine-info';
    none.textContent = t('tables.nomate');
    return none;
  }
  const W = 640;
  const H = 170;
  const left = 56;
  const bottom = 34;
  const top = 10;
  const plot = H - bottom - top;
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'histogram', role: 'img' });
  const most = Math.max(1, ...bars.map((b) => b.positions));
  const span = Math.max(1, side.longest_plies + 1);
  const step = (W - left - 8) / span;
  // Axes, the largest count on the y axis, distances on the x axis.
  chart.append(svg('line', { x1: left, y1: top + plot, x2: W - 4, y2: top + plot, class: 'axis' }));
  chart.append(svg('line', { x1: left, y1: top, x2: left, y2: top + plot, class: 'axis' }));
  const yMax = svg('text', { x: left - 6, y: top + 10, 'text-anchor': 'end', class: 'tick' });
  yMax.textContent = number(most);
  const yZero = svg('text', { x: left - 6, y: top + plot, 'text-anchor': 'end', class: 'tick' });
  yZero.textContent = '0';
  chart.append(yMax, yZero);
  const every = Math.max(1, Math.ceil(span / 16 / 2) * 2);
  for (let d = 0; d < span; d += every) {
    const tick = svg('text', { x: left + (d + 0.5) * step, y: top + plot + 14, 'text-anchor': 'middle', class: 'tick' });
    tick.textContent = String(d);
    chart.append(tick);
  }
  const label = svg('text', { x: left + (W - left) / 2, y: H - 3, 'text-anchor': 'middle', class: 'label' });
  label.textContent = t('tables.axis');
  chart.append(label);
  for (const b of bars) {
    // At least a pixel for a distance with any position, so that none is lost to the scale.
    const h = Math.max(1, (plot * b.positions) / most);
    const rect = svg('rect', {
      x: left + b.plies * step + step * 0.1,
      y: top + plot - h,
      width: Math.max(1, step * 0.8),
      height: h,
      class: `bar ${b.wdl}`,
      'data-plies': b.plies,
      'data-positions': b.positions,
    });
    const title = svg('title');
    title.textContent = t(b.wdl === 'win' ? 'tables.bar.win' : 'tables.bar.loss', { d: b.plies, n: number(b.positions) });
    rect.append(title);
    chart.append(rect);
  }
  return chart;
}

export class Tables {
  constructor(app) {
    this.app = app;
    this.list = null; // GET /api/tablebases
    this.page = null; // the material shown, GET /api/tablebases/{material}
    this.current = null; // the material chosen (the address's, `#tables/KRKAABB`), or none
  }

  /** Called when the view is shown: the list, and the material chosen (or none). */
  async activate() {
    if (!this.current) {
      this.page = null;
      $('table-page').hidden = true;
    }
    if (!this.list) {
      try {
        this.list = await api.tablebases();
      } catch (e) {
        $('tables-count').textContent = errorText(e);
        return;
      }
    }
    this.render();
    if (this.current && (!this.page || this.page.material !== this.current)) this.open(this.current);
  }

  /** Draws the list and the page shown (again after a change of language). */
  render() {
    if (!this.list) return;
    const tables = this.list.tables;
    $('tables-count').textContent = t('tables.count', { n: tables.length });
    const box = $('tables-groups');
    box.replaceChildren();
    const groups = new Map();
    for (const table of tables) {
      if (!groups.has(table.pieces)) groups.set(table.pieces, []);
      groups.get(table.pieces).push(table);
    }
    for (const [pieces, members] of groups) {
      const title = document.createElement('h3');
      title.textContent = t('tables.pieces', { n: pieces });
      const row = document.createElement('div');
      row.className = 'table-names';
      for (const table of members) {
        const button = document.createElement('button');
        button.type = 'button';
        button.dataset.material = table.material;
        button.textContent = this.name(table.material);
        button.classList.toggle('active', table.material === this.current);
        button.title = `${table.material} · ${t('tables.tip', {
          positions: number(table.positions),
          size: size(table.bytes),
          plies: table.longest_plies,
        })}`;
        button.addEventListener('click', () => this.open(table.material));
        row.append(button);
      }
      box.append(title, row);
    }
    if (this.page) this.drawPage(this.page);
  }

  /** Shows a material's page (computed by the server on the first request). */
  async open(material) {
    this.current = material;
    this.app.remember(true);
    for (const b of document.querySelectorAll('#tables-groups button')) {
      b.classList.toggle('active', b.dataset.material === material);
    }
    $('table-page').hidden = false;
    $('table-title').textContent = this.name(material);
    $('table-facts').textContent = t('tables.loading');
    for (const id of ['table-wdl', 'table-histogram', 'table-longest']) $(id).replaceChildren();
    try {
      const page = await api.tablebasePage(material);
      if (this.current !== material) return;
      this.page = page;
      this.drawPage(page);
    } catch (e) {
      if (this.current === material) $('table-facts').textContent = errorText(e);
    }
  }

  /** A material as the page's language names it: `KRKN`, or in Chinese `单车对单马`. */
  name(material) {
    return current() === 'zh' ? materialName(material) ?? material : material;
  }

  /** A side to move in words: `KR to move (strong side, Red)`, `单车走（强方，红方）`. */
  sideName(side) {
    const material = current() === 'zh' ? sideName(side.material.replace(/^K/i, '')) : side.material;
    return t('tables.tomove', { material, side: t(`tables.${side.to_move}`) });
  }

  drawPage(page) {
    $('table-title').textContent = t('tables.page', { material: this.name(page.material), n: page.pieces });
    const f = page.format;
    $('table-facts').textContent = [
      t('tables.file', { file: page.file, size: size(page.bytes), bytes: number(page.bytes) }),
      t('tables.positions', { n: number(page.positions) }),
      page.longest ? t('tables.longestall', { n: page.longest.plies }) : t('tables.nolongest'),
      t('tables.format', {
        version: f.version,
        entries: number(f.entries_per_side),
        width: f.bytes_per_entry,
        ratio: (f.uncompressed_bytes / Math.max(1, page.bytes)).toFixed(1),
      }),
      t(`tables.rule.${f.perpetual_check_rule.replace(' ', '-')}`),
    ].join(' · ');
    this.drawCounts(page);
    const charts = $('table-histogram');
    charts.replaceChildren();
    const lists = $('table-longest');
    lists.replaceChildren();
    for (const side of page.sides) {
      const title = document.createElement('h4');
      title.textContent = this.sideName(side);
      charts.append(title.cloneNode(true), histogram(side));
      lists.append(title, this.mates(side));
    }
  }

  /** Wins, draws and losses for each side to move, with their shares. */
  drawCounts(page) {
    const table = $('table-wdl');
    table.replaceChildren();
    const head = table.createTHead().insertRow();
    for (const key of ['tables.side', 'tables.col.positions', 'tables.col.wins', 'tables.col.draws', 'tables.col.losses']) {
      const th = document.createElement('th');
      th.textContent = t(key);
      head.append(th);
    }
    const body = table.createTBody();
    for (const side of page.sides) {
      const row = body.insertRow();
      row.dataset.side = side.to_move;
      row.insertCell().textContent = this.sideName(side);
      const count = row.insertCell();
      count.dataset.count = 'positions';
      count.dataset.n = side.positions;
      count.textContent = number(side.positions);
      for (const key of ['wins', 'draws', 'losses']) {
        const cell = row.insertCell();
        cell.dataset.count = key;
        cell.dataset.n = side[key];
        cell.className = `count ${key}`;
        cell.textContent = `${number(side[key])} (${percent(side[key], side.positions)})`;
      }
      if (side.rule_wins || side.rule_losses) {
        const note = body.insertRow().insertCell();
        note.colSpan = 5;
        note.className = 'note';
        note.textContent = t('tables.rule', { wins: number(side.rule_wins), losses: number(side.rule_losses) });
      }
    }
  }

  /** The longest mates of one side to move; a click analyses one. */
  mates(side) {
    const table = document.createElement('table');
    table.className = 'mates';
    const body = table.createTBody();
    if (!side.longest.length) body.insertRow().insertCell().textContent = t('tables.nomate');
    for (const m of side.longest) {
      const row = body.insertRow();
      row.dataset.fen = m.fen;
      row.dataset.plies = m.plies;
      row.dataset.wdl = m.wdl;
      row.title = t('tables.open');
      const badge = document.createElement('span');
      badge.className = `badge ${m.wdl}`;
      badge.textContent = t(`tb.${m.wdl}`);
      row.insertCell().append(badge);
      row.insertCell().textContent = t(m.wdl === 'win' ? 'tb.mates' : 'tb.mated', { n: m.plies });
      const fen = row.insertCell();
      fen.className = 'fen';
      fen.textContent = m.fen;
      row.addEventListener('click', () => this.analyse(m.fen));
    }
    return table;
  }

  /** Opens `fen` in the analysis view with the endgame tables pane. */
  analyse(fen) {
    document.querySelector('.subtab[data-pane="tables"]').click();
    this.app.analyse.show(fen);
  }
}
