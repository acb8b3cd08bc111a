// The app: one board shared by the play and analysis views, the language and notation
// switches, and messages.

import { Board } from './board.js';
import { current, setLanguage, translatePage } from './i18n.js';
import { Play } from './play.js';
import { Analyse } from './analyse.js';
import { Tables } from './tables.js';
import { Engines } from './engines.js';

const $ = (id) => document.getElementById(id);

class App {
  constructor() {
    this.view = 'play';
    this.notation = localStorage.getItem('chariot.notation') || 'chinese';
    this.board = new Board($('board'), (iccs) => this.onMove(iccs));
    this.engines = new Engines(this);
    this.play = new Play(this);
    this.analyse = new Analyse(this);
    this.tables = new Tables(this);
    $('notation').value = this.notation;
    $('notation').addEventListener('change', () => {
      this.notation = $('notation').value;
      localStorage.setItem('chariot.notation', this.notation);
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
    for (const tab of document.querySelectorAll('.tab')) {
      tab.addEventListener('click', () => this.switchTo(tab.dataset.view));
    }
    this.translate();
    const hash = window.location.hash;
    const wanted = hash.startsWith('#tables') ? 'tables' : hash === '#analyse' ? 'analyse' : 'play';
    this.switchTo(wanted);
  }

  translate() {
    translatePage();
    $('language').textContent = current() === 'zh' ? 'English' : '中文';
    this.play.translate();
    this.redraw();
  }

  redraw() {
    if (this.view === 'play') this.play.render();
    else if (this.view === 'tables') this.tables.render();
    else this.analyse.render();
  }

  onMove(iccs) {
    if (this.view === 'play') this.play.move(iccs);
    else this.analyse.play(iccs);
  }

  switchTo(view) {
    if (this.view === 'analyse' && view !== 'analyse') this.analyse.deactivate();
    this.view = view;
    for (const tab of document.querySelectorAll('.tab')) {
      tab.classList.toggle('active', tab.dataset.view === view);
    }
    $('view-play').hidden = view !== 'play';
    $('view-analyse').hidden = view !== 'analyse';
    $('view-tables').hidden = view !== 'tables';
    // The tablebase pages have no board.
    for (const part of document.querySelectorAll('main > .board-area, main > .side')) part.hidden = view === 'tables';
    history.replaceState(null, '', `#${view}`);
    if (view === 'play') this.play.render();
    else if (view === 'tables') this.tables.activate();
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
