// A whole game from the usual start to its end, as a player plays it: at each turn the player
// asks for a hint, reads its arrow off the board and plays that move by clicking the two points
// (a desktop, English) or tapping them (a phone, Chinese), against level 1, until the game is
// over. The result must be said on the page in the page's language, written in the saved PGN and
// listed first among the games played. Issue 47: "the suite also plays a whole game by clicks
// and taps at both sizes".

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Session, openPage, DESKTOP, PHONE, clickSquare, tapSquare, newGame, moveCount } from './harness.mjs';

let session;

before(async () => {
  // Searches of at most a fifth of a second (`--max-think`): a hint then still beats level 1,
  // and the game takes a few seconds rather than a minute.
  session = await Session.start('chariot-wholegame-', ['serve', '--port', '0', '--games', '{work}/played.sqlite', '--max-think', '0.2']);
});

after(async () => {
  await session?.close();
});

/** A game lasts at most this many plies here: the hints beat level 1 long before. */
const MOST_PLIES = 300;

/** The hint's arrow on the board, as ICCS squares `[from, to]` (chessground's ranks are 1 to `:`). */
const hintArrow = (page) => page.evaluate(() => {
  const arrows = window.chariot.board.arrows;
  if (arrows.length !== 1) return null;
  const square = (k) => k[0] + String('123456789:'.indexOf(k[1]));
  return [square(arrows[0].orig), square(arrows[0].dest)];
});

const over = (page) => page.evaluate(() => document.querySelector('#status').classList.contains('over'));

for (const [size, device, locale, touch] of [['desktop', DESKTOP, 'en-US', false], ['phone', PHONE, 'zh-CN', true]]) {
  test(`a whole game by ${touch ? 'taps on a phone in Chinese' : 'clicks on a desktop in English'}, from the start to its end`, async () => {
    const page = await openPage(session, locale, '#play', device);
    const press = (sq) => (touch ? tapSquare(page, sq) : clickSquare(page, sq));
    await newGame(page, { level: '1' });
    let plies = 0;
    while (!(await over(page))) {
      assert.ok(plies < MOST_PLIES, `${size}: no end after ${plies} plies`);
      await page.waitForFunction(() => {
        const g = window.chariot.play.game;
        return !window.chariot.play.busy && (g.turn === g.side || document.querySelector('#status').classList.contains('over'));
      }, null, { timeout: 30000 });
      if (await over(page)) break;
      const before = await moveCount(page);
      await page.locator('#hint').scrollIntoViewIfNeeded();
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/hint'), { timeout: 30000 }),
        touch ? page.tap('#hint') : page.click('#hint'),
      ]);
      const hint = (await answer.json()).move;
      await page.waitForFunction((m) => {
        const a = window.chariot.board.arrows;
        return a.length === 1 && a[0].orig[0] === m[0] && a[0].dest[0] === m[2];
      }, hint, { timeout: 10000 });
      const [from, to] = await hintArrow(page);
      assert.equal(from + to, hint, `${size}: the arrow shows the hint`);
      await page.locator('#board').scrollIntoViewIfNeeded();
      await press(from);
      await press(to);
      // The move, then the engine's reply (or the end of the game on this move).
      await page.waitForFunction((n) => {
        const shown = document.querySelectorAll('#moves-play .mv[data-index]').length;
        return shown === n + 2 || (shown === n + 1 && document.querySelector('#status').classList.contains('over'));
      }, before, { timeout: 30000 });
      plies = await moveCount(page);
    }
    const game = await page.evaluate(() => window.chariot.play.game);
    const status = await page.textContent('#status');
    // The hints win against a beginner: Red (the player) wins, said in the page's language.
    assert.equal(game.result?.result, '1-0', `${size}: the result after ${game.moves.length} plies: ${status}`);
    assert.match(status, touch ? /红胜/ : /Red wins/, `${size}: the status says who won`);
    const pgn = await page.evaluate(async () => (await fetch(document.querySelector('#save-pgn').href)).text());
    assert.match(pgn, /\[Result "1-0"\]/);
    assert.match(pgn, /1-0\s*$/);
    await page.waitForFunction((n) => {
      const row = document.querySelector('#played-list tr');
      return row && row.textContent.includes('1-0') && row.textContent.includes(String(n));
    }, game.moves.length, { timeout: 10000 });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
