// What the browser tests share: `chariot serve` started on a free loopback port with data
// directories of its own, Debian's Chromium driven by playwright-core, the two viewports, and
// the gestures and waits of a person at the board (clicks and taps on a point, drags, waiting
// for moves and animations). Each test file starts its own session:
//
//     const session = await Session.start('chariot-browser-', ['serve', '--port', '0']);
//     const page = await openPage(session, 'zh-CN', '#play', PHONE);
//
// Environment: CHARIOT_BIN and BOOK_BUILDER_BIN (the binaries; default target/debug),
// CHROMIUM (default /usr/bin/chromium), SCREENSHOTS (where the pictures go; default
// docs/screenshots).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository's root. */
export const root = path.resolve(here, '../../..');
/** The `chariot` binary. */
export const chariot = process.env.CHARIOT_BIN || path.join(root, 'target/debug/chariot');
/** The `book-builder` binary. */
export const bookBuilder = process.env.BOOK_BUILDER_BIN || path.join(root, 'target/debug/book-builder');
/** Where screenshots go. */
export const shots = process.env.SCREENSHOTS || path.join(root, 'docs/screenshots');

/** A running server and browser: `base` is the server's address, `work` its own directory. */
export class Session {
  /**
   * Starts `chariot ARGS` (a `serve` command line) with its own data and cache directories under
   * a new temporary directory named from `prefix`, waits for the address it prints, and
   * launches Chromium. `env` adds to the environment.
   */
  static async start(prefix, args, env = {}) {
    const s = new Session();
    s.work = mkdtempSync(path.join(tmpdir(), prefix));
    s.server = spawn(chariot, args.map((a) => a.replaceAll('{work}', s.work)), {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, XDG_CACHE_HOME: path.join(s.work, 'cache'), XDG_DATA_HOME: path.join(s.work, 'data'), ...env },
    });
    s.base = await new Promise((resolve, reject) => {
      let out = '';
      // Cleared once the address is printed, so that it does not hold the run open at its end.
      const late = setTimeout(() => reject(new Error(`chariot serve printed no address: ${out}`)), 30000);
      s.server.stdout.on('data', (d) => {
        out += d;
        const m = out.match(/http:\/\/[\d.]+:\d+\//);
        if (m) {
          clearTimeout(late);
          resolve(m[0]);
        }
      });
      s.server.on('exit', (code) => {
        clearTimeout(late);
        reject(new Error(`chariot serve exited (${code}): ${out}`));
      });
    });
    s.browser = await chromium.launch({
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      headless: true,
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
      ],
    });
    mkdirSync(shots, { recursive: true });
    return s;
  }

  /** Closes the browser and stops the server. */
  async close() {
    await this.browser?.close();
    this.server?.kill();
  }
}

/** The viewports of the tests: a desktop window, and a phone held upright (touch). */
export const DESKTOP = { viewport: { width: 1280, height: 800 } };
export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

/**
 * A fresh page (its own profile: no saved language or level) in `locale`; `device` is one of
 * the viewports above (by default the window the first tests were written for).
 */
export async function openPage(session, locale = 'en-US', hash = '', device = { viewport: { width: 1200, height: 820 } }) {
  const context = await session.browser.newContext({ locale, acceptDownloads: true, ...device });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  await page.goto(session.base + hash);
  await page.waitForSelector('#board cg-board piece');
  await page.waitForSelector('#new-level option', { state: 'attached' });
  page.errors = errors;
  return page;
}

/**
 * Clicks an ICCS square (`h2`) where a player would: by default its centre; `at` is another
 * point of the square, as fractions of its width and height from its top left corner.
 */
export async function clickSquare(page, sq, at) {
  const { x, y } = await squarePoint(page, sq, at);
  await page.mouse.click(x, y);
}

/** Taps an ICCS square with a finger (a touch screen), as `clickSquare` clicks it. */
export async function tapSquare(page, sq, at) {
  const { x, y } = await squarePoint(page, sq, at);
  await page.touchscreen.tap(x, y);
}

/** Where a point of an ICCS square is on the screen now (`at` as for `clickSquare`). */
export async function squarePoint(page, sq, at = { x: 0.5, y: 0.5 }) {
  const box = await page.locator('#board cg-board').boundingBox();
  const file = sq.charCodeAt(0) - 97;
  const rank = Number(sq[1]);
  const red = await page.evaluate(() => window.chariot.board.orientation === 'white');
  const col = red ? file : 8 - file;
  const row = red ? 9 - rank : rank;
  return { x: box.x + ((col + at.x) * box.width) / 9, y: box.y + ((row + at.y) * box.height) / 10 };
}

/** The square (ICCS) chessground has selected, or null. */
export const selected = (page) => page.evaluate(() => {
  const k = window.chariot.board.cg.state.selectable.selected;
  return k ? k[0] + String('123456789:'.indexOf(k[1])) : null;
});

/**
 * How many pixels of square `sq` its mark `klass` (a class chessground gives the square:
 * `last-move`, `check`) changes on the screen: the square as shown against the same square
 * with that class taken off (chessground puts it back on its next redraw).
 */
export async function markPixels(page, sq, klass) {
  const a = await squarePoint(page, sq, { x: 0, y: 0 });
  const b = await squarePoint(page, sq, { x: 1, y: 1 });
  const clip = { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(b.x - a.x), height: Math.abs(b.y - a.y) };
  await settled(page);
  const marked = await page.screenshot({ clip });
  await page.evaluate((k) => {
    for (const el of document.querySelectorAll(`cg-board square.${k}`)) el.classList.remove(k);
  }, klass);
  const bare = await page.screenshot({ clip });
  return page.evaluate(async (pngs) => {
    const pixels = await Promise.all(pngs.map(async (b64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d');
      context.drawImage(bitmap, 0, 0);
      return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
    }));
    let changed = 0;
    for (let i = 0; i < pixels[0].length; i += 4) {
      const d = Math.max(...[0, 1, 2].map((c) => Math.abs(pixels[0][i + c] - pixels[1][i + c])));
      if (d > 24) changed += 1;
    }
    return { changed, total: pixels[0].length / 4 };
  }, [marked.toString('base64'), bare.toString('base64')]);
}

/** Drags the piece on `from` to `to`. */
export async function drag(page, from, to) {
  const a = await squarePoint(page, from);
  const b = await squarePoint(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

export const moveCount = (page, list = '#moves-play') =>
  page.locator(`${list} .mv[data-index]`).count();

export async function waitMoves(page, n, list = '#moves-play') {
  await page.waitForFunction(
    ([sel, k]) => document.querySelectorAll(`${sel} .mv[data-index]`).length === k,
    [list, n],
    { timeout: 30000 },
  );
}

export async function newGame(page, { side = 'red', level = '1', start = 'initial', fen = '', clock = '' } = {}) {
  await page.selectOption('#new-side', side);
  await page.selectOption('#new-level', level);
  await page.selectOption('#new-start', start);
  if (fen) await page.fill('#new-fen', fen);
  await page.selectOption('#new-clock', clock);
  await page.click('#start');
  await page.waitForSelector('#game:not([hidden])');
  await page.waitForFunction(() => !window.chariot.play.busy);
}

/** Waits until `selector` matches `n` elements (chessground draws on the next animation frame). */
export async function waitCount(page, selector, n) {
  await page.waitForFunction(
    ([sel, k]) => document.querySelectorAll(sel).length === k,
    [selector, n],
    { timeout: 10000 },
  ).catch(async () => {
    assert.equal(await page.locator(selector).count(), n, selector);
  });
}

/** Waits for the board's animation to end (before a screenshot). */
export async function settled(page) {
  await page.waitForFunction(() => !window.chariot.board.cg.state.animation.current);
}

export const api = async (page, url) => page.evaluate(async (u) => (await fetch(u)).json(), url);

/** Holds back the page's requests whose URL `matches` until the function returned is called. */
export async function holdBack(page, matches) {
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(matches, async (route) => { await held; await route.continue(); });
  return release;
}
