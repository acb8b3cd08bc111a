// The app: one board shared by the play and analysis views, the language and notation
// switches, messages, and the address: every view and position shown has one (address.js), so
// that Back and Forward move between them, an address typed opens what it names and a reload
// comes back to it.

import * as address from './address.js';
import { Board } from './board.js';
import { Sounds } from './sounds.js';
import { current, setLanguage, t, translatePage } from './i18n.js';
import { Play } from './play.js';
import { Analyse } from './analyse.js';
import { Tables } from './tables.js';
import { PastGames } from './played.js';
import { Engines } from './engines.js';
import { Review } from './review.js';
import { Puzzles } from './puzzles.js';

const $ = (id) => document.getElementById(id);

class App {
  constructor() {
    this.view = null;
    this.routing = false; // an address is being followed: the history is not added to
    this.routed = null; // the address followed or written last
    this.notation = localStorage.getItem('chariot.notation') || 'chinese';
    this.board = new Board($('board'), (iccs) => this.onMove(iccs), {
      top: $('coords-top'), bottom: $('coords-bottom'), left: $('coords-left'), right: $('coords-right'),
    });
    this.board.setNotation(this.notation);
    this.sounds = new Sounds();
    this.engines = new Engines(this);
    this.play = new Play(this);
    this.analyse = new Analyse(this);
    this.tables = new Tables(this);
    this.past = new PastGames(this);
    this.review = new Review(this);
    this.puzzles = new Puzzles(this);
    $('notation').value = this.notation;
    $('notation').addEventListener('change', () => {
      this.notation = $('notation').value;
      localStorage.setItem('chariot.notation', this.notation);
      this.board.setNotation(this.notation);
      this.redraw();
    });
    $('language').addEventListener('click', () => {
      setLanguage(current() === 'zh' ? 'en' : 'zh');
      this.translate();
    });
    $('flip').addEventListener('click', () => {
      this.board.flip();
      this.redraw();
    });
    $('share').addEventListener('click', () => this.share());
    for (const tab of document.querySelectorAll('.tab')) {
      tab.addEventListener('click', () => this.switchTo(tab.dataset.view));
    }
    // Back, Forward, and an address edited by hand (Chrome tells of the last with both events).
    window.addEventListener('popstate', () => this.route());
    window.addEventListener('hashchange', () => this.route());
    // `#analyse` is also the id of the Analyse button, and a browser scrolls an address's
    // fragment into view when the page loads (and keeps it there while the page fills in): on a
    // phone the board then moved under the player's finger. The views' addresses are not anchors.
    if (document.getElementById(window.location.hash.slice(1))) {
      window.addEventListener('load', () => window.scrollTo(0, 0), { once: true });
    }
    this.settings();
    this.translate();
    this.route();
  }

  /**
   * Shows what the address names: on the first load, after Back or Forward, and when the
   * address is edited. The history is not added to meanwhile; an address that named something
   * that is not there (a game the server closed, a FEN with a mistake) is replaced by what is
   * shown instead.
   */
  async route() {
    const hash = window.location.hash;
    if (hash === this.routed) return;
    this.routed = hash;
    const wanted = address.parse(hash);
    this.routing = true;
    try {
      if (wanted.view === 'tables') {
        this.tables.current = wanted.material;
        this.switchTo('tables');
      } else if (wanted.view === 'puzzles') {
        this.switchTo('puzzles');
        await this.puzzles.open(wanted.id);
      } else if (wanted.view === 'analyse' || wanted.view === 'review') {
        this.analyse.goToAddress(wanted);
        if (wanted.view === 'review') this.review.open(wanted);
        this.switchTo('analyse');
      } else {
        this.switchTo('play');
        await this.play.open(wanted.game);
      }
    } finally {
      this.routing = false;
    }
    this.remember();
  }

  /**
   * The settings under ⚙: the piece set (the characters, or WXF's letters for those who do not
   * read them), the sounds and the player's name (in the games' PGN), each remembered by the
   * browser.
   */
  settings() {
    const panel = $('settings-panel');
    $('settings-button').addEventListener('click', (e) => {
      e.stopPropagation();
      panel.hidden = !panel.hidden;
    });
    // A click elsewhere closes it.
    document.addEventListener('click', (e) => {
      if (!panel.hidden && !panel.contains(e.target)) panel.hidden = true;
    });
    const pieces = localStorage.getItem('chariot.pieces') === 'letters' ? 'letters' : 'characters';
    $('pieces').value = pieces;
    this.setPieces(pieces);
    $('pieces').addEventListener('change', () => {
      localStorage.setItem('chariot.pieces', $('pieces').value);
      this.setPieces($('pieces').value);
    });
    $('sounds').checked = this.sounds.on;
    $('sounds').addEventListener('change', () => this.sounds.setOn($('sounds').checked));
    $('player-name').value = localStorage.getItem('chariot.name') || '';
    $('player-name').addEventListener('change', () => {
      localStorage.setItem('chariot.name', $('player-name').value.trim());
    });
  }

  /** Shows the pieces of a set (`characters`, `letters`), on the board and in the palette. */
  setPieces(set) {
    document.documentElement.dataset.pieces = set;
    for (const img of document.querySelectorAll('#setup-palette img')) img.src = this.pieceImage(img.alt);
  }

  /** The picture of a piece (`rk`, `bp`) in the piece set shown. */
  pieceImage(name) {
    const letters = document.documentElement.dataset.pieces === 'letters';
    return `/assets/pieces/${letters ? 'letters/' : ''}${name}.svg`;
  }

  /** The address of what is shown now. */
  address() {
    if (this.view === 'tables') return address.tables(this.tables.current);
    if (this.view === 'puzzles') return this.puzzles.address();
    if (this.view === 'analyse') return this.review.address() ?? this.analyse.address();
    return address.play(this.play.game?.id);
  }

  /**
   * Writes the address of what is shown: a new entry in the history when `push` (another view,
   * another position loaded, another table), else in place of the current one (a move played, a
   * step through a line, a game started), so that Back goes to the last place, not the last move.
   */
  remember(push = false) {
    const hash = this.address();
    this.routed = hash;
    if (hash === window.location.hash) return;
    if (push && !this.routing) history.pushState(null, '', hash);
    else history.replaceState(null, '', hash);
  }

  /**
   * Copies a link to what the board shows: the analysis board's position with its line, or the
   * game's position with its moves (the whole game once it is over), opened by anyone on this
   * server in the analysis board. The link is shown too, for a browser that refuses the
   * clipboard (a page not on localhost or https).
   */
  async share() {
    const hash = this.view === 'play' ? this.play.shareAddress()
      : this.view === 'puzzles' ? this.puzzles.address() : this.analyse.address();
    if (!hash) return;
    const link = address.link(hash);
    const box = $('share-link');
    box.value = link;
    box.hidden = false;
    box.select();
    try {
      await navigator.clipboard.writeText(link);
      this.toast(t('share.copied'));
    } catch {
      this.toast(t('share.shown'));
    }
  }

  translate() {
    translatePage();
    $('language').textContent = current() === 'zh' ? 'English' : '中文';
    this.play.translate();
    this.puzzles.translate();
    this.past.render();
    this.redraw();
  }

  redraw() {
    if (this.view === 'play') this.play.render();
    else if (this.view === 'tables') this.tables.render();
    else if (this.view === 'puzzles') this.puzzles.render();
    else this.analyse.render();
  }

  /** A move made on the board. */
  onMove(iccs) {
    if (this.view === 'play') this.play.move(iccs, true);
    else if (this.view === 'puzzles') this.puzzles.move(iccs);
    else this.analyse.play(iccs);
  }

  /** Shows a view; a new entry in the history unless an address is being followed. */
  switchTo(view) {
    if (this.view === 'analyse' && view !== 'analyse') this.analyse.deactivate();
    $('share-link').hidden = true;
    this.view = view;
    for (const tab of document.querySelectorAll('.tab')) {
      tab.classList.toggle('active', tab.dataset.view === view);
    }
    $('view-play').hidden = view !== 'play';
    $('view-analyse').hidden = view !== 'analyse';
    $('view-tables').hidden = view !== 'tables';
    $('view-puzzles').hidden = view !== 'puzzles';
    // The tablebase pages have no board.
    for (const part of document.querySelectorAll('main > .board-area, main > .side')) part.hidden = view === 'tables';
    this.remember(true);
    this.review.render();
    if (view === 'play') this.play.render();
    else if (view === 'tables') this.tables.activate();
    else if (view === 'puzzles') this.puzzles.open();
    else {
      $('clock-top').hidden = $('clock-bottom').hidden = true;
      this.analyse.activate();
    }
  }

  /** Shows a message for a few seconds; `error` colours it. */
  toast(message, error = false) {
    const el = $('toast');
    el.textContent = message;
    el.classList.toggle('error', error);
    el.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      el.hidden = true;
    }, error ? 6000 : 3500);
  }
}

window.chariot = new App();
