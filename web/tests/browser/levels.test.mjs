// The playing levels on the page (issue 47, fault 7): each level's choice shows its measured Elo
// as the server lists it (GET /api/levels), in English and Chinese, with the scale it is on
// named under the choice; and the weakest level, chosen and played against by taps and clicks,
// searches no more nodes than it says. Its own server, beside app.test.mjs's.
//
// Environment: CHARIOT_BIN (default target/debug/chariot), CHROMIUM, SCREENSHOTS, as app.test.mjs.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { Session, openPage, shots, DESKTOP, PHONE, api } from './harness.mjs';

let session;

before(async () => {
  session = await Session.start('chariot-levels-', ['serve', '--port', '0', '--games', '{work}/games.sqlite']);
});

after(async () => {
  await session?.close();
});

/** The level choice as shown: each option's value, words and tooltip, and the caption. */
const shown = (page) => page.evaluate(() => ({
  options: [...document.querySelectorAll('#new-level option')].map((o) => ({
    value: Number(o.value), text: o.textContent, title: o.title,
  })),
  scale: document.querySelector('#new-level-scale').textContent,
}));

const cases = [
  { locale: 'en-US', device: DESKTOP, name: 'levels.png', level: /^Level (\d+) — Elo (\d+)( \((beginner|strongest)\))?$/ },
  { locale: 'zh-CN', device: PHONE, name: 'levels-phone-zh.png', level: /^第 (\d+) 级 — 等级分 (\d+)(（(入门|最强)）)?$/ },
  { locale: 'zh-CN', device: DESKTOP, name: 'levels-zh.png', level: /^第 (\d+) 级 — 等级分 (\d+)(（(入门|最强)）)?$/ },
  { locale: 'en-US', device: PHONE, name: 'levels-phone.png', level: /^Level (\d+) — Elo (\d+)( \((beginner|strongest)\))?$/ },
];

for (const { locale, device, name, level } of cases) {
  const where = `${locale}, ${device === PHONE ? 'phone' : 'desktop'}`;
  test(`every level shows the Elo the server measured, on a named scale (${where})`, async () => {
    const page = await openPage(session, locale, '#play', device);
    const levels = await api(page, '/api/levels');
    const { options, scale } = await shown(page);
    assert.deepEqual(options.map((o) => o.value), levels.map((l) => l.level));
    for (const [i, o] of options.entries()) {
      const m = o.text.match(level);
      assert.ok(m, `level ${i + 1} reads ${JSON.stringify(o.text)}`);
      assert.equal(Number(m[1]), levels[i].level);
      assert.equal(Number(m[2]), levels[i].elo, o.text);
      // The interval and the node budget are in its tooltip.
      for (const figure of [levels[i].elo_lower, levels[i].elo_upper, levels[i].games]) {
        assert.ok(o.title.includes(String(figure)), `${o.title} lacks ${figure}`);
      }
      assert.ok(o.title.includes(levels[i].nodes.toLocaleString(locale)), o.title);
      if (i > 0) assert.ok(levels[i].elo_lower > levels[i - 1].elo_upper, 'neighbouring intervals overlap');
    }
    assert.ok(options[0].text.includes(locale === 'zh-CN' ? '入门' : 'beginner'), options[0].text);
    const { anchor } = levels[0];
    assert.ok(scale.includes(anchor.engine) && scale.includes(String(anchor.elo)), scale);
    assert.ok(scale.includes(anchor.nodes.toLocaleString(locale)), scale);
    // The caption fits a phone: no sideways scroll.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${overflow} px wider than the window`);
    // The picture shows the whole list, as the open choice shows it.
    await page.evaluate((n) => { document.querySelector('#new-level').size = n; }, levels.length);
    await page.locator('#new-game').screenshot({ path: path.join(shots, name) });
    await page.evaluate(() => { document.querySelector('#new-level').size = 0; });
    assert.deepEqual(page.errors, []);
  });
}

test('the weakest level searches no more nodes than it says (phone, taps)', async () => {
  const page = await openPage(session, 'zh-CN', '#play', PHONE);
  const levels = await api(page, '/api/levels');
  // A middle game no book knows, Black to move: the person takes Red and the engine moves first.
  const fen = '1rb1ka3/4a3r/1C2b4/p1p1n3p/3N5/6p2/P1P3ncP/N4R3/4A4/1RB1KAB2 b - - 9 17';
  await page.selectOption('#new-side', 'red');
  await page.selectOption('#new-level', '1');
  await page.selectOption('#new-start', 'fen');
  await page.fill('#new-fen', fen);
  await page.tap('#start');
  await page.waitForFunction(() => window.chariot.play.game?.moves.length === 1 && !window.chariot.play.busy);
  const engine = await page.evaluate(() => window.chariot.play.game.engine);
  assert.equal(engine.source, 'search', JSON.stringify(engine));
  assert.ok(engine.nodes > 0 && engine.nodes <= levels[0].nodes,
    `level 1 searched ${engine.nodes} nodes, labelled ${levels[0].nodes}`);
  assert.deepEqual(page.errors, []);
});
