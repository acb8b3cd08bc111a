// The analysis view as a lichess player expects it (issue 47, "What players expect"): every move
// of an engine line steps into the line on the board (Escape, the arrow keys and the bar under
// the board; taps on a phone), a line played into the board's moves, infinite analysis until
// stopped or the position changes (the server freeing its place), an arrow for each line
// styled by rank, and scores from Red's side everywhere (lines, score bar, a game's engine).
//
// Environment: as app.test.mjs (harness.mjs). Screenshots: analysis-lines*.png.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  Session, openPage, shots, DESKTOP, PHONE, clickSquare, newGame, waitMoves, settled, api,
} from './harness.mjs';

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
/** Black to move with a chariot against a lone general: Black wins (mates in 3 plies). */
const BLACK_WINS = '3k5/9/9/9/9/9/r8/9/9/4K4 b - - 0 1';

let session;

before(async () => {
  session = await Session.start('chariot-analysis-', ['serve', '--port', '0']);
});

after(async () => {
  await session?.close();
});

const open = (locale, hash, device) => openPage(session, locale, hash, device);

/** The board part of the FEN the board shows. */
const boardFen = (page) => page.evaluate(() => window.chariot.board.boardFen());

/** The board part of the FEN after `moves` from `fen`, as the server plays them. */
async function fenAfter(page, fen, moves) {
  const here = await api(page, `/api/position?fen=${encodeURIComponent(fen)}&moves=${moves.join('%20')}`);
  return here.fen.split(' ')[0];
}

/** Starts an analysis of `lines` lines for `seconds` (a choice of the page) and waits for them. */
async function analyse(page, { lines = '3', seconds = '5', tap = false } = {}) {
  await page.waitForFunction(() => window.chariot.analyse.here);
  await page.selectOption('#multipv', lines);
  await page.selectOption('#seconds', seconds);
  if (tap) await page.tap('#analyse');
  else await page.click('#analyse');
  await page.waitForFunction(
    (n) => document.querySelectorAll('#lines tr').length === n
      && [...document.querySelectorAll('#lines tr')].every((r) => r.querySelectorAll('.pv-move').length >= 4),
    Number(lines), { timeout: 30000 },
  );
}

/** Waits for a bounded analysis to end by itself. */
async function finished(page) {
  await page.waitForFunction(() => !window.chariot.analyse.stream, null, { timeout: 30000 });
}

/**
 * Analyses three lines for 5 seconds until the second line, as it ends, has a third move (a
 * line cut short by the engine's hash table can end with fewer; then again, at most 3 times).
 */
async function threeLines(page, tap) {
  for (let tries = 0; tries < 3; tries += 1) {
    await analyse(page, { tap });
    await finished(page);
    if (await page.locator('#lines tr:nth-child(2) .pv-move').count() >= 3) return;
  }
  assert.fail('the second line never ended with three moves');
}

/** The arrows on the board, each with its drawing style. */
const arrows = (page) => page.$$eval('.cg-shapes line', (lines) => lines.map((l) => ({
  stroke: l.getAttribute('stroke'), width: Number(l.getAttribute('stroke-width')), opacity: Number(l.getAttribute('opacity')),
})));

test('the third move of the second line is shown on the board; Escape goes back; arrows step; the line is played (desktop, English)', async () => {
  const page = await open('en-US', '#analyse', DESKTOP);
  await threeLines(page, false);
  assert.equal((await arrows(page)).length, 3, 'an arrow per line');
  const pv = await page.evaluate(() => window.chariot.analyse.lines.get(2).pv);
  await page.click('#lines tr:nth-child(2) .pv-move[data-ply="2"]');
  await page.waitForSelector('#peek:not([hidden])');
  const third = await fenAfter(page, START, pv.slice(0, 3));
  await page.waitForFunction((f) => window.chariot.board.boardFen() === f, third);
  assert.equal(await page.textContent('#peek-title'), `Line 2 of Chariot: move 3 of ${pv.length}`);
  assert.equal(await page.locator('#lines tr:nth-child(2) .pv-move.peeked').getAttribute('data-ply'), '2');
  assert.equal((await arrows(page)).length, 0, 'no arrow of the position analysed on the line\'s position');
  const bar = await page.locator('#peek').boundingBox();
  assert.ok(bar.y >= 0 && bar.y + bar.height <= 800, `the bar in view: ${JSON.stringify(bar)}`);
  // The board is the line's: nothing on it can be moved.
  assert.equal(await page.evaluate(() => window.chariot.board.cg.state.movable.color), undefined);
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'analysis-lines.png') });
  // The arrow keys step along the line.
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((f) => window.chariot.board.boardFen() === f, await fenAfter(page, START, pv.slice(0, 4)));
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((f) => window.chariot.board.boardFen() === f, await fenAfter(page, START, pv.slice(0, 2)));
  // Escape: the position analysed, its arrows and its moves, untouched.
  await page.keyboard.press('Escape');
  await page.waitForSelector('#peek', { state: 'hidden' });
  await page.waitForFunction((f) => window.chariot.board.boardFen() === f, START.split(' ')[0]);
  await page.waitForFunction(() => document.querySelectorAll('.cg-shapes line').length === 3);
  assert.deepEqual(await page.evaluate(() => window.chariot.analyse.line), []);
  // The line played: it becomes the board's moves, the position stepped to shown.
  await page.click('#lines tr:nth-child(2) .pv-move[data-ply="2"]');
  await page.waitForFunction((f) => window.chariot.board.boardFen() === f, third);
  await page.click('#peek-take');
  await page.waitForFunction((n) => window.chariot.analyse.here.line.length === n, 3);
  assert.deepEqual(await page.evaluate(() => window.chariot.analyse.line), pv);
  assert.equal(await page.getAttribute('#moves-analyse .mv.current', 'data-index'), '2');
  assert.ok(await page.isHidden('#peek'));
  assert.equal(await boardFen(page), third);
  assert.equal(await page.locator('#lines tr').count(), 0, 'the lines of the position left are gone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a phone in Chinese: a tapped move of a line shows its position in view; ‹ › step; back by a tap', async () => {
  const page = await open('zh-CN', '#analyse', PHONE);
  await threeLines(page, true);
  assert.match(await page.textContent('#lines-side'), /红方视角/);
  const pv = await page.evaluate(() => window.chariot.analyse.lines.get(2).pv);
  const move = page.locator('#lines tr:nth-child(2) .pv-move[data-ply="2"]');
  await move.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  assert.ok(scrolled > 0, 'the lines are under the board, below the first screen');
  await move.tap();
  const third = await fenAfter(page, START, pv.slice(0, 3));
  await page.waitForFunction((f) => window.chariot.board.boardFen() === f, third);
  assert.equal(await page.textContent('#peek-title'), `Chariot 第 2 变：第 3 步，共 ${pv.length} 步`);
  // The board and the bar under it are on the screen.
  for (const what of ['#board cg-board', '#peek']) {
    const box = await page.locator(what).boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= 844, `${what} in view: ${JSON.stringify(box)}`);
  }
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll');
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'analysis-lines-phone-zh.png') });
  await page.tap('#peek-next');
  await page.waitForFunction((f) => window.chariot.board.boardFen() === f, await fenAfter(page, START, pv.slice(0, 4)));
  await page.tap('#peek-prev');
  await page.waitForFunction((f) => window.chariot.board.boardFen() === f, third);
  await page.tap('#peek-back');
  await page.waitForSelector('#peek', { state: 'hidden' });
  await page.waitForFunction((f) => window.chariot.board.boardFen() === f, START.split(' ')[0]);
  assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'back where the lines were');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('infinite analysis streams until stopped, starts again on a new position, and the server frees its place (desktop, Chinese)', async () => {
  const page = await open('zh-CN', '#analyse', DESKTOP);
  await page.waitForFunction(() => window.chariot.analyse.here);
  assert.equal(await page.textContent('#seconds option[value="infinite"]'), '∞ 无限');
  const asked = page.waitForRequest((r) => r.url().includes('/api/analysis') && r.url().includes('seconds=infinite'));
  await analyse(page, { lines: '2', seconds: 'infinite' });
  await asked;
  // It streams: the lines deepen while it runs.
  const depth = () => page.evaluate(() => window.chariot.analyse.lines.get(1).depth);
  const first = await depth();
  await page.waitForFunction((d) => window.chariot.analyse.lines.get(1).depth > d, first, { timeout: 20000 });
  assert.equal(await page.textContent('#analyse'), '停止');
  // A move of a line stepped into while the lines stream; Escape.
  await page.click('#lines tr:nth-child(1) .pv-move[data-ply="1"]');
  await page.waitForSelector('#peek:not([hidden])');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#peek', { state: 'hidden' });
  // A move on the board: the analysis starts again on the new position, still infinite.
  const again = page.waitForRequest((r) => r.url().includes('/api/analysis') && r.url().includes('seconds=infinite')
    && r.url().includes('moves=h2e2'));
  await clickSquare(page, 'h2');
  await clickSquare(page, 'e2');
  await again;
  await page.waitForFunction(() => window.chariot.analyse.here.line.length === 1 && window.chariot.analyse.stream
    && window.chariot.analyse.lines.size === 2 && window.chariot.analyse.here.legal.includes(window.chariot.analyse.lines.get(1).pv[0]),
  null, { timeout: 30000 });
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'analysis-lines-zh.png') });
  // Stopped by the button: the stream ends, the arrows go, the lines stay to be read.
  await page.click('#analyse');
  assert.equal(await page.evaluate(() => window.chariot.analyse.stream), null);
  assert.equal(await page.textContent('#analyse'), '分析');
  await page.waitForFunction(() => document.querySelectorAll('.cg-shapes line').length === 0);
  assert.equal(await page.locator('#lines tr').count(), 2);
  const depthStopped = await depth();
  await page.waitForTimeout(1500);
  assert.equal(await depth(), depthStopped, 'nothing streams once stopped');
  // The server stopped both infinite searches when their streams closed: all four places
  // (the server's limit) are free again.
  const four = () => page.evaluate(async (fen) => {
    const url = `/api/analysis?fen=${encodeURIComponent(fen)}&seconds=0.3`;
    const answers = await Promise.all([0, 1, 2, 3].map(() => fetch(url)));
    await Promise.all(answers.map((a) => a.text()));
    return answers.map((a) => a.status);
  }, START);
  let statuses = await four();
  for (let tries = 0; statuses.some((s) => s !== 200) && tries < 20; tries += 1) {
    await page.waitForTimeout(500);
    statuses = await four();
  }
  assert.deepEqual(statuses, [200, 200, 200, 200]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an arrow for each of three lines, the best the strongest; gone when stopped (phone, English)', async () => {
  const page = await open('en-US', '#analyse', PHONE);
  await analyse(page, { lines: '3', seconds: '30', tap: true });
  // The arrows as drawn once there are three (redrawn in their order as the lines change).
  const drawn = await (await page.waitForFunction(() => {
    const lines = [...document.querySelectorAll('.cg-shapes line')];
    return lines.length === 3 && lines.map((l) => ({
      stroke: l.getAttribute('stroke'), width: Number(l.getAttribute('stroke-width')), opacity: Number(l.getAttribute('opacity')),
    }));
  })).jsonValue();
  // Three styles, drawn weakest first: the last (on top) is the best line's, the widest and
  // most opaque.
  assert.equal(new Set(drawn.map((a) => `${a.stroke} ${a.width} ${a.opacity}`)).size, 3, JSON.stringify(drawn));
  assert.ok(drawn[2].width > drawn[1].width && drawn[1].width > drawn[0].width, JSON.stringify(drawn));
  assert.ok(drawn[2].opacity > drawn[1].opacity && drawn[1].opacity > drawn[0].opacity, JSON.stringify(drawn));
  // Each arrow is its line's first move (read at once: the lines go on changing).
  const { shapes, firsts } = await page.evaluate(() => ({
    shapes: window.chariot.board.cg.state.drawable.autoShapes.map((s) => s.orig + s.dest),
    firsts: [3, 2, 1].map((k) => window.chariot.analyse.lines.get(k).pv[0]),
  }));
  const key = (iccs) => iccs[0] + '123456789:'[Number(iccs[1])] + iccs[2] + '123456789:'[Number(iccs[3])];
  assert.deepEqual(shapes, firsts.map(key));
  await page.evaluate(() => window.scrollTo(0, 0));
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'analysis-lines-phone.png') });
  await page.tap('#analyse');
  await page.waitForFunction(() => document.querySelectorAll('.cg-shapes line').length === 0, null, { timeout: 3000 });
  assert.equal(await page.locator('#lines tr').count(), 3, 'the lines stay once stopped');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('scores are Red\'s: Black to move and winning reads negative in the lines, the bar and a game', async () => {
  const page = await open('en-US', `#analyse/${BLACK_WINS.replace(/ /g, '_')}`, DESKTOP);
  await page.waitForFunction((f) => window.chariot.analyse.here?.fen === f, BLACK_WINS);
  await page.selectOption('#multipv', '1');
  await page.selectOption('#seconds', '5');
  await page.click('#analyse');
  await page.waitForSelector('#lines td.score');
  const score = await page.textContent('#lines td.score');
  assert.match(score, /^(-\d+\.\d\d|#-\d+)$/, `Black's win from Red's side: ${score}`);
  assert.match(await page.getAttribute('#lines td.score', 'title'), /^Black /);
  assert.match(await page.textContent('#lines-side'), /from Red's side/);
  const share = await page.evaluate(() => parseFloat(document.querySelector('#eval-bar').style.getPropertyValue('--red-share')));
  assert.ok(share < 50, `Red's share of the bar: ${share}%`);
  await page.click('#analyse');
  // A game: Red's general alone, Black's engine winning; its score with its move is Red's.
  await page.click('#tab-play');
  await newGame(page, { side: 'red', level: '3', start: 'fen', fen: BLACK_WINS.replace(' b ', ' w ') });
  await clickSquare(page, 'e0');
  await clickSquare(page, 'e1');
  await waitMoves(page, 2);
  const said = await page.textContent('#engine-info');
  assert.match(said, /score (-\d+\.\d\d|#-\d+) \(Red's side\)|Black mates in \d+/, said);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
