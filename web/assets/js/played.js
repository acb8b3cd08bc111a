// The games played on this machine (the server keeps every finished game: GET /api/played),
// listed under the new-game form, newest first; a click reopens one on the analysis board, to
// step through it and download its PGN.

import * as api from './api.js';
import { errorText } from './errors.js';
import { pliesCount, t } from './i18n.js';

const $ = (id) => document.getElementById(id);

/** Games shown at first, and added by each "More". */
const PAGE = 20;

export class PastGames {
  constructor(app) {
    this.app = app;
    this.shown = PAGE;
    this.answer = null; // the last GET /api/played
    $('played-more').addEventListener('click', () => {
      this.shown += PAGE;
      this.refresh();
    });
    this.refresh();
  }

  /** Asks the server for the list again (on load, after a game ended, for more). */
  async refresh() {
    try {
      this.answer = await api.played(0, this.shown);
    } catch {
      this.answer = null;
    }
    this.render();
  }

  /** Draws the list (again after a change of language); hidden when the server keeps none. */
  render() {
    const a = this.answer;
    $('played').hidden = !a || !a.kept || !a.games.length;
    if (!a) return;
    const rows = $('played-list').tBodies[0];
    rows.replaceChildren();
    for (const g of a.games) {
      const row = rows.insertRow();
      row.dataset.id = String(g.id);
      row.title = t('played.open');
      row.insertCell().textContent = g.date ?? '';
      row.insertCell().textContent = `${g.red ?? '?'} – ${g.black ?? '?'}`;
      row.insertCell().textContent = g.result ?? '*';
      row.insertCell().textContent = pliesCount(g.plies);
      row.insertCell().textContent = g.time_control ? clock(g.time_control) : '';
      const review = document.createElement('button');
      review.type = 'button';
      review.className = 'review';
      review.textContent = t('review.button');
      review.title = t('review.played');
      review.addEventListener('click', (e) => {
        e.stopPropagation();
        this.app.review.reviewPlayed(g.id);
      });
      row.insertCell().append(review);
      row.addEventListener('click', () => this.open(g.id));
    }
    $('played-more').hidden = a.games.length >= a.total;
  }

  /** Opens a played game on the analysis board, at its start. */
  async open(id) {
    try {
      const g = await api.playedGame(id);
      const tags = [g.date, `${g.red ?? '?'} – ${g.black ?? '?'}`, g.result].filter(Boolean).join(' · ');
      await this.app.analyse.showGame(g.fen, g.moves.map((m) => m.iccs), tags, api.playedGameUrl(id));
      this.app.switchTo('analyse');
    } catch (e) {
      this.app.toast(errorText(e), true);
    }
  }
}

/** A `TimeControl` tag (`600+5`: seconds and increment) as minutes and seconds (`10+5`). */
function clock(tag) {
  const [seconds, increment] = tag.split('+').map(Number);
  return Number.isFinite(seconds) ? `${seconds / 60}+${increment || 0}` : tag;
}
