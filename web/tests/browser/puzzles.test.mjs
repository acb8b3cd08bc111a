// Puzzles in the browser (docs/web-app.md, "Puzzles"): a mate in 2 solved by clicks at the
// desktop and by taps on a phone, a wrong move refused and taken back, a hint marking the piece
// to move, the solution played out, the filters, and the progress kept over a reload, in English
// and Chinese. Its own server, beside app.test.mjs's.
//
// Environment: CHARIOT_BIN, CHROMIUM, SCREENSHOTS, as app.test.mjs.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Session, openPage, shots, DESKTOP, PHONE, clickSquare, tapSquare, squarePoint, settled } from './harness.mjs';

let session;

before(async () => {
  session = await Session.start('chariot-puzzles-', ['serve', '--port', '0', '--games', '{work}/games.sqlite']);
});

after(async () => {
  await session?.close();
});

/** The puzzles view at `hash` once a puzzle is shown. */
async function open(locale, hash, device) {
  const page = await openPage(session, locale, hash, device);
  await page.waitForFunction(() => window.chariot.puzzles?.puzzle && !window.chariot.puzzles.busy);
  return page;
}

/** A page's `fetch` of the API, as JSON (`body` makes it a POST). */
const call = (page, url, body) => page.evaluate(async ([u, b]) => {
  const init = b === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) };
  return (await fetch(u, init)).json();
}, [url, body]);

/** The mate-in-2 puzzles, easiest first. */
const mates2 = (page) => call(page, '/api/puzzles?mate_in=2&limit=50').then((a) => a.puzzles);

/** A move by two clicks (or taps). */
async function move(page, iccs, tap = false) {
  for (const sq of [iccs.slice(0, 2), iccs.slice(2, 4)]) {
    if (tap) await tapSquare(page, sq);
    else await clickSquare(page, sq);
  }
}

/** Waits until the puzzle has `n` moves played and nothing is under way. */
const waitPlayed = (page, n) => page.waitForFunction(
  (k) => window.chariot.puzzles.played.length === k && !window.chariot.puzzles.busy, n, { timeout: 30000 });

const feedback = (page) => page.textContent('#puzzle-feedback');

/** The pieces on the board now (chessground's own map, as chessground keys). */
const boardFen = (page) => page.evaluate(() => window.chariot.board.boardFen());

/** Solves the shown puzzle by playing its stored solution's moves on the board. */
async function solve(page, tap = false) {
  const solution = await page.evaluate(() => window.chariot.puzzles.puzzle.solution.map((m) => m.iccs));
  for (let i = 0; i < solution.length; i += 2) {
    await move(page, solution[i], tap);
    await waitPlayed(page, Math.min(i + 2, solution.length));
  }
}

/** A legal first move of a puzzle that the judge calls wrong (a general's or an advisor's first). */
async function wrongMove(page, id) {
  const p = await call(page, `/api/puzzles/${id}`);
  const board = p.fen.split(' ')[0].split('/').map((rank) => rank.replace(/\d/g, (d) => '.'.repeat(Number(d))));
  const letter = (sq) => board[9 - Number(sq[1])][sq.charCodeAt(0) - 97].toLowerCase();
  const moves = p.legal.filter((m) => m !== p.solution[0].iccs)
    .sort((a, b) => 'kab'.includes(letter(b)) - 'kab'.includes(letter(a)));
  for (const m of moves) {
    const answer = await call(page, `/api/puzzles/${id}/move`, { moves: [], move: m });
    if (answer.verdict === 'wrong') return m;
  }
  throw new Error(`no wrong move in ${id}`);
}

test('a mate in 2 solved by clicks; the progress kept over a reload', async () => {
  const probe = await openPage(session, 'en-US', '#puzzles', DESKTOP);
  const [first] = await mates2(probe);
  await probe.context().close();
  const page = await open('en-US', `#puzzles/${first.id}`, DESKTOP);
  assert.equal(await page.evaluate(() => window.location.hash), `#puzzles/${first.id}`);
  const side = first.side === 'red' ? 'Red' : 'Black';
  assert.equal(await page.textContent('#puzzle-task'), `${side} to move and win: mate in 2`);
  assert.match(await feedback(page), /^Your move/);
  assert.match(await page.textContent('#puzzle-progress'), /Solved 0 · failed 0 · streak 0/);
  const solution = await page.evaluate(() => window.chariot.puzzles.puzzle.solution.map((m) => m.iccs));
  await move(page, solution[0]);
  await waitPlayed(page, 2);
  // The opponent's reply is on the board: the position after it.
  const after = await page.evaluate(() => window.chariot.puzzles.puzzle.solution[1].fen.split(' ')[0]);
  await page.waitForFunction((f) => window.chariot.board.boardFen() === f, after);
  assert.match(await feedback(page), /^Correct/);
  await move(page, solution[2]);
  await waitPlayed(page, 3);
  assert.equal(await feedback(page), 'Solved!');
  assert.match(await page.textContent('#puzzle-progress'), /Solved 1 · failed 0 · streak 1 \(best 1\)/);
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'puzzles.png') });
  await page.reload();
  await page.waitForFunction(() => window.chariot.puzzles?.puzzle && !window.chariot.puzzles.busy);
  assert.equal(await page.evaluate(() => window.chariot.puzzles.puzzle.id), first.id);
  assert.equal(await feedback(page), 'Solved!');
  assert.match(await page.textContent('#puzzle-progress'), /Solved 1 · failed 0 · streak 1/);
  // Next: another puzzle, not yet tried.
  await page.click('#puzzle-next');
  await page.waitForFunction((id) => window.chariot.puzzles.puzzle?.id !== id && !window.chariot.puzzles.busy, first.id);
  assert.match(await feedback(page), /^Your move/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a wrong move is refused and taken back; the hint marks the piece; the solution is played out', async () => {
  const probe = await openPage(session, 'en-US', '#puzzles', DESKTOP);
  const [, second] = await mates2(probe);
  const wrong = await wrongMove(probe, second.id);
  await probe.context().close();
  const page = await open('en-US', `#puzzles/${second.id}`, DESKTOP);
  const start = await boardFen(page);
  await move(page, wrong);
  await page.waitForFunction(() => /^Wrong/.test(document.querySelector('#puzzle-feedback').textContent));
  assert.match(await page.getAttribute('#puzzle-feedback', 'class'), /bad/);
  // The piece goes back: the board is the puzzle's position again, and nothing was played.
  await page.waitForFunction((f) => window.chariot.board.boardFen() === f && !window.chariot.puzzles.busy, start);
  assert.equal(await page.evaluate(() => window.chariot.puzzles.played.length), 0);
  assert.match(await page.textContent('#puzzle-progress'), /failed 1 · streak 0/);

  // The hint: a circle on the piece the first move moves.
  const solution = await page.evaluate(() => window.chariot.puzzles.puzzle.solution.map((m) => m.iccs));
  await page.click('#puzzle-hint');
  await page.waitForSelector('#board svg.cg-shapes circle');
  const circle = await page.locator('#board svg.cg-shapes circle').boundingBox();
  const piece = await squarePoint(page, solution[0].slice(0, 2));
  const size = (await page.locator('#board cg-board').boundingBox()).width / 9;
  assert.ok(Math.abs(circle.x + circle.width / 2 - piece.x) < size / 4
    && Math.abs(circle.y + circle.height / 2 - piece.y) < size / 4,
  `the hint's circle at ${JSON.stringify(circle)}, the piece on ${solution[0].slice(0, 2)} at ${JSON.stringify(piece)}`);
  assert.equal(await feedback(page), 'Hint: move the marked piece.');

  // The solution, a move at a time, to the last position.
  await page.click('#puzzle-solution');
  await page.waitForFunction(() => window.chariot.puzzles.played.length >= 1);
  const early = await page.evaluate(() => window.chariot.puzzles.played.length);
  assert.ok(early < solution.length, 'played out one move at a time');
  await waitPlayed(page, solution.length);
  const last = await page.evaluate(() => window.chariot.puzzles.puzzle.solution.at(-1).fen.split(' ')[0]);
  await page.waitForFunction((f) => window.chariot.board.boardFen() === f, last);
  assert.equal(await page.locator('#puzzle-moves .mv[data-index]').count(), solution.length);
  assert.equal(await feedback(page), 'The solution, played out.');
  assert.ok(await page.isVisible('#puzzle-retry'));
  // The filters: endgames only.
  await page.selectOption('#puzzle-theme', 'endgame');
  await page.waitForFunction(() => window.chariot.puzzles.puzzle?.themes.includes('endgame') && !window.chariot.puzzles.busy);
  assert.match(await page.textContent('#puzzle-task'), /to move and win: (mate in \d|the only winning move each time)$/);
  assert.match(await page.textContent('#puzzle-about'), /Chariot's endgame tables/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a phone in Chinese: a mate in 2 solved by taps, nothing wider than the screen', async () => {
  const page = await open('zh-CN', '#puzzles', PHONE);
  assert.equal(await page.textContent('#tab-puzzles'), '习题');
  const [, , third] = await mates2(page);
  await page.evaluate((id) => { window.location.hash = `#puzzles/${id}`; }, third.id);
  await page.waitForFunction((id) => window.chariot.puzzles.puzzle?.id === id && !window.chariot.puzzles.busy, third.id);
  const side = third.side === 'red' ? '红先胜' : '黑先胜';
  assert.equal(await page.textContent('#puzzle-task'), `${side} · 两步杀`);
  assert.match(await feedback(page), /^轮到你走/);
  await solve(page, true);
  assert.equal(await feedback(page), '解开了！');
  assert.match(await page.textContent('#puzzle-progress'), /解出 1 · 失败 0 · 连胜 1/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page is ${width} px wide`);
  // The task, the feedback and the buttons right under the board, on the first screen.
  const buttons = await page.locator('#puzzle-next').boundingBox();
  assert.ok(buttons.y + buttons.height <= 844, `Next at ${buttons.y}`);
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'puzzles-phone-zh.png') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('in Chinese at the desktop and in English on a phone: the task and the source in words', async () => {
  const page = await open('zh-CN', '#puzzles', DESKTOP);
  await page.selectOption('#puzzle-theme', 'tactic');
  await page.waitForFunction(() => window.chariot.puzzles.puzzle?.themes.includes('tactic') && !window.chariot.puzzles.busy);
  assert.match(await page.textContent('#puzzle-task'), /^[红黑]先胜 · 找出制胜的一着$/);
  assert.match(await page.textContent('#puzzle-about'), /实战|大师对局/);
  await page.click('#puzzle-hint');
  await page.waitForSelector('#board svg.cg-shapes circle');
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'puzzles-zh.png') });
  await page.context().close();

  const phone = await open('en-US', '#puzzles', PHONE);
  await phone.selectOption('#puzzle-theme', 'mate1');
  await phone.waitForFunction(() => window.chariot.puzzles.puzzle?.mate_in === 1 && !window.chariot.puzzles.busy);
  assert.match(await phone.textContent('#puzzle-task'), /to move and win: mate in 1$/);
  await solve(phone, true);
  assert.equal(await feedback(phone), 'Solved!');
  await settled(phone);
  await phone.screenshot({ path: path.join(shots, 'puzzles-phone.png') });
  assert.deepEqual(phone.errors, []);
  await phone.context().close();
});
