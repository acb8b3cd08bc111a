// A finished review survives a restart of the server (docs/web-app.md "Game review",
// docs/formats/reviews.md): a game reviewed on one server is shown whole at once by the next
// server on the same data directory, at its address (`#review/...`), its first answer already
// done, with the same values: a desktop in Chinese (clicks), a phone in English (taps).
//
// Environment: CHARIOT_BIN, CHROMIUM, as app.test.mjs (no screenshots: nothing new is drawn).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Session, openPage, DESKTOP, PHONE, settled } from './harness.mjs';

/** Red hangs a chariot at ply 7 and Black's horse takes it (review.test.mjs's game). */
const GAME = ['b0a2', 'c6c5', 'a0a1', 'b9c7', 'a1d1', 'h9g7', 'd1d5', 'c7d5'];
const ADDRESS = `#review/start/${GAME.join(',')}/0`;

/** One data directory for both servers: where the reviews are kept. */
const shared = mkdtempSync(path.join(tmpdir(), 'chariot-reviewkeep-'));
const env = { XDG_DATA_HOME: path.join(shared, 'data') };
const args = ['serve', '--port', '0', '--games', '{work}/games.sqlite'];

let session;

after(async () => {
  await session?.close();
});

/** Waits until the review shown has ended, and returns its job. */
async function reviewed(page) {
  await page.waitForFunction(() => {
    const job = window.chariot.review.job;
    return job && job.state !== 'running';
  }, null, { timeout: 120000 });
  return page.evaluate(() => window.chariot.review.job);
}

test('a review made before a restart is shown done at once after it', async () => {
  session = await Session.start('chariot-reviewkeep-', args, env);
  const page = await openPage(session, 'en-US', ADDRESS, DESKTOP);
  const first = await reviewed(page);
  assert.equal(first.state, 'done', JSON.stringify(first));
  await session.close();

  session = await Session.start('chariot-reviewkeep-', args, env);
  for (const [locale, device] of [['zh-CN', DESKTOP], ['en-US', PHONE]]) {
    const context = await session.browser.newContext({ locale, ...device });
    const p = await context.newPage();
    const errors = [];
    p.on('pageerror', (e) => errors.push(e));
    const asked = p.waitForResponse((r) => r.url().endsWith('/api/review') && r.request().method() === 'POST');
    await p.goto(session.base + ADDRESS);
    // The server's first answer is the whole review, done: nothing is searched again.
    const answer = await asked;
    assert.equal(answer.status(), 200);
    const job = await answer.json();
    assert.equal(job.state, 'done', JSON.stringify(job));
    assert.equal(job.done, GAME.length + 1);
    assert.deepEqual(job.result, first.result);
    const shown = await reviewed(p);
    assert.equal(shown.id, job.id);
    await p.waitForSelector('#review-graph svg .mark.blunder');
    assert.match(await p.textContent('#review-status'), locale === 'zh-CN' ? /已复盘 9 个局面/ : /9 positions reviewed/);
    // The blunder's mark goes to the position where it was played: after six moves, the
    // analysis board's move 5 counted from 0.
    const mark = p.locator('#review-marks button.mark.blunder');
    if (device === PHONE) await mark.tap();
    else await mark.click();
    await p.waitForFunction(() => window.chariot.analyse.index === 5);
    await settled(p);
    assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    assert.deepEqual(errors, []);
    await context.close();
  }
});
