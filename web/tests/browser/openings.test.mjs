// Opening names in the browser (docs/web-app.md, "Opening names"): the ECCO code and name of
// the line played, above the move lists of Analyse and Play and at the head of the explorer,
// updated move by move, in Chinese and English, on a desktop and a phone; the ECCO column of
// the explorer's games; the saved PGN's `ECCO` and `Opening` tags. Its own server, over a game
// database of the 110 sample master games.
//
// Environment: CHARIOT_BIN, BOOK_BUILDER_BIN, CHROMIUM, SCREENSHOTS, as app.test.mjs.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  Session, openPage, shots, root, bookBuilder, DESKTOP, PHONE, clickSquare, tapSquare, settled, waitMoves,
} from './harness.mjs';

/** The masters' most played line of C45, 五九炮过河车对屏风马平炮兑车: fifteen plies. */
const C45 = ['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0', 'b9c7', 'c3c4', 'g6g5', 'h0h6', 'h7i7', 'h6g6',
  'i7i8', 'b0c2', 'd9e8', 'b2a2'];

let session;

before(async () => {
  const games = path.join(mkdtempSync(path.join(tmpdir(), 'chariot-openings-db-')), 'games.sqlite');
  execFileSync(bookBuilder, ['import', path.join(root, 'data/games/samples/ccpd-masters-sample.pgn'), '--db', games]);
  session = await Session.start('chariot-openings-', ['serve', '--port', '0', '--games', games]);
});

after(async () => {
  await session?.close();
});

/** Plays `moves` (ICCS) on the board by clicks, or taps on a phone, waiting for each. */
async function playOn(page, moves, { tap = false, list = '#moves-analyse' } = {}) {
  for (const m of moves) {
    const before = await page.locator(`${list} .mv[data-index]`).count();
    for (const sq of [m.slice(0, 2), m.slice(2)]) {
      if (tap) await tapSquare(page, sq);
      else await clickSquare(page, sq);
    }
    await waitMoves(page, before + 1, list);
  }
}

/** The text of an opening's element once it reads `pattern`. */
async function shows(page, selector, pattern) {
  await page.waitForFunction(
    ([sel, source]) => {
      const el = document.querySelector(sel);
      return el && !el.hidden && new RegExp(source).test(el.textContent);
    },
    [selector, pattern.source],
    { timeout: 15000 },
  ).catch(async () => {
    assert.match(await page.locator(selector).textContent(), pattern, selector);
  });
  return page.locator(selector).textContent();
}

for (const { locale, device, tap, suffix } of [
  { locale: 'en-US', device: DESKTOP, tap: false, suffix: '' },
  { locale: 'zh-CN', device: DESKTOP, tap: false, suffix: '-zh' },
  { locale: 'en-US', device: PHONE, tap: true, suffix: '-phone' },
  { locale: 'zh-CN', device: PHONE, tap: true, suffix: '-phone-zh' },
]) {
  const zh = locale === 'zh-CN';
  test(`analysis (${locale}, ${tap ? 'phone' : 'desktop'}): the name follows the moves played, the code comes with the masters' line`, async () => {
    const page = await openPage(session, locale, '#analyse', device);
    // No move, no opening.
    assert.ok(await page.isHidden('#opening-analyse'));
    assert.ok(await page.isHidden('#explorer-opening'));
    await playOn(page, ['h2e2'], { tap });
    await shows(page, '#opening-analyse', zh ? /^开局中炮$/ : /^OpeningCentral Cannon$/);
    await playOn(page, ['h9g7', 'h0g2', 'b9c7'], { tap });
    await shows(page, '#opening-analyse', zh ? /中炮对屏风马$/ : /Central Cannon vs Screen Horses$/);
    await shows(page, '#explorer-opening', zh ? /中炮对屏风马$/ : /Central Cannon vs Screen Horses$/);
    // The other language's name is the tooltip.
    assert.equal(await page.getAttribute('#opening-analyse', 'title'),
      zh ? 'Central Cannon vs Screen Horses' : '中炮对屏风马');
    // The masters' line of C45, from an address: the code and the whole name.
    await page.evaluate((moves) => { window.location.hash = `#analyse/start/${moves}`; }, C45.join(','));
    const name = zh ? '五九炮过河车对屏风马平炮兑车'
      : 'Five-Nine Cannons, River-Crossing Chariot vs Screen Horses, Cannon Shift for Chariot Exchange';
    await shows(page, '#opening-analyse', new RegExp(`C45${name}$`));
    assert.equal(await page.textContent('#opening-analyse .eco'), 'C45');
    await shows(page, '#explorer-opening', new RegExp(`C45${name}$`));
    // Stepping back: the move list keeps the line's opening, the explorer names the position shown.
    await page.click('#moves-analyse .mv[data-index="1"]');
    await shows(page, '#explorer-opening', zh ? /^开局中炮$/ : /^OpeningCentral Cannon$/);
    assert.match(await page.textContent('#opening-analyse'), /C45/);
    // The explorer's games have their codes.
    await page.click('#moves-analyse .mv[data-index="14"]');
    await page.click('.subtab[data-pane="games"]');
    await page.click('#moves-analyse .mv[data-index="0"]');
    await page.waitForFunction(() => [...document.querySelectorAll('#games-list td.eco')]
      .some((td) => /^[A-E]\d\d$/.test(td.textContent)), null, { timeout: 15000 });
    await page.click('.subtab[data-pane="book"]');
    await page.click('#moves-analyse .mv[data-index="14"]');
    await shows(page, '#explorer-opening', /C45/);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= (tap ? 390 : 1280), `no sideways scroll: ${width}`);
    await settled(page);
    await page.screenshot({ path: path.join(shots, `openings${suffix}.png`), fullPage: tap });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test('a game: its opening over the move list as it is played, and in the saved PGN (zh and en)', async () => {
  for (const locale of ['zh-CN', 'en-US']) {
    const zh = locale === 'zh-CN';
    const page = await openPage(session, locale, `#analyse/start/${C45.join(',')}`, DESKTOP);
    await shows(page, '#opening-analyse', /C45/);
    // Black plays on from the masters' line against Chariot.
    await page.click('#play-from-here');
    await page.waitForSelector('#game:not([hidden])');
    await page.waitForFunction(() => window.chariot.play.game?.moves.length === 15 && !window.chariot.play.busy);
    const name = zh ? '五九炮过河车对屏风马平炮兑车'
      : 'Five-Nine Cannons, River-Crossing Chariot vs Screen Horses, Cannon Shift for Chariot Exchange';
    await shows(page, '#opening-play', new RegExp(`C45${name}$`));
    const pgn = await page.evaluate(async () => (await fetch(document.querySelector('#save-pgn').href)).text());
    assert.match(pgn, /\[ECCO "C45"\]/);
    assert.ok(pgn.includes(`[Opening "${name}"]`), pgn);
    await page.context().close();
  }
  // From the start, the name appears with Red's first move and follows the game.
  const page = await openPage(session, 'zh-CN', '#play', PHONE);
  await page.selectOption('#new-level', '1');
  await page.click('#start');
  await page.waitForSelector('#game:not([hidden])');
  assert.ok(await page.isHidden('#opening-play'));
  await tapSquare(page, 'h2');
  await tapSquare(page, 'e2');
  await waitMoves(page, 2);
  await page.waitForFunction(() => !window.chariot.play.busy);
  const text = await shows(page, '#opening-play', /^开局(中炮|顺炮|列炮)/);
  const game = await page.evaluate(() => window.chariot.play.game);
  assert.equal(text, `开局${game.opening.eco ?? ''}${game.opening.name_zh}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
