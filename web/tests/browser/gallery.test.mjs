// Every view of the web app in both languages at both sizes, as a player first sees it with
// something on it: a game under way, the games played with a resigned one, the settings with the
// letter pieces, an analysis with its lines and the explorer, a puzzle, a table's page.
// The pictures go to docs/screenshots/gallery-VIEW-SIZE-LANG.png (docs/web-app.md shows them);
// each view is also checked for what a player on that screen must not meet: a page wider than
// the window, a script error, words of the other language in the tabs, or a tab or a button
// whose words break over two lines.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Session, openPage, shots, DESKTOP, PHONE, clickSquare, tapSquare, newGame, waitMoves, settled } from './harness.mjs';

let session;

before(async () => {
  session = await Session.start('chariot-gallery-', ['serve', '--port', '0', '--games', '{work}/played.sqlite']);
});

after(async () => {
  await session?.close();
});

const SIZES = [['desktop', DESKTOP], ['phone', PHONE]];
const LANGS = [['en', 'en-US'], ['zh', 'zh-CN']];

/** The tabs' words in each language (a check that the page is wholly in the language chosen). */
const TABS = { en: /Play.*Analyse.*Tables.*Puzzles/s, zh: /对弈.*分析.*残局库.*习题/s };

/** Checks what every view must hold, and takes its picture. */
async function picture(page, view, size, lang) {
  await settled(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  const window = await page.evaluate(() => window.innerWidth);
  assert.ok(width <= window, `${view} (${size}, ${lang}): the page is ${width} px wide in a ${window} px window`);
  assert.match(await page.textContent('nav'), TABS[lang], `${view} (${size}, ${lang}): the tabs`);
  // A tab's or a button's words on one line: a tab broken over two lines reads as two tabs, a
  // button's label as two buttons.
  const wrapped = await page.evaluate(() => [...document.querySelectorAll('nav .tab, .subtab, button')]
    .filter((tab) => tab.offsetParent !== null)
    .filter((tab) => {
      const range = document.createRange();
      range.selectNodeContents(tab);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
    })
    .map((tab) => tab.textContent));
  assert.deepEqual(wrapped, [], `${view} (${size}, ${lang}): tabs or buttons broken over two lines`);
  assert.deepEqual(page.errors, [], `${view} (${size}, ${lang}): script errors`);
  await page.screenshot({ path: path.join(shots, `gallery-${view}-${size}-${lang}.png`), fullPage: true });
}

for (const [size, device] of SIZES) {
  for (const [lang, locale] of LANGS) {
    test(`the views at ${size} size in ${lang}`, async () => {
      const page = await openPage(session, locale, '#play', device);
      const touch = size === 'phone';
      const press = (sq) => (touch ? tapSquare(page, sq) : clickSquare(page, sq));

      // Play: a game at level 1, two moves each.
      await newGame(page);
      await press('h2');
      await press('e2');
      await waitMoves(page, 2);
      await press('h0');
      await press('g2');
      await waitMoves(page, 4);
      await picture(page, 'play', size, lang);

      // The games played: this one resigned, first in the list under the new-game form.
      page.once('dialog', (d) => d.accept());
      await (touch ? page.tap('#resign') : page.click('#resign'));
      await page.waitForFunction(() => document.querySelector('#status').classList.contains('over'));
      await page.waitForFunction(() => !document.querySelector('#played').hidden
        && document.querySelectorAll('#played-list tr').length > 0);
      await picture(page, 'played', size, lang);

      // Settings: the letter pieces chosen (for players who cannot read 帥 and 將), sounds, name.
      await page.click('#settings-button');
      await page.selectOption('#pieces', 'letters');
      await page.waitForFunction(() => document.documentElement.dataset.pieces === 'letters');
      await picture(page, 'settings', size, lang);
      await page.selectOption('#pieces', 'characters');
      await page.click('#settings-button');

      // Analyse: the position after the game's moves, with the engine's lines and the explorer.
      await page.goto(`${session.base}#analyse/start/h2e2,h9g7,h0g2`);
      await page.waitForFunction(() => window.chariot.analyse.here);
      await page.selectOption('#multipv', '3');
      await page.selectOption('#seconds', '5');
      await page.click('#analyse');
      await page.waitForFunction(() => document.querySelectorAll('#lines tr').length === 3, null, { timeout: 20000 });
      await page.waitForSelector('#books td.move');
      await page.click('#analyse'); // stop, so the picture holds still
      await picture(page, 'analyse', size, lang);

      // Puzzles: the first puzzle of the list, its task and buttons.
      await page.goto(`${session.base}#puzzles`);
      await page.waitForFunction(() => window.chariot.puzzles?.puzzle && !window.chariot.puzzles.busy);
      await picture(page, 'puzzles', size, lang);

      // Tables: one table's page with its counts and histogram.
      await page.goto(`${session.base}#tables/KRKAABB`);
      await page.waitForSelector('#table-wdl td[data-count="wins"]', { timeout: 20000 });
      await page.waitForSelector('#table-histogram rect.bar');
      await picture(page, 'tables', size, lang);
      await page.context().close();
    });
  }
}
