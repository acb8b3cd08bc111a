// Game review in the browser (review.js, docs/web-app.md "Game review"): a game loaded on the
// analysis board reviewed with its progress shown, the evaluation graph and the marks ?! ? ??,
// a click on the blunder's mark showing the better move as an arrow and its line played out;
// a game played and lost by a blunder reviewed from the Play view on a phone, in Chinese, the
// blunder's dot on the graph tapped; a review's address opened again; a past game of one ply
// said so in both languages and reviewed from the list. Its own server, beside app.test.mjs's.
//
// Environment: CHARIOT_BIN, CHROMIUM, SCREENSHOTS, as app.test.mjs.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Session, openPage, shots, DESKTOP, PHONE, clickSquare, tapSquare, settled } from './harness.mjs';

let session;

before(async () => {
  // A game database of its own: no default database to build, and the games played are kept in it.
  session = await Session.start('chariot-review-', ['serve', '--port', '0', '--games', '{work}/games.sqlite']);
});

after(async () => {
  await session?.close();
});

/**
 * A sound opening (马八进九 卒３进１ 车九进一 马２进３ 车九平六 马８进７), then Red brings the
 * chariot to d5 (车六进四, ply 7), where Black's horse on c7 takes it at once: the soldier on the
 * horse's leg has moved.
 */
const GAME = ['b0a2', 'c6c5', 'a0a1', 'b9c7', 'a1d1', 'h9g7', 'd1d5', 'c7d5'];
/** The blunder's ply, and the index of the position where it was played (after six moves). */
const BLUNDER = 7;
const BEFORE = BLUNDER - 2;

/** chessground's key of an ICCS square (`d1` -> `d2`, `e9` -> `e:`). */
const key = (sq) => sq[0] + '123456789:'[Number(sq[1])];

/** Waits until the review shown has ended, and returns its job. */
async function reviewed(page) {
  await page.waitForFunction(() => {
    const job = window.chariot.review.job;
    return job && job.state !== 'running';
  }, null, { timeout: 120000 });
  const job = await page.evaluate(() => window.chariot.review.job);
  assert.equal(job.state, 'done', JSON.stringify(job));
  return job;
}

/** The arrows on the board: `{orig, dest, brush}` with chessground's keys. */
const arrows = (page) => page.evaluate(() => window.chariot.board.cg.state.drawable.autoShapes
  .filter((s) => s.dest).map(({ orig, dest, brush }) => ({ orig, dest, brush })));

/** Waits for the analysis board to show the position after `index` moves of its line, drawn. */
async function shows(page, index) {
  await page.waitForFunction((i) => window.chariot.analyse.index === i
    && window.chariot.analyse.here?.fen === window.chariot.analyse.texts[i]?.fen, index);
  await settled(page);
}

/** Checks that the board shows the blunder played (red) and the better move (green). */
async function blunderArrows(page, job) {
  const blunder = job.result.moves[BLUNDER - 1];
  const seen = await arrows(page);
  assert.deepEqual(seen.find((a) => a.brush === 'red'), { orig: key('d1'), dest: key('d5'), brush: 'red' }, JSON.stringify(seen));
  assert.deepEqual(seen.find((a) => a.brush === 'green'),
    { orig: key(blunder.best.slice(0, 2)), dest: key(blunder.best.slice(2, 4)), brush: 'green' });
}

test('a loaded game reviewed: progress, the graph, the marks, the better move of the blunder', async () => {
  const page = await openPage(session, 'en-US', `#analyse/start/${GAME.join(',')}`, DESKTOP);
  await page.waitForFunction((n) => window.chariot.analyse.texts.length === n, GAME.length);
  await page.click('#review-start');
  // The progress bar while the server works through the positions.
  await page.waitForSelector('#review-progress:not([hidden])');
  assert.match(await page.textContent('#review-status'), /Reviewing… \d+ of 9 positions|Asking/);
  const job = await reviewed(page);
  assert.ok(await page.isHidden('#review-progress'));
  assert.match(await page.textContent('#review-status'), /^9 positions reviewed, [\d,]+ nodes each/);
  const blunder = job.result.moves[BLUNDER - 1];
  assert.equal(blunder.judgement, 'blunder', JSON.stringify(blunder));
  // The graph: a point for every position, Red's side up, the blunder's dot; under the board,
  // in the window (the board makes room for it).
  await page.waitForSelector('#review-graph svg .mark.blunder');
  const graph = await page.locator('#review-graph svg').boundingBox();
  assert.ok(graph.y + graph.height <= 800, JSON.stringify(graph));
  assert.equal(await page.locator('#review-graph svg .mark.blunder').count(), 1);
  assert.match(await page.getAttribute('#review-graph svg polyline', 'points'), /^([\d.]+,[\d.]+ ){8}[\d.]+,[\d.]+$/);
  // The marks: in the move list, in the list of marked moves, counted in the summary.
  assert.equal(await page.textContent(`#moves-analyse .mv[data-index="${BLUNDER - 1}"] .review-mark`), '??');
  assert.match(await page.textContent('#review-marks .mark.blunder'), /^4\. 车六进四\?\?$/);
  const redRow = await page.locator('#review-summary tbody tr.red td').allTextContents();
  assert.deepEqual(redRow.slice(0, 4), ['Red', String(job.result.summary.red.inaccuracies), String(job.result.summary.red.mistakes), '1']);
  assert.match(await page.textContent('.review-side'), /from Red's side/);
  // A click on the mark: the position where the blunder was played, the better move an arrow.
  await page.click(`#moves-analyse .mv[data-index="${BLUNDER - 1}"] .review-mark`);
  await shows(page, BEFORE);
  await blunderArrows(page, job);
  assert.match(await page.textContent('#review-move .next'), /^4\. 车六进四\?\? Blunder · /);
  assert.match(await page.textContent('#review-move .better'), /^Better: /);
  assert.match(await page.evaluate(() => window.location.hash), new RegExp(`^#review/start/${GAME.join(',')}/${BLUNDER - 1}$`));
  await page.screenshot({ path: path.join(shots, 'review.png') });
  // The better line played out on the board.
  await page.click('#review-play-line');
  await page.waitForFunction((n) => window.chariot.analyse.line.length === n, BLUNDER - 1 + blunder.line.length);
  assert.deepEqual(await page.evaluate(() => window.chariot.analyse.line), [...GAME.slice(0, BLUNDER - 1), ...blunder.line]);
  // Back on the game from the graph: a click on the blunder's dot.
  const dot = await page.locator('#review-graph svg .mark.blunder').boundingBox();
  await page.mouse.click(dot.x + dot.width / 2, dot.y + dot.height / 2);
  await shows(page, BEFORE);
  assert.deepEqual(await page.evaluate(() => window.chariot.analyse.line), GAME);
  await blunderArrows(page, job);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a game lost by a blunder, reviewed after it ends, on a phone in Chinese', async () => {
  // The game starts from the analysis board's first six moves; the person hangs the chariot.
  const page = await openPage(session, 'zh-CN', `#analyse/start/${GAME.slice(0, BLUNDER - 1).join(',')}`, PHONE);
  await page.waitForFunction((n) => window.chariot.analyse.texts.length === n, BLUNDER - 1);
  await page.tap('#tab-play');
  await page.selectOption('#new-level', '1');
  await page.selectOption('#new-start', 'analysis');
  await page.click('#start');
  await page.waitForFunction((n) => window.chariot.play.game?.moves.length === n && !window.chariot.play.busy, BLUNDER - 1);
  assert.ok(await page.isHidden('#review-game'), 'no review before the game ends');
  await tapSquare(page, 'd1');
  await tapSquare(page, 'd5');
  await page.waitForFunction((n) => window.chariot.play.game?.moves.length === n && !window.chariot.play.busy, BLUNDER + 1);
  page.once('dialog', (d) => d.accept());
  await page.tap('#resign');
  await page.waitForSelector('#review-game:not([hidden])');
  assert.equal(await page.textContent('#review-game'), '复盘');
  await page.tap('#review-game');
  await page.waitForFunction(() => window.chariot.view === 'analyse');
  const job = await reviewed(page);
  assert.equal(job.result.moves[BLUNDER - 1].judgement, 'blunder');
  assert.match(await page.textContent('#review-status'), /^已复盘 9 个局面/);
  assert.match(await page.textContent('#review-marks .mark.blunder'), /车六进四\?\?/);
  assert.equal(await page.getAttribute('#review-marks .mark.blunder', 'title'), '败着');
  assert.match(await page.textContent('.review-side'), /红方视角/);
  // The graph spans the screen under the board; nothing is wider than the screen.
  const graph = await page.locator('#review-graph svg').boundingBox();
  assert.ok(graph.width > 360 && graph.x >= 0 && graph.x + graph.width <= 390, JSON.stringify(graph));
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390));
  // A tap on the blunder's dot: where it was played, the better move an arrow.
  const dot = await page.locator('#review-graph svg .mark.blunder').boundingBox();
  await page.touchscreen.tap(dot.x + dot.width / 2, dot.y + dot.height / 2);
  await shows(page, BEFORE);
  await blunderArrows(page, job);
  assert.match(await page.textContent('#review-move .next'), /车六进四\?\? 败着 · /);
  assert.match(await page.textContent('#review-move .better'), /^更好：/);
  await page.screenshot({ path: path.join(shots, 'review-phone-zh.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a review\'s address opens it again: a desktop in Chinese, a phone in English', async () => {
  for (const [locale, device, shot] of [['zh-CN', DESKTOP, 'review-zh.png'], ['en-US', PHONE, 'review-phone.png']]) {
    const page = await openPage(session, locale, `#review/start/${GAME.join(',')}/${BLUNDER - 1}`, device);
    // The server has this game's review already: it is shown at once, at the position named.
    const job = await reviewed(page);
    await shows(page, BEFORE);
    await page.waitForSelector('#review-graph svg .mark.blunder');
    await blunderArrows(page, job);
    assert.match(await page.textContent('#review-move .next'), locale === 'zh-CN' ? /败着/ : /Blunder/);
    assert.equal(await page.locator('#moves-analyse .review-mark.blunder').count(), 1);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    // The panel holds its summary (the counts' words are left out on a phone).
    assert.ok(await page.evaluate(() => {
      const panel = document.getElementById('review').getBoundingClientRect();
      return document.getElementById('review-summary').getBoundingClientRect().right <= panel.right;
    }));
    await page.screenshot({ path: path.join(shots, shot), fullPage: device === PHONE });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a past game of one ply says so in both languages and is reviewed from the list', async () => {
  const page = await openPage(session, 'en-US', '#play', DESKTOP);
  await page.selectOption('#new-start', 'fen');
  await page.fill('#new-fen', '3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1');
  await page.selectOption('#new-level', '1');
  await page.click('#start');
  await page.waitForFunction(() => window.chariot.play.game && !window.chariot.play.busy);
  // 车五平六: mate.
  await clickSquare(page, 'e1');
  await clickSquare(page, 'd1');
  await page.waitForFunction(() => window.chariot.play.game?.result);
  const row = page.locator('#played-list tr').first();
  await page.waitForFunction(() => /1 ply(?!s)/.test(document.querySelector('#played-list tr')?.textContent ?? ''));
  await page.click('#language');
  await page.waitForFunction(() => document.querySelector('#played-list tr')?.textContent.includes('1 步'));
  assert.doesNotMatch(await row.textContent(), /plies|ply/);
  await page.click('#played-list tr:first-child button.review');
  await page.waitForFunction(() => window.chariot.view === 'analyse');
  const job = await reviewed(page);
  assert.deepEqual(job.result.played, ['e1d1']);
  // The tables value the start exactly: mate in one (a move), from Red's side.
  assert.deepEqual(job.result.positions[0].score, { mate: 1 });
  await page.waitForFunction(() => document.querySelector('#review-move .here')?.textContent === '此局面：#1');
  assert.match(await page.textContent('#review-marks'), /没有缓着、劣着或败着/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
