// The explorer beside the analysis board: the books' moves (every configured book), the games
// of the game database through the position (filters, pages, open a game) and the endgame
// tables' value of every move. `analyse` owns the position; a click here plays a move or loads
// a game into it.

import * as api from './api.js';
import { Builder } from './build.js';
import { errorText } from './errors.js';
import { gamesCount as gamesText, t } from './i18n.js';
import { openingName } from './openings.js';

const $ = (id) => document.getElementById(id);

/** A red-win / draw / black-win bar. */
function wdlBar(red, draws, black) {
  const total = red + draws + black;
  const bar = document.createElement('div');
  bar.className = 'wdl';
  for (const [cls, n] of [['w', red], ['d', draws], ['l', black]]) {
    const part = document.createElement('span');
    part.className = cls;
    const share = total ? (100 * n) / total : 0;
    part.style.width = `${share}%`;
    part.textContent = share >= 12 ? `${Math.round(share)}%` : '';
    bar.append(part);
  }
  return bar;
}

export class Explorer {
  constructor(analyse) {
    this.analyse = analyse;
    this.pane = 'book';
    this.offset = 0;
    this.limit = 20;
    this.tableLine = [];
    // Numbers the requests: only the latest one's answer is drawn. Two requests for the same
    // position (the games pane, then a filter submitted) share a key, and a slow first answer
    // must not overwrite a quicker second.
    this.serial = 0;
    for (const tab of document.querySelectorAll('.subtab')) {
      tab.addEventListener('click', () => {
        this.pane = tab.dataset.pane;
        for (const other of document.querySelectorAll('.subtab')) {
          other.classList.toggle('active', other === tab);
        }
        for (const pane of ['book', 'games', 'tables']) $(`pane-${pane}`).hidden = pane !== this.pane;
        this.update();
      });
    }
    $('f-order').addEventListener('change', () => {
      this.offset = 0;
      this.update();
    });
    $('games-filter').addEventListener('submit', (e) => {
      e.preventDefault();
      this.offset = 0;
      this.update();
    });
    $('games-prev').addEventListener('click', () => {
      this.offset = Math.max(0, this.offset - this.limit);
      this.update();
    });
    $('games-next').addEventListener('click', () => {
      this.offset += this.limit;
      this.update();
    });
    $('tb-line').addEventListener('click', () => {
      if (this.current()) this.analyse.playLine(this.tableLine);
    });
    this.builder = new Builder(this);
  }

  /** The move's name in the chosen notation. */
  name(m) {
    const notation = this.analyse.app.notation;
    return notation === 'iccs' ? m.move ?? m.iccs : m[notation];
  }

  /**
   * The request the open pane makes for the analysis board's position as it is now. The board's
   * position changes at once when a move is played, before its answers arrive.
   */
  key() {
    const { fen, moves } = this.analyse.position();
    return JSON.stringify([fen, moves, this.pane, this.offset]);
  }

  /**
   * Whether the pane shows the answer for the position on the board now: from a move played
   * until its answer is drawn, the pane shows the previous position's, and its moves play nothing.
   */
  current() {
    return this.drawn === this.key();
  }

  /** Fetches and draws the open pane for the analysis board's position. */
  async update() {
    const { fen, moves } = this.analyse.position();
    const asked = this.key();
    this.asked = asked;
    this.serial += 1;
    const serial = this.serial;
    const latest = () => this.serial === serial;
    try {
      if (this.pane === 'book') {
        const answer = await api.book(fen, moves);
        if (latest()) this.drawBooks(answer, asked);
      } else if (this.pane === 'games') {
        const order = { order: $('f-order').value };
        const answer = await api.games(fen, moves, { ...this.filters(), ...order }, this.offset, this.limit);
        if (latest()) this.drawGames(answer, asked);
      } else {
        const answer = await api.tablebase(fen, moves).catch((e) => {
          if (e.status === 404) return null;
          throw e;
        });
        if (latest()) this.drawTables(answer, asked);
      }
      if (latest()) this.drawn = asked;
    } catch (e) {
      if (!latest()) return;
      const where = this.pane === 'games' ? 'games-total' : this.pane === 'book' ? 'books' : 'tb-value';
      $(where).textContent = errorText(e);
    }
  }

  /**
   * Plays `move` from a table drawn for the request `asked`, if that is still the board's
   * position: until the next answer is drawn the tables shown are the previous position's, and a
   * click on one of their moves must not play it here.
   */
  playFrom(asked, move) {
    if (this.asked === asked && this.key() === asked) this.analyse.play(move);
  }

  filters() {
    const f = {};
    for (const [key, id] of [['player', 'f-player'], ['color', 'f-color'], ['event', 'f-event'],
      ['since', 'f-since'], ['until', 'f-until'], ['result', 'f-result'], ['min_elo', 'f-min-elo']]) {
      const v = $(id).value.trim();
      if (v) f[key] = v;
    }
    return f;
  }

  drawBooks(answer, asked) {
    const box = $('books');
    box.replaceChildren();
    for (const book of answer.books) {
      const title = document.createElement('h4');
      const name = book.builtin ? t('book.builtin') : book.name;
      title.textContent = book.kind === 'compiled' ? `${name} · ${t('book.compiled')}` : name;
      const table = document.createElement('table');
      table.className = 'book';
      const body = table.createTBody();
      if (!book.moves.length) body.insertRow().insertCell().textContent = t('book.none');
      for (const m of book.moves) {
        const row = body.insertRow();
        const cell = row.insertCell();
        cell.className = 'move';
        cell.textContent = this.name(m);
        cell.addEventListener('click', () => this.playFrom(asked, m.move));
        const count = row.insertCell();
        count.className = 'count';
        count.textContent = gamesText(m.games);
        row.insertCell().append(wdlBar(m.red_wins, m.draws, m.black_wins));
        row.insertCell().textContent = `${(100 * m.probability).toFixed(1)}%`;
      }
      box.append(title, table);
    }
  }

  drawGames(answer, asked) {
    $('games-total').textContent = answer.total === 1
      ? t('games.total.one') : t('games.total', { n: answer.total.toLocaleString() });
    const moves = $('games-moves').tBodies[0];
    moves.replaceChildren();
    for (const m of answer.moves) {
      const row = moves.insertRow();
      const cell = row.insertCell();
      cell.className = 'move';
      if (m.move) {
        cell.textContent = this.name(m);
        cell.addEventListener('click', () => this.playFrom(asked, m.move));
      } else {
        cell.textContent = t('games.ended');
      }
      const count = row.insertCell();
      count.className = 'count';
      count.textContent = gamesText(m.games);
      row.insertCell().append(wdlBar(m.red_wins, m.draws, m.black_wins));
    }
    const list = $('games-list').tBodies[0];
    list.replaceChildren();
    for (const g of answer.games) {
      const row = list.insertRow();
      row.dataset.id = String(g.id);
      row.insertCell().textContent = `${g.red ?? '?'} – ${g.black ?? '?'}`;
      row.insertCell().textContent = g.result ?? '*';
      const eco = row.insertCell();
      eco.className = 'eco';
      eco.textContent = g.opening?.eco ?? '';
      eco.title = openingName(g.opening);
      row.insertCell().textContent = g.event ?? '';
      row.insertCell().textContent = g.date ?? '';
      row.insertCell().textContent = t('games.plies', { n: g.plies });
      row.addEventListener('click', () => this.openGame(g.id));
    }
    const pages = Math.max(1, Math.ceil(answer.total / this.limit));
    $('games-page').textContent = t('games.page', { n: Math.floor(this.offset / this.limit) + 1, of: pages });
    $('games-prev').disabled = this.offset === 0;
    $('games-next').disabled = this.offset + this.limit >= answer.total;
  }

  async openGame(id) {
    try {
      const g = await api.storedGame(id);
      const tags = [g.event, g.date, `${g.red ?? '?'} – ${g.black ?? '?'}`, g.result]
        .filter(Boolean).join(' · ');
      this.analyse.showGame(g.fen, g.moves.map((m) => m.iccs), tags, api.storedGameUrl(id));
    } catch (e) {
      this.analyse.app.toast(errorText(e), true);
    }
  }

  drawTables(answer, asked) {
    const body = $('tb-moves').tBodies[0];
    body.replaceChildren();
    this.tableLine = answer ? answer.line.map((m) => m.iccs) : [];
    $('tb-line').hidden = !this.tableLine.length;
    if (!answer) {
      $('tb-value').textContent = t('tb.none');
      return;
    }
    $('tb-value').textContent = this.valueText(answer);
    for (const m of answer.moves) {
      const row = body.insertRow();
      const cell = row.insertCell();
      cell.className = 'move';
      cell.textContent = this.name(m);
      cell.addEventListener('click', () => this.playFrom(asked, m.move));
      const badge = document.createElement('span');
      badge.className = `badge ${m.wdl}`;
      badge.textContent = t(`tb.${m.wdl}`);
      row.insertCell().append(badge);
      row.insertCell().textContent = this.distance(m);
    }
  }

  /** The value for the side to move, in words. */
  valueText(v) {
    return `${t(`tb.${v.wdl}`)}${this.distance(v) ? ` · ${this.distance(v)}` : ''}`;
  }

  /** A value's distance in plies, or that the perpetual check/chase rules decide it. */
  distance(v) {
    if (v.by_rule) return t('tb.rule');
    if (v.dtm === null || v.dtm === undefined) return '';
    return v.wdl === 'win' ? t('tb.mates', { n: v.dtm }) : t('tb.mated', { n: v.dtm });
  }
}
