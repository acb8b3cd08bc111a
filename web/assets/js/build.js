// Building from the browser, under the explorer's games: game files imported into the game
// database (each a job whose progress and report are shown, rejected games listed), and a book
// compiled from the games the current filter selects, downloadable and playable at once.

import * as api from './api.js';
import { errorText, rejectionKind } from './errors.js';
import { current, gamesCount, t } from './i18n.js';

const $ = (id) => document.getElementById(id);

/** Polls a job every `every` ms until it ends, calling `onProgress` meanwhile; its last view. */
async function finished(job, onProgress, every = 250) {
  let view = job;
  while (view.state === 'running') {
    onProgress(view);
    await new Promise((resolve) => setTimeout(resolve, every));
    view = await api.job(job.id);
  }
  return view;
}

export class Builder {
  constructor(explorer) {
    this.explorer = explorer;
    $('upload-files').addEventListener('change', async () => {
      const files = [...$('upload-files').files];
      $('upload-files').value = '';
      await this.importFiles(files);
    });
    $('compile-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.compile();
    });
    $('book-play').addEventListener('click', async () => {
      const app = this.explorer.analyse.app;
      await app.play.loadBooks(this.compiled);
      app.switchTo('play');
    });
  }

  /** Imports the files one after the other, showing each one's progress and report. */
  async importFiles(files) {
    const status = $('upload-status');
    const bar = $('upload-progress');
    const list = $('upload-rejections');
    const rows = list.querySelector('tbody');
    rows.replaceChildren();
    list.hidden = true;
    const lines = [];
    for (const file of files) {
      bar.hidden = false;
      bar.removeAttribute('value');
      status.textContent = [...lines, t('build.sending', { file: file.name })].join('\n');
      let view;
      try {
        const job = await api.importGames(file, file.name);
        view = await finished(job, (v) => {
          status.textContent = [...lines, t('build.reading', { file: file.name, n: v.done.toLocaleString() })].join('\n');
        });
      } catch (e) {
        lines.push(`${file.name}: ${errorText(e)}`);
        continue;
      }
      if (view.state === 'failed') {
        lines.push(`${file.name}: ${current() === 'zh' ? t('job.failed') : view.error}`);
        continue;
      }
      const r = view.result;
      if (r.unreadable || !r.format) {
        lines.push(t('build.unreadable', { file: r.file, why: r.unreadable ?? '?' }));
        continue;
      }
      lines.push(t('build.imported', {
        file: r.file,
        format: r.format,
        encoding: r.encoding ?? '?',
        read: r.read.toLocaleString(),
        imported: r.imported.toLocaleString(),
        duplicates: r.duplicates.toLocaleString(),
        rejected: r.rejected.toLocaleString(),
        total: (r.total_games ?? 0).toLocaleString(),
      }));
      for (const j of r.rejections) {
        const row = rows.insertRow();
        row.insertCell().textContent = r.file;
        row.insertCell().textContent = t('build.rejection', {
          game: j.game ?? '?', line: j.line ?? '?', ply: j.ply ?? '?',
          message: current() === 'zh' ? rejectionKind(j.kind) : j.message,
        });
        row.title = j.message;
        list.hidden = false;
      }
    }
    bar.hidden = true;
    status.textContent = lines.join('\n');
    this.explorer.update();
  }

  /** A name for a book of the current filter: the player and colour, or the event. */
  suggestedName() {
    const f = this.explorer.filters();
    const parts = [f.player, f.color && t(`f.${f.color}`), f.event, f.since, f.until, f.result];
    return parts.filter(Boolean).join(' ').replace(/[^\p{L}\p{N} ._-]/gu, ' ').trim().slice(0, 60);
  }

  /** Compiles a book from the games the filter selects. */
  async compile() {
    const name = $('book-name').value.trim() || this.suggestedName();
    const status = $('compile-status');
    $('compile-done').hidden = true;
    if (!name) {
      status.textContent = t('build.noname');
      return;
    }
    $('book-name').value = name;
    const bar = $('compile-progress');
    bar.hidden = false;
    bar.removeAttribute('value');
    $('compile').disabled = true;
    try {
      const job = await api.compileBook({
        name,
        max_ply: Number($('book-plies').value) || 40,
        ...this.explorer.filters(),
      });
      const view = await finished(job, (v) => {
        status.textContent = t('build.compiling', { name, secs: v.seconds.toFixed(1) });
      });
      if (view.state === 'failed') throw new Error(current() === 'zh' ? t('job.failed') : view.error);
      const r = view.result;
      status.textContent = t('build.compiled', {
        name: r.name,
        games: gamesCount(r.games),
        positions: r.positions.toLocaleString(),
        entries: r.entries.toLocaleString(),
        kb: Math.ceil(r.bytes / 1024).toLocaleString(),
      });
      this.compiled = r.name;
      $('book-download').href = r.url;
      $('book-download').setAttribute('download', `${r.name}.xqb`);
      $('compile-done').hidden = false;
      this.explorer.analyse.app.play.loadBooks();
      this.explorer.update();
    } catch (e) {
      status.textContent = errorText(e);
    } finally {
      bar.hidden = true;
      $('compile').disabled = false;
    }
  }
}
