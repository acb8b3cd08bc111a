// External engines in the browser (`chariot serve --engine`, docs/web-app.md): a game against
// Debian's Fairy-Stockfish over UCI, its analysis beside Chariot's, its options panel, and the
// same on a phone. Its own server, with the engine, beside app.test.mjs's.
//
// Environment: CHARIOT_BIN (default target/debug/chariot), FAIRY_STOCKFISH (default
// /usr/games/fairy-stockfish), CHROMIUM, SCREENSHOTS, as app.test.mjs.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Session, openPage, shots, DESKTOP, PHONE, clickSquare, tapSquare, settled } from './harness.mjs';

const fsf = process.env.FAIRY_STOCKFISH || '/usr/games/fairy-stockfish';

let session;

before(async () => {
  session = await Session.start('chariot-engines-',
    ['serve', '--port', '0', '--games', '{work}/games.sqlite', '--engine', `fsf=${fsf} proto=uci`]);
});

after(async () => {
  await session?.close();
});

/** A fresh page once the engine chooser is there. */
async function open(hash = '', device = DESKTOP) {
  const page = await openPage(session, 'en-US', hash, device);
  await page.waitForSelector('#new-opponent option[value="fsf"]', { state: 'attached' });
  return page;
}

/** Moves a piece by two clicks (or taps). */
async function move(page, from, to, tap = false) {
  for (const sq of [from, to]) {
    if (tap) await tapSquare(page, sq);
    else await clickSquare(page, sq);
  }
}

const waitMoves = (page, n) =>
  page.waitForFunction((k) => window.chariot.play.game?.moves.length === k && !window.chariot.play.busy, n, { timeout: 20000 });

/** Starts a game against Fairy-Stockfish at 0.2 s a move. */
async function newGame(page) {
  await page.selectOption('#new-opponent', 'fsf');
  assert.ok(await page.isHidden('#new-level'), 'no level for an external engine');
  await page.selectOption('#new-limit-kind', 'movetime');
  await page.fill('#new-limit-value', '0.2');
  await page.click('#start');
  await page.waitForFunction(() => window.chariot.play.game?.opponent?.engine === 'fsf');
}

test('a game against Fairy-Stockfish over UCI: its replies judged legal and described', async () => {
  const page = await open();
  const engines = await page.evaluate(async () => (await fetch('/api/engines')).json());
  assert.equal(engines.engines[0].dialect, 'uci-xiangqi');
  await newGame(page);
  await move(page, 'h2', 'e2');
  await waitMoves(page, 2);
  await move(page, 'b0', 'c2');
  await waitMoves(page, 4);
  const game = await page.evaluate(() => window.chariot.play.game);
  const reply = game.moves[3].iccs;
  const before = await page.evaluate(async ({ fen, line }) =>
    (await fetch(`/api/position?fen=${encodeURIComponent(fen)}&moves=${line}`)).json(),
  { fen: game.start_fen, line: game.moves.slice(0, 3).map((m) => m.iccs).join(' ') });
  assert.ok(before.legal.includes(reply), `the engine's reply ${reply}`);
  assert.match(await page.textContent('#engine-info'), /^Fairy-Stockfish .* played .*: depth \d+/);
  assert.match(await page.textContent('#status'), /Your move/);
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'engine-play.png') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('analysis: Fairy-Stockfish\'s lines beside Chariot\'s; its options set in the panel', async () => {
  const page = await open('#analyse');
  await page.check('#analysis-engines input[value="fsf"]');
  await page.selectOption('#multipv', '2');
  await page.selectOption('#seconds', '5');
  await page.click('#analyse');
  await page.waitForFunction(() => document.querySelectorAll('#lines tr').length === 2, null, { timeout: 20000 });
  await page.waitForFunction(() =>
    document.querySelectorAll('.engine-column[data-engine="fsf"] table.lines tr').length === 2, null, { timeout: 20000 });
  const chariotBox = await page.locator('#column-chariot').boundingBox();
  const fsfBox = await page.locator('.engine-column[data-engine="fsf"]').boundingBox();
  assert.ok(fsfBox.x > chariotBox.x && Math.abs(fsfBox.y - chariotBox.y) < 2, 'the columns side by side');
  assert.match(await page.textContent('.engine-column[data-engine="fsf"] h4'), /Fairy-Stockfish/);
  await page.waitForSelector('#books td.move');
  await page.screenshot({ path: path.join(shots, 'engine-analyse.png') });
  await page.click('#analyse'); // stop
  // The options panel: Skill Level, checked by the server.
  await page.click('#analysis-engines .gear');
  await page.waitForSelector('#engine-options[open] input#opt-Skill\\ Level');
  await page.fill('#engine-options input#opt-Skill\\ Level', '5');
  await page.screenshot({ path: path.join(shots, 'engine-options.png') });
  await page.click('#engine-options button.primary');
  await page.waitForSelector('#engine-options:not([open])', { state: 'attached' });
  const e = await page.evaluate(async () => (await fetch('/api/engines/fsf')).json());
  assert.equal(e.options.find((o) => o.name === 'Skill Level').value, 5);
  // The chooser's words follow the language switch.
  await page.click('#language');
  assert.equal(await page.textContent('#analysis-engines .w-engines'), '引擎');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the phone: a move against Fairy-Stockfish by taps, its lines under Chariot\'s', async () => {
  const page = await open('', PHONE);
  await newGame(page);
  await move(page, 'h2', 'e2', true);
  await waitMoves(page, 2);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page is ${width} px wide`);
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'engine-play-phone.png') });
  await page.tap('#tab-analyse');
  await page.waitForFunction(() => window.chariot.analyse.here);
  await page.check('#analysis-engines input[value="fsf"]');
  await page.selectOption('#seconds', '5');
  await page.tap('#analyse');
  await page.waitForFunction(() =>
    document.querySelectorAll('.engine-column[data-engine="fsf"] table.lines tr').length >= 1 &&
    document.querySelectorAll('#lines tr').length >= 1, null, { timeout: 20000 });
  const chariotBox = await page.locator('#column-chariot').boundingBox();
  const fsfBox = await page.locator('.engine-column[data-engine="fsf"]').boundingBox();
  assert.ok(fsfBox.y > chariotBox.y, 'the columns one under the other');
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `the analysis is ${wide} px wide`);
  await page.locator('.engine-column[data-engine="fsf"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'engine-analyse-phone.png') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Fairy-Stockfish\'s lines read from Red\'s side, and a move of its line steps into it on the board', async () => {
  // Black to move with a chariot against a lone general: Black mates in 3 plies.
  const fen = '3k5/9/9/9/9/9/r8/9/9/4K4 b - - 0 1';
  const page = await open(`#analyse/${fen.replace(/ /g, '_')}`);
  await page.waitForFunction((f) => window.chariot.analyse.here?.fen === f, fen);
  await page.check('#analysis-engines input[value="fsf"]');
  await page.selectOption('#multipv', '1');
  await page.selectOption('#seconds', '5');
  await page.click('#analyse');
  const column = '.engine-column[data-engine="fsf"] table.lines';
  await page.waitForFunction((c) => document.querySelectorAll(`${c} .pv-move`).length >= 2, column, { timeout: 20000 });
  await page.click('#analyse'); // stop: the lines stay
  const score = await page.textContent(`${column} td.score`);
  assert.match(score, /^(-\d+\.\d\d|#-\d+)$/, `Black's win from Red's side: ${score}`);
  const pv = await page.evaluate(() => window.chariot.engines.streams.get('fsf').lines.get(1).pv);
  await page.click(`${column} .pv-move[data-ply="1"]`);
  await page.waitForSelector('#peek:not([hidden])');
  assert.equal(await page.textContent('#peek-title'), `Line 1 of fsf: move 2 of ${pv.length}`);
  const after = await page.evaluate(async ([f, m]) =>
    (await (await fetch(`/api/position?fen=${encodeURIComponent(f)}&moves=${m.join('%20')}`)).json()).fen, [fen, pv.slice(0, 2)]);
  await page.waitForFunction((b) => window.chariot.board.boardFen() === b, after.split(' ')[0]);
  await page.keyboard.press('Escape');
  await page.waitForFunction((b) => window.chariot.board.boardFen() === b, fen.split(' ')[0]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
