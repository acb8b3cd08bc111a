// End-to-end tests of the web app, as a person uses it: Debian's Chromium, headless, driven by
// playwright-core, against `chariot serve` on a free loopback port.
//
// Environment: CHARIOT_BIN and BOOK_BUILDER_BIN (the binaries; default target/debug),
// CHROMIUM (default /usr/bin/chromium), SCREENSHOTS (where the pictures go; default
// docs/screenshots). scripts/browser-tests.sh installs what is needed and runs this file.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  Session, openPage, bookBuilder, shots, DESKTOP, PHONE, clickSquare, tapSquare, squarePoint,
  selected, markPixels, drag, moveCount, waitMoves, newGame, waitCount, settled, api, holdBack,
} from './harness.mjs';

let session;
let base;
let browser;
let work;

before(async () => {
  // The explorer's default game database is built on this first start, and the books compiled
  // here are kept in the session's data directory.
  session = await Session.start('chariot-browser-', ['serve', '--port', '0']);
  ({ base, browser, work } = session);
});

after(async () => {
  await session?.close();
});

/** A fresh page of this file's server (see `openPage`). */
const open = (locale, hash, device) => openPage(session, locale, hash, device);

test('a game: moves by clicking and dragging, legal engine replies, take-back', async () => {
  const page = await open();
  await newGame(page);
  assert.match(await page.textContent('#status'), /Your move \(Red\)/);
  // Picking a piece shows its destinations.
  await clickSquare(page, 'h2');
  await waitCount(page, 'cg-board square.move-dest', 12); // the cannon on h2 has 12 moves
  await clickSquare(page, 'e2');
  await waitMoves(page, 2);
  const first = await page.locator('#moves-play .mv[data-index="0"]').textContent();
  assert.equal(first, '炮二平五');
  const game = await page.evaluate(() => window.chariot.play.game);
  assert.equal(game.moves[0].iccs, 'h2e2');
  const after = await api(page, `/api/position?fen=${encodeURIComponent(game.start_fen)}&moves=h2e2`);
  assert.ok(after.legal.includes(game.moves[1].iccs), `engine reply ${game.moves[1].iccs}`);
  // A drag is a move too.
  await drag(page, 'b0', 'c2');
  await waitMoves(page, 4);
  assert.equal(await page.locator('#moves-play .mv[data-index="2"]').getAttribute('title'), 'b0c2');
  // The last move is marked on the board.
  await waitCount(page, 'cg-board square.last-move', 2);
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'play.png') });
  // Take back: both plies.
  await page.click('#takeback');
  await waitMoves(page, 2);
  assert.match(await page.textContent('#status'), /Your move/);
  // A click on a move shows its position; the arrow keys step through.
  await page.click('#moves-play .mv[data-index="0"]');
  assert.equal(await page.locator('#moves-play .mv.current').getAttribute('data-index'), '0');
  // A reload keeps the tab's game.
  await page.reload();
  await waitMoves(page, 2);
  assert.match(await page.textContent('#status'), /Your move/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an illegal move is refused and the reason shown', async () => {
  const page = await open();
  await newGame(page);
  // The horse cannot jump to e2: the click goes nowhere.
  await clickSquare(page, 'b0');
  await clickSquare(page, 'b5');
  await page.waitForTimeout(300);
  assert.equal(await moveCount(page), 0);
  // Typed text that is not a legal move gets the rules' reason.
  await page.fill('#move-text', 'h2h8');
  await page.click('#type-move button');
  await page.waitForSelector('#toast.error:not([hidden])');
  assert.match(await page.textContent('#toast'), /not a legal move/);
  assert.equal(await moveCount(page), 0);
  // A typed legal move in WXF is played.
  await page.fill('#move-text', 'C2.5');
  await page.click('#type-move button');
  await waitMoves(page, 2);
  await page.context().close();
});

test('a hint, a draw offer and a resignation', async () => {
  const page = await open();
  await newGame(page);
  await page.click('#hint');
  await page.waitForSelector('#toast:not([hidden])');
  assert.match(await page.textContent('#toast'), /^Hint: \S+/);
  await waitCount(page, '.cg-shapes line', 1); // the hint's arrow
  page.once('dialog', (d) => d.accept());
  await page.click('#resign');
  await page.waitForFunction(() => document.querySelector('#status').classList.contains('over'));
  assert.match(await page.textContent('#status'), /Black wins: resignation \(0-1\)/);
  // A draw offer gets the engine's answer; accepted, it ends the game.
  await newGame(page);
  await page.click('#draw');
  await page.waitForFunction(() => /Chariot (accepts|declines)/.test(document.querySelector('#toast').textContent));
  const accepted = (await page.textContent('#toast')).includes('accepts');
  assert.equal(await page.locator('#status.over').count(), accepted ? 1 : 0);
  if (accepted) assert.match(await page.textContent('#status'), /Draw: by agreement/);
  await page.context().close();
});

test('a position set up on the board is played to mate and the result shown', async () => {
  const page = await open('en-US', '#analyse');
  await page.click('#edit-position');
  await page.click('#setup-clear');
  const place = async (piece, sq) => {
    await page.click(`#setup-palette button[data-piece="${piece}"]`);
    await clickSquare(page, sq);
  };
  await place('rk', 'e0');
  await place('rr', 'e1');
  await place('bk', 'd9');
  await page.click('#setup-done');
  await page.waitForFunction(() => document.querySelector('#fen').value.startsWith('3k5/9/9/9/9/9/9/9/4R4/4K4 w'));
  await page.click('#play-from-here');
  await page.waitForSelector('#game:not([hidden])');
  await clickSquare(page, 'e1');
  await clickSquare(page, 'd1');
  await page.waitForFunction(() => document.querySelector('#status').classList.contains('over'));
  assert.match(await page.textContent('#status'), /Red wins: checkmate \(1-0\)/);
  await waitCount(page, 'cg-board square.check', 1);
  assert.ok(await page.isDisabled('#resign'));
  await page.context().close();
});

test('the game is saved as PGN and book-builder reads it back', async () => {
  const page = await open();
  await newGame(page);
  await clickSquare(page, 'h2');
  await clickSquare(page, 'e2');
  await waitMoves(page, 2);
  await page.selectOption('#notation', 'wxf');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-pgn')]);
  const file = path.join(work, 'game.pgn');
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  assert.match(text, /\[Format "WXF"\]/);
  assert.match(text, /1\. C2\.5 /);
  const read = JSON.parse(execFileSync(bookBuilder, ['read', '--json', file], { encoding: 'utf8' }).split('\n')[0]);
  const game = read.games ? read.games[0] : read;
  assert.deepEqual(game.moves.slice(0, 1), ['C2.5']);
  assert.equal(game.iccs[0], 'h2e2');
  assert.equal(game.iccs.length, 2);
  await page.context().close();
});

test('a game file is loaded into the analysis board', async () => {
  const page = await open('en-US', '#analyse');
  const pgn = '[Event "Test"]\n[Red "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1-0\n';
  await page.setInputFiles('#load-file', { name: 'test.pgn', mimeType: 'text/plain', buffer: Buffer.from(pgn) });
  await waitMoves(page, 4, '#moves-analyse');
  assert.match(await page.textContent('#loaded-games'), /A – B 1-0/);
  await page.click('#moves-analyse .mv[data-index="1"]');
  await page.waitForFunction(() => document.querySelector('#fen').value.startsWith('rnbakab1r/9/1c4nc1/'));
  await page.context().close();
});

test('analysis streams lines with scores; the language switches to Chinese', async () => {
  const page = await open('en-US', '#analyse');
  await page.selectOption('#multipv', '2');
  await page.selectOption('#seconds', '5');
  await page.click('#analyse');
  await page.waitForFunction(() => document.querySelectorAll('#lines tr').length === 2, null, { timeout: 20000 });
  await page.waitForFunction(() => document.querySelector('#lines td.pv').textContent.length > 8);
  assert.ok(!(await page.isHidden('#eval-bar')));
  await page.waitForSelector('#books td.move');
  await page.screenshot({ path: path.join(shots, 'analyse.png') });
  await page.click('#language');
  assert.equal(await page.textContent('#tab-play'), '对弈');
  assert.equal(await page.textContent('#tab-analyse'), '分析');
  await page.click('#analyse');
  await page.click('#tab-play');
  await newGame(page);
  assert.match(await page.textContent('#status'), /轮到您走/);
  await clickSquare(page, 'h2');
  await clickSquare(page, 'e2');
  await waitMoves(page, 2);
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'play-zh.png') });
  await page.context().close();
});

test('a Chinese browser opens in Chinese; a game with a clock shows both clocks', async () => {
  const page = await open('zh-CN');
  assert.equal(await page.textContent('#tab-play'), '对弈');
  await newGame(page, { side: 'black', clock: '5+0' });
  await waitMoves(page, 1);
  assert.equal(await page.locator('#clock-bottom').getAttribute('data-side'), 'black');
  assert.match(await page.textContent('#clock-bottom'), /^[45]:\d\d$/);
  assert.ok(await page.locator('#clock-bottom').evaluate((e) => e.classList.contains('running')));
  await page.context().close();
});

test('the explorer: three book moves descended match book-builder probe', async () => {
  const page = await open('en-US', '#analyse');
  const sequence = [];
  for (let i = 0; i < 3; i += 1) {
    // The books drawn for this position (until then the previous position's are shown, and a
    // click on them plays nothing; the line has grown before they are asked for).
    await page.waitForFunction(() => {
      const { explorer } = window.chariot.analyse;
      return explorer.current() && document.querySelectorAll('#books td.move').length > 0;
    });
    const first = page.locator('#books table').first().locator('td.move').first();
    const before = await page.evaluate(() => window.chariot.analyse.line.length);
    await first.click();
    await page.waitForFunction((n) => window.chariot.analyse.line.length === n + 1, before);
    sequence.push(await page.evaluate(() => window.chariot.analyse.line.at(-1)));
  }
  await page.waitForFunction(
    (n) => window.chariot.analyse.explorer.asked && document.querySelectorAll('#books td.move').length > 0 && window.chariot.analyse.here.line.length === n,
    sequence.length,
  );
  // The numbers shown are book-builder's for the same position and book.
  const shown = await page.evaluate(async () => {
    const { fen, moves } = window.chariot.analyse.position();
    return (await (await fetch(`/api/book?fen=${encodeURIComponent(fen)}&moves=${moves.join('%20')}`)).json()).moves;
  });
  const probe = execFileSync(bookBuilder, ['probe', '--json', '--moves', ...sequence], { encoding: 'utf8' })
    .trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(shown.map((m) => [m.move, m.games, m.red_wins, m.draws, m.black_wins]),
    probe.map((m) => [m.move, m.games, m.red_wins, m.draws, m.black_wins]));
  const firstRow = await page.locator('#books table').first().locator('tr').first().textContent();
  assert.ok(firstRow.includes(probe[0].games.toLocaleString('en-US')), firstRow);
  await page.context().close();
});

test('the explorer: a move of the book shown for another position plays nothing', async () => {
  const page = await open('en-US', '#analyse');
  await page.selectOption('#notation', 'iccs');
  const drawn = (n) => page.waitForFunction((k) => {
    const { explorer, here } = window.chariot.analyse;
    return explorer.current() && here.line.length === k
      && document.querySelectorAll('#books td.move').length > 0;
  }, n);
  const firstMove = () => page.locator('#books table').first().locator('td.move').first();
  // Two book moves: the books shown are then for Red to move again.
  for (const n of [0, 1]) {
    await drawn(n);
    await firstMove().click();
    await page.waitForFunction((k) => window.chariot.analyse.line.length === k, n + 1);
  }
  await drawn(2);
  const stale = await page.evaluate(() => window.chariot.analyse.position().moves);
  // Back to the start with the book's answer held back: the table shown is still the one for
  // two plies on, whose first move is legal at the start too.
  const release = await holdBack(page, '**/api/book?**');
  // The explorer knows at once that what it shows is no longer the board's position (before the
  // position, and then the books, are asked for): the cause of a flaky test before.
  assert.equal(await page.evaluate(() => {
    window.chariot.analyse.goTo(-1);
    return window.chariot.analyse.explorer.current();
  }), false);
  await page.waitForFunction(() => window.chariot.analyse.here.line.length === 0);
  const move = await firstMove().textContent();
  assert.ok(await page.evaluate((m) => window.chariot.analyse.here.legal.includes(m), move), move);
  await firstMove().click();
  await page.waitForTimeout(300);
  assert.deepEqual(await page.evaluate(() => window.chariot.analyse.line), stale);
  assert.equal(await page.evaluate(() => window.chariot.analyse.index), -1);
  // Once the start's books are drawn, its moves play.
  release();
  await drawn(0);
  await page.unroute('**/api/book?**');
  await firstMove().click();
  await page.waitForFunction(() => window.chariot.analyse.index === 0);
  await page.context().close();
});

test('the explorer: a game from the database is opened and stepped through', async () => {
  const page = await open('en-US', '#analyse');
  // The default database is built from the shipped collections on the server's first start.
  await databaseReady();
  await page.click('.subtab[data-pane="games"]');
  await page.fill('#f-player', '胡榮華');
  await page.selectOption('#f-color', 'red');
  await page.click('#games-filter button[type="submit"]');
  // Every game listed has him as Red.
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('#games-list tr')];
    return rows.length > 0 && rows.every((r) => /^[^–]*胡榮華[^–]* –/.test(r.cells[0].textContent));
  });
  await page.locator('#games-list tr').first().click();
  await page.waitForFunction(() => document.querySelectorAll('#moves-analyse .mv[data-index]').length > 10);
  assert.equal(await page.evaluate(() => window.chariot.analyse.index), -1);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => window.chariot.analyse.index === 1);
  await page.waitForSelector('#moves-analyse .mv.current[data-index="1"]');
  await page.waitForFunction(() => window.chariot.analyse.here?.line.length === 2);
  // One step on and back at once, the step's position answered last: the board stays at ply 1.
  const plies = (n) => (u) => u.pathname === '/api/position' && u.searchParams.get('moves').split(' ').length === n;
  const answered = (n) => page.waitForResponse((r) => plies(n)(new URL(r.url())));
  const step = plies(3);
  const release = await holdBack(page, step);
  const back = answered(2);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await back;
  assert.equal(await page.evaluate(() => window.chariot.analyse.index), 1);
  const late = answered(3);
  release();
  await late;
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.chariot.analyse.here.line.length), 2);
  await page.unroute(step);
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'explorer.png') });
  await page.context().close();
});

test('the explorer: a tablebase position and its line played to mate', async () => {
  const page = await open('en-US', '#analyse');
  await page.waitForFunction(() => window.chariot.analyse.here);
  await page.fill('#fen', '4k4/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 1');
  await page.click('#set-fen');
  await page.click('.subtab[data-pane="tables"]');
  await page.waitForFunction(() => /^win · mates in \d+ plies/.test(document.querySelector('#tb-value').textContent));
  assert.ok((await page.locator('#tb-moves .badge.win').count()) > 0);
  await page.click('#tb-line');
  await page.waitForFunction(() => /Red wins: (checkmate|stalemate)/.test(document.querySelector("#position-status").textContent));
  await page.context().close();
});

test('the tablebase pages: a table\'s counts and histogram, a longest mate analysed', async () => {
  const page = await open();
  await page.click('#tab-tables');
  await page.click('#tables-groups button[data-material="KRKAABB"]');
  await page.waitForSelector('#table-wdl td[data-count="wins"]');
  assert.ok(await page.isHidden('#board'), 'no board on the tables pages');
  const data = await api(page, '/api/tablebases/KRKAABB');
  // The counts shown are the API's, for each side to move.
  for (const side of data.sides) {
    for (const key of ['positions', 'wins', 'draws', 'losses']) {
      const cell = page.locator(`#table-wdl tr[data-side="${side.to_move}"] td[data-count="${key}"]`);
      assert.equal(Number(await cell.getAttribute('data-n')), side[key], `${side.to_move} ${key}`);
      assert.ok((await cell.textContent()).startsWith(side[key].toLocaleString('en-US')), key);
    }
  }
  // One bar per distance with positions, and the file's size.
  const bars = data.sides.reduce((n, s) => n + s.histogram.wins.length + s.histogram.losses.length, 0);
  assert.equal(await page.locator('#table-histogram rect.bar').count(), bars);
  assert.match(await page.textContent('#table-facts'), new RegExp(`KRKAABB\\.egtb.*${data.bytes.toLocaleString('en-US')} bytes`));
  await page.screenshot({ path: path.join(shots, 'tables.png'), fullPage: true });
  // The strong side's longest mate opens in the analysis view with the tables' value.
  const longest = data.sides[0].longest[0];
  assert.equal(longest.plies, data.sides[0].longest_plies);
  await page.locator(`#table-longest tr[data-fen="${longest.fen}"]`).first().click();
  await page.waitForSelector('#view-analyse:not([hidden])');
  await page.waitForFunction((fen) => document.querySelector('#fen').value === fen, longest.fen);
  await page.waitForFunction(
    (n) => document.querySelector('#tb-value').textContent === `win · mates in ${n} plies`,
    longest.plies,
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** `text` in GBK (the browser decodes GBK but cannot encode it: the table is built backwards). */
function gbk(text) {
  const decoder = new TextDecoder('gbk');
  const table = new Map();
  for (let lead = 0x81; lead <= 0xfe; lead += 1) {
    for (let trail = 0x40; trail <= 0xfe; trail += 1) {
      if (trail === 0x7f) continue;
      const ch = decoder.decode(new Uint8Array([lead, trail]));
      if (ch.length === 1 && ch !== '\ufffd' && !table.has(ch)) table.set(ch, [lead, trail]);
    }
  }
  const bytes = [];
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) bytes.push(ch.charCodeAt(0));
    else if (table.has(ch)) bytes.push(...table.get(ch));
    else throw new Error(`${ch} is not in GBK`);
  }
  return Buffer.from(bytes);
}

/** Waits until the default game database has been built (on the server's first start). */
async function databaseReady() {
  const probe = `${base}api/games?fen=${encodeURIComponent('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1')}&limit=1`;
  for (let waited = 0; !(await fetch(probe)).ok; waited += 1) {
    assert.ok(waited < 240, 'the default game database was not built in 2 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
}

test('the explorer: a GBK game file is uploaded and counted, and a book built from it is played against', async () => {
  const page = await open('en-US', '#analyse');
  await databaseReady();
  // The pane's first, unfiltered answer is held back until the filtered one has been drawn: a
  // late answer to an earlier request must not overwrite a later one's (on a slow machine the
  // whole database's answer came last, and the test failed on CI).
  const unfiltered = (u) => u.pathname === '/api/games' && !u.searchParams.has('player');
  const release = await holdBack(page, unfiltered);
  await page.click('.subtab[data-pane="games"]');
  await page.fill('#f-player', '测试棋手甲');
  await page.click('#games-filter button[type="submit"]');
  await page.waitForFunction(() => /^0 games/.test(document.querySelector('#games-total').textContent));
  const late = page.waitForResponse((r) => unfiltered(new URL(r.url())));
  release();
  await late;
  await page.waitForTimeout(300);
  assert.match(await page.locator('#games-total').textContent(), /^0 games/);
  await page.unroute(unfiltered);
  // Two games in Chinese notation, GBK-encoded; the second has an illegal move at ply 2.
  const games = [
    '[Event "浏览器测试"]\n[Date "2025.01.02"]\n[Red "测试棋手甲"]\n[Black "测试棋手乙"]\n[Result "1-0"]\n\n'
      + '1. 炮二平五 马8进7 2. 马二进三 车9平8 1-0\n',
    '[Event "浏览器测试"]\n[Date "2025.01.03"]\n[Red "测试棋手甲"]\n[Black "测试棋手丙"]\n[Result "0-1"]\n\n'
      + '1. 炮二平五 车9进5 0-1\n',
  ].join('\n');
  await page.setInputFiles('#upload-files', {
    name: 'gbk-games.pgn', mimeType: 'application/octet-stream', buffer: gbk(games),
  });
  await page.waitForFunction(
    () => /gbk-games\.pgn \(PGN, GB18030\): 2 read, 1 new, 0 already there, 1 rejected/
      .test(document.querySelector('#upload-status').textContent),
    null, { timeout: 30000 },
  );
  assert.match(await page.locator('#upload-rejections').textContent(), /game 2, line \d+, ply 2/);
  // Counted in the explorer at once.
  await page.waitForFunction(() => /^1 game reached/.test(document.querySelector('#games-total').textContent));
  assert.match(await page.locator('#games-list tr').first().textContent(), /测试棋手甲 – 测试棋手乙/);
  // The file has no ratings: a minimum rating leaves no game; the order changes nothing else.
  await page.fill('#f-min-elo', '2000');
  await page.click('#games-filter button[type="submit"]');
  await page.waitForFunction(() => /^0 games/.test(document.querySelector('#games-total').textContent));
  await page.fill('#f-min-elo', '');
  await page.selectOption('#f-order', 'rating');
  await page.waitForFunction(() => /^1 game reached/.test(document.querySelector('#games-total').textContent));
  // The same file again adds nothing.
  await page.setInputFiles('#upload-files', {
    name: 'gbk-games.pgn', mimeType: 'application/octet-stream', buffer: gbk(games),
  });
  await page.waitForFunction(
    () => /2 read, 0 new, 1 already there, 1 rejected/.test(document.querySelector('#upload-status').textContent),
    null, { timeout: 30000 },
  );
  // A book from the filter: named after it, with the one game's four positions.
  await page.click('#compile');
  await page.waitForSelector('#compile-done:not([hidden])', { timeout: 30000 });
  assert.match(await page.locator('#compile-status').textContent(), /Book “测试棋手甲”: 1 game, 4 positions/);
  const href = await page.locator('#book-download').getAttribute('href');
  const size = await page.evaluate(async (u) => (await (await fetch(u)).arrayBuffer()).byteLength, href);
  assert.ok(size > 64, `the book downloads (${size} bytes)`);
  await page.locator('#games-build').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shots, 'build.png') });
  // In the book pane beside the built-in book.
  await page.click('.subtab[data-pane="book"]');
  await page.waitForFunction(() => [...document.querySelectorAll('#books h4')].some((h) => /测试棋手甲 · built here/.test(h.textContent)));
  // Played against at once: as Black, the engine opens with the book's only move.
  await page.click('.subtab[data-pane="games"]');
  await page.click('#book-play');
  await page.waitForSelector('#view-play:not([hidden])');
  assert.equal(await page.locator('#new-book').inputValue(), '测试棋手甲');
  await newGame(page, { side: 'black', level: '5' });
  const engine = await page.evaluate(() => window.chariot.play.game.engine);
  assert.deepEqual([engine.source, engine.move], ['book', 'h2e2']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Issue 47: the faults a player met, each shown here as the player meets it.

test('a click lands on the point under the pointer when the board moves (clocks, score bar, views)', async () => {
  const page = await open('en-US', '', DESKTOP);
  // The clocks appear above the board when the game starts: the board moves down.
  await newGame(page, { clock: '5+0' });
  assert.ok(await page.isVisible('#clock-top'));
  await clickSquare(page, 'h2');
  assert.equal(await selected(page), 'h2', 'the cannon, clicked after the clocks appeared');
  await clickSquare(page, 'e2');
  await waitMoves(page, 2);
  // A smaller window (the board library measures the board again on a resize), then Analyse:
  // the clocks go and the board moves up.
  await page.setViewportSize({ width: 1280, height: 760 });
  await page.click('#tab-analyse');
  await page.waitForFunction(() => window.chariot.analyse.here?.line.length === 0);
  await clickSquare(page, 'b0');
  assert.equal(await selected(page), 'b0', 'the horse, clicked in Analyse after a game with a clock');
  await clickSquare(page, 'c2');
  await page.waitForFunction(() => window.chariot.analyse.here?.line.length === 1);
  // The score bar appears beside the board, which moves right: a click on the right part of
  // a piece (still on the piece) is a click on that piece.
  await page.selectOption('#multipv', '1');
  await page.selectOption('#seconds', '5');
  await page.click('#analyse');
  await page.waitForSelector('#eval-bar:not([hidden])', { timeout: 20000 });
  const right = { x: 0.85, y: 0.5 };
  await clickSquare(page, 'h9', right);
  assert.equal(await selected(page), 'h9', 'the horse, clicked on its right with the score bar shown');
  await clickSquare(page, 'g7', right);
  await page.waitForFunction(() => window.chariot.analyse.here?.line.length === 2);
  assert.deepEqual(await page.evaluate(() => window.chariot.analyse.line), ['b0c2', 'h9g7']);
  // Back to the game: the score bar goes, the clocks come back.
  await page.click('#tab-play');
  assert.ok(await page.isHidden('#eval-bar'));
  await clickSquare(page, 'b0', { x: 0.15, y: 0.2 });
  assert.equal(await selected(page), 'b0', 'the horse, clicked back in the game');
  await clickSquare(page, 'c2', { x: 0.15, y: 0.8 });
  await waitMoves(page, 4);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an analysis that ended or was stopped leaves nothing on later positions', async () => {
  const page = await open('en-US', '#analyse', DESKTOP);
  await page.waitForFunction(() => window.chariot.analyse.here);
  await page.selectOption('#multipv', '2');
  await page.selectOption('#seconds', '5');
  const analysed = async () => {
    await page.click('#analyse');
    await page.waitForFunction(
      // An arrow for each line (analysis.test.mjs).
      () => document.querySelectorAll('#lines tr').length === 2 && document.querySelectorAll('.cg-shapes line').length === 2,
      null, { timeout: 20000 },
    );
    assert.ok(await page.isVisible('#eval-bar'));
  };
  // Nothing of the analysis is left: no line, no arrow (chessground draws on the next frame),
  // no score bar.
  const cleared = async (what) => {
    await page.waitForFunction(
      () => !document.querySelector('#lines tr') && !document.querySelector('.cg-shapes line')
        && document.querySelector('#eval-bar').hidden,
      null, { timeout: 3000 },
    ).catch(() => {});
    assert.equal(await page.locator('#lines tr').count(), 0, `${what}: the lines`);
    assert.equal(await page.locator('.cg-shapes line').count(), 0, `${what}: the arrow`);
    assert.ok(await page.isHidden('#eval-bar'), `${what}: the score bar`);
  };
  // Stopped, then a move on the board.
  await analysed();
  await page.click('#analyse');
  await clickSquare(page, 'h2');
  await clickSquare(page, 'e2');
  await page.waitForFunction(() => window.chariot.analyse.here.line.length === 1);
  await cleared('after a move');
  // Ended by itself, then a game file loaded.
  await analysed();
  await page.waitForFunction(() => /analysis finished/.test(document.querySelector('#analysis-summary').textContent), null, { timeout: 20000 });
  const pgn = '[Event "Test"]\n[Red "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. 炮二平五 马８进７ 2. 马二进三 1-0\n';
  await page.setInputFiles('#load-file', { name: 'test.pgn', mimeType: 'text/plain', buffer: Buffer.from(pgn) });
  await page.waitForFunction(() => window.chariot.analyse.here.line.length === 3);
  await cleared('after a game file was loaded');
  // Stopped, then a position opened from the tablebase pages.
  await analysed();
  await page.click('#analyse');
  await page.click('#tab-tables');
  await page.click('#tables-groups button[data-material="KRKAABB"]');
  const longest = page.locator('#table-longest tr[data-fen]').first();
  const fen = await longest.getAttribute('data-fen');
  await longest.click();
  await page.waitForFunction((f) => window.chariot.analyse.here?.fen === f, fen);
  await cleared('after a position from the tables');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the last move and a check are marked over the pieces, and the game says check', async () => {
  const page = await open('en-US', '', DESKTOP);
  await newGame(page);
  await clickSquare(page, 'h2');
  await clickSquare(page, 'e2');
  await waitMoves(page, 2);
  // The engine's move ends on a piece: its mark shows around and over it.
  const reply = await page.evaluate(() => window.chariot.play.game.moves[1].iccs);
  const last = await markPixels(page, reply.slice(2), 'last-move');
  assert.ok(last.changed > last.total / 20, `the last move's mark changes ${last.changed} of ${last.total} pixels`);
  // Black (the person) in check by a chariot: the status says so, the general is marked.
  await newGame(page, { side: 'black', start: 'fen', fen: '3k5/4a4/9/9/9/9/9/9/3R5/4K4 b - - 0 1' });
  assert.equal(await page.textContent('#status'), 'Your move (Black) · check');
  const check = await markPixels(page, 'd9', 'check');
  assert.ok(check.changed > check.total / 20, `the check's mark changes ${check.changed} of ${check.total} pixels`);
  await page.click('#language');
  assert.equal(await page.textContent('#status'), '轮到您走（黑方） · 将军');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a forbidden move is marked as forbidden, not as a legal point, and refused with its reason', async () => {
  const page = await open('en-US', '#analyse', DESKTOP);
  await page.waitForFunction(() => window.chariot.analyse.here);
  await page.fill('#fen', '4k4/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 1');
  await page.click('#set-fen');
  await page.waitForFunction(() => window.chariot.analyse.here.fen.startsWith('4k4/'));
  // Red's chariot checks along the 9th and 8th ranks: checking on h9 again repeats a position
  // by a perpetual check.
  for (const [i, m] of ['h0h9', 'e9e8', 'h9h8', 'e8e9'].entries()) {
    await clickSquare(page, m.slice(0, 2));
    await clickSquare(page, m.slice(2));
    await page.waitForFunction((n) => window.chariot.analyse.here.line.length === n, i + 1);
  }
  await page.click('#play-from-here');
  await page.waitForSelector('#game:not([hidden])');
  await page.waitForFunction(() => window.chariot.play.game?.forbidden.includes('h8h9'));
  await clickSquare(page, 'h8');
  await page.waitForSelector('.cg-custom-svgs .forbidden');
  // The forbidden point has a mark of its own on h9, and no legal point's.
  const near = (r, p) => Math.abs(r.x + r.width / 2 - p.x) < 3 && Math.abs(r.y + r.height / 2 - p.y) < 3;
  const h9 = await squarePoint(page, 'h9');
  const marks = await page.locator('.cg-custom-svgs .forbidden').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  assert.equal(marks.length, 1);
  assert.ok(near(marks[0], h9), `the forbidden mark is on h9: ${JSON.stringify(marks[0])}`);
  const dests = await page.locator('cg-board square.move-dest').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  const playable = await page.evaluate(() => window.chariot.play.game.playable.filter((m) => m.startsWith('h8')).length);
  assert.equal(dests.length, playable);
  assert.ok(!dests.some((r) => near(r, h9)), 'h9 is not shown as a legal point');
  // A click on it is refused with the reason.
  await clickSquare(page, 'h9');
  await page.waitForSelector('#toast.error:not([hidden])');
  assert.match(await page.textContent('#toast'), /forbidden: it repeats a position by a perpetual check or chase/);
  assert.equal(await moveCount(page), 4);
  assert.equal(await page.locator('.cg-custom-svgs .forbidden').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a Start that fails keeps the game in progress and says why', async () => {
  const page = await open('en-US', '', DESKTOP);
  await newGame(page);
  await clickSquare(page, 'h2');
  await clickSquare(page, 'e2');
  await waitMoves(page, 2);
  const id = await page.evaluate(() => window.chariot.play.game.id);
  // A new game as Black from a FEN with a mistake in it.
  await page.selectOption('#new-side', 'black');
  await page.selectOption('#new-start', 'fen');
  await page.fill('#new-fen', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1');
  await page.click('#start');
  await page.waitForSelector('#toast.error:not([hidden])');
  assert.match(await page.textContent('#toast'), /invalid FEN/);
  await page.waitForFunction(() => !window.chariot.play.busy);
  // The game goes on, on the server and on the page, the board still turned for Red.
  const status = await page.evaluate(async (g) => (await fetch(`/api/play/${g}`)).status, id);
  assert.equal(status, 200, 'the game is still on the server');
  assert.equal(await page.evaluate(() => window.chariot.play.game.id), id);
  assert.equal(await page.evaluate(() => window.chariot.board.orientation), 'white');
  await clickSquare(page, 'b0');
  await clickSquare(page, 'c2');
  await waitMoves(page, 4);
  // A new game that starts closes the old one.
  await page.selectOption('#new-start', 'initial');
  await page.click('#start');
  await page.waitForFunction((g) => window.chariot.play.game.id !== g && !window.chariot.play.busy, id);
  const closed = await page.evaluate(async (g) => (await fetch(`/api/play/${g}`)).status, id);
  assert.equal(closed, 404, 'the old game is closed once the new one is made');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a draw offered at the start is declined, at the weakest level and at the strongest', async () => {
  const page = await open('en-US', '', DESKTOP);
  for (const [side, level] of [['red', '1'], ['black', '1'], ['red', '10'], ['black', '10']]) {
    await newGame(page, { side, level });
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/draw')),
      page.click('#draw'),
    ]);
    assert.equal((await answer.json()).accepted, false, `level ${level}, the person ${side}`);
    await page.waitForFunction(() => !window.chariot.play.busy);
    assert.match(await page.textContent('#toast'), /Chariot declines the draw/);
    assert.equal(await page.locator('#status.over').count(), 0);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the phone: no sideways scroll, the board across the screen, the game under it, played by taps', async () => {
  const page = await open('en-US', '', PHONE);
  const width = 390;
  const fits = async (what) => {
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= width, `${what}: the page is ${scroll} px wide`);
  };
  const box = (selector) => page.locator(selector).boundingBox();
  await fits('the new game form');
  // The tabs on one line, each word on one line.
  const tabs = await page.locator('.tab').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  assert.ok(tabs.every((r) => r.top === tabs[0].top && r.height < 40), `the tabs: ${JSON.stringify(tabs)}`);
  // The board across the screen.
  const board = await box('#board cg-board');
  assert.ok(board.x >= 0 && board.x + board.width <= width && board.width >= width - 24, `the board: ${JSON.stringify(board)}`);
  // A game with a clock, played by taps.
  await newGame(page, { clock: '10+5' });
  await fits('a game with a clock');
  await tapSquare(page, 'h2');
  await waitCount(page, 'cg-board square.move-dest', 12);
  await tapSquare(page, 'e2');
  await waitMoves(page, 2);
  // The game's buttons right under the board, on the first screen; the new game form below.
  const under = (await box('#board cg-board')).y + board.height;
  for (const id of ['#status', '#takeback', '#hint', '#draw', '#resign']) {
    const b = await box(id);
    assert.ok(b.y >= under && b.y + b.height <= 844, `${id} is on the first screen under the board: ${JSON.stringify(b)}`);
  }
  assert.ok((await box('#new-game')).y > (await box('#resign')).y, 'the new game form is under the game');
  // The page as it opens (a click of the test scrolled it to reach Start).
  await page.evaluate(() => window.scrollTo(0, 0));
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'play-phone.png') });
  // Analysis: the score bar takes no width from the board, and taps still land.
  await page.tap('#tab-analyse');
  await page.waitForFunction(() => window.chariot.analyse.here);
  await page.selectOption('#seconds', '5');
  await page.tap('#analyse');
  await page.waitForSelector('#eval-bar:not([hidden])', { timeout: 20000 });
  await fits('the analysis');
  assert.ok((await box('#board cg-board')).width >= width - 24, 'the board keeps its width beside the score bar');
  await tapSquare(page, 'b0');
  await tapSquare(page, 'c2');
  await page.waitForFunction(() => window.chariot.analyse.here?.line.length === 1);
  await page.waitForSelector('#eval-bar:not([hidden])', { timeout: 20000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'analyse-phone.png') });
  await databaseReady();
  await page.tap('.subtab[data-pane="games"]');
  await page.waitForSelector('#games-list tr');
  await fits('the games of the explorer');
  await page.tap('#tab-tables');
  await page.tap('#tables-groups button[data-material="KRKAABB"]');
  await page.waitForSelector('#table-wdl td[data-count="wins"]');
  await fits('a table\'s page');
  await page.tap('#language');
  await page.tap('#tab-play');
  await fits('in Chinese');
  const tabsZh = await page.locator('.tab').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  assert.ok(tabsZh.every((r) => r.top === tabsZh[0].top && r.height < 40), `the tabs in Chinese: ${JSON.stringify(tabsZh)}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Issue 47, fault 9: the address. Back left the app, an edited address did nothing until a
// reload, a reload lost the analysis board, nothing could be shared by link, and two tabs of one
// game went their own ways.

/** The view shown (`play`, `analyse`, `tables`), by what is visible. */
const shownView = (page) => page.evaluate(() => ['play', 'analyse', 'tables']
  .filter((v) => !document.getElementById(`view-${v}`).hidden));

const hash = (page) => page.evaluate(() => window.location.hash);

test('Back and Forward move between views and tables; an address edited by hand is followed', async () => {
  const page = await open('en-US', '', DESKTOP);
  await page.waitForFunction(() => window.location.hash === '#play');
  await page.click('#tab-analyse');
  await page.waitForFunction(() => window.chariot.analyse.here);
  assert.equal(await hash(page), '#analyse');
  await page.click('#tab-tables');
  await page.click('#tables-groups button[data-material="KRKN"]');
  await page.waitForSelector('#table-wdl td[data-count="wins"]');
  assert.equal(await hash(page), '#tables/KRKN');
  // Back: the list of tables, the analysis board, the game form; Forward: the analysis board.
  await page.goBack();
  await page.waitForFunction(() => document.getElementById('table-page').hidden);
  assert.deepEqual([await hash(page), await shownView(page)], ['#tables', ['tables']]);
  await page.goBack();
  assert.deepEqual([await hash(page), await shownView(page)], ['#analyse', ['analyse']]);
  await page.goBack();
  assert.deepEqual([await hash(page), await shownView(page)], ['#play', ['play']]);
  await page.goForward();
  assert.deepEqual([await hash(page), await shownView(page)], ['#analyse', ['analyse']]);
  // An address typed in: a table's page, then a position with a move played from it.
  await page.evaluate(() => { window.location.hash = '#tables/krkaabb'; });
  await page.waitForFunction(() => /KRKAABB/.test(document.getElementById('table-title').textContent));
  assert.deepEqual(await shownView(page), ['tables']);
  await page.evaluate(() => { window.location.hash = '#analyse/3k5/9/9/9/9/9/9/9/4R4/4K4_w_-_-_0_1/e1d1'; });
  await page.waitForFunction(() => window.chariot.analyse.here?.line.length === 1);
  assert.deepEqual(await shownView(page), ['analyse']);
  assert.match(await page.textContent('#position-status'), /Red wins: checkmate/);
  // Back from there: the table's page again.
  await page.goBack();
  await page.waitForFunction(() => !document.getElementById('view-tables').hidden);
  assert.equal(await hash(page), '#tables/KRKAABB');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a reload keeps the analysis board: its position, its line and the move looked at', async () => {
  const page = await open('en-US', '#analyse', DESKTOP);
  await page.waitForFunction(() => window.chariot.analyse.here);
  for (const [i, m] of ['h2e2', 'h9g7', 'h0g2'].entries()) {
    await clickSquare(page, m.slice(0, 2));
    await clickSquare(page, m.slice(2));
    await page.waitForFunction((n) => window.chariot.analyse.here?.line.length === n, i + 1);
  }
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => window.chariot.analyse.here?.line.length === 2);
  assert.equal(await hash(page), '#analyse/start/h2e2,h9g7,h0g2/2');
  const fen = await page.evaluate(() => window.chariot.analyse.here.fen);
  await page.reload();
  await page.waitForFunction(() => window.chariot.analyse?.here);
  assert.deepEqual(await page.evaluate(() => [window.chariot.analyse.line, window.chariot.analyse.index]),
    [['h2e2', 'h9g7', 'h0g2'], 1]);
  assert.equal(await page.evaluate(() => window.chariot.analyse.here.fen), fen);
  assert.equal(await page.locator('#moves-analyse .mv.current').getAttribute('data-index'), '1');
  // A line that does not play is dropped and said to be wrong; the position stays.
  await page.evaluate(() => { window.location.hash = '#analyse/start/h2e2,h2e2'; });
  await page.waitForSelector('#toast.error:not([hidden])');
  await page.waitForFunction(() => window.location.hash === '#analyse');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Share copies a link that opens the same position, or the same finished game', async () => {
  const context = await browser.newContext({ ...DESKTOP, locale: 'en-US' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e));
  await page.goto(`${base}#analyse`);
  await page.waitForFunction(() => window.chariot?.analyse.here);
  await page.fill('#fen', '4k4/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 1');
  await page.click('#set-fen');
  await page.waitForFunction(() => window.chariot.analyse.here.fen.startsWith('4k4/'));
  await clickSquare(page, 'h0');
  await clickSquare(page, 'h9');
  await page.waitForFunction(() => window.chariot.analyse.here.line.length === 1);
  const shared = async () => {
    await page.click('#share');
    await page.waitForSelector('#toast:not([hidden])');
    assert.match(await page.textContent('#toast'), /Link copied/);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.inputValue('#share-link'));
    return copied;
  };
  const opened = async (link, device = DESKTOP, locale = 'en-US') => {
    const other = await (await browser.newContext({ ...device, locale })).newPage();
    await other.goto(link);
    await other.waitForFunction(() => window.chariot?.analyse.here);
    return other;
  };
  const link = await shared();
  assert.equal(link, `${base}#analyse/4k4/9/9/9/9/9/9/9/4A4/3AK2R1_w_-_-_0_1/h0h9`);
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'share.png') });
  // Opened on a phone, in Chinese.
  const other = await opened(link, PHONE, 'zh-CN');
  await other.waitForFunction(() => document.querySelectorAll('#moves-analyse .mv[data-index]').length === 1);
  await settled(other);
  await other.screenshot({ path: path.join(shots, 'share-phone-zh.png') });
  assert.deepEqual(await other.evaluate(() => [window.chariot.analyse.here.fen, window.chariot.analyse.line]),
    await page.evaluate(() => [window.chariot.analyse.here.fen, window.chariot.analyse.line]));
  await other.context().close();
  // A game resigned after two moves: the link opens the whole game, at its end.
  await page.click('#tab-play');
  await newGame(page);
  await clickSquare(page, 'h2');
  await clickSquare(page, 'e2');
  await waitMoves(page, 2);
  page.once('dialog', (d) => d.accept());
  await page.click('#resign');
  await page.waitForFunction(() => document.querySelector('#status').classList.contains('over'));
  const game = await page.evaluate(() => window.chariot.play.game);
  const finished = await opened(await shared());
  assert.deepEqual(await finished.evaluate(() => [window.chariot.analyse.line, window.chariot.analyse.here.fen]),
    [game.moves.map((m) => m.iccs), game.fen]);
  await finished.waitForFunction((n) => document.querySelectorAll('#moves-analyse .mv[data-index]').length === n, game.moves.length);
  await finished.context().close();
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('a game open in two tabs stays one game: the other tab follows, a stale move is refused', async () => {
  const page = await open('en-US', '', DESKTOP);
  await newGame(page);
  const id = await page.evaluate(() => window.chariot.play.game.id);
  assert.equal(await hash(page), `#play/${id}`);
  // The same address in a second tab of this browser, and in another browser (no tab of its
  // own tells it anything).
  const second = await page.context().newPage();
  await second.goto(`${base}#play/${id}`);
  await second.waitForSelector('#game:not([hidden])');
  const elsewhere = await (await browser.newContext(DESKTOP)).newPage();
  await elsewhere.goto(`${base}#play/${id}`);
  await elsewhere.waitForSelector('#game:not([hidden])');
  // A move in the first tab (the person back on it): the second shows it and says the game
  // moved on.
  await page.bringToFront();
  await clickSquare(page, 'h2');
  await clickSquare(page, 'e2');
  await waitMoves(page, 2);
  await waitMoves(second, 2);
  assert.match(await second.textContent('#toast'), /moved on in another tab/);
  // The other browser still shows the start; its move there is refused, and it then shows the
  // game as it stands.
  assert.equal(await moveCount(elsewhere), 0);
  await elsewhere.bringToFront();
  await elsewhere.fill('#move-text', 'h0g2');
  await elsewhere.click('#type-move button');
  await waitMoves(elsewhere, 2);
  assert.match(await elsewhere.textContent('#toast'), /moved on in another tab/);
  const server = await api(page, `/api/play/${id}`);
  assert.deepEqual(server.moves.map((m) => m.iccs), await page.evaluate(() => window.chariot.play.game.moves.map((m) => m.iccs)));
  assert.equal(server.moves.length, 2);
  assert.deepEqual([...page.errors, ...(second.errors || [])], []);
  await elsewhere.context().close();
  await page.context().close();
});

// Issue 47, fault 8: in the Chinese page the server's messages, the book's name, the PGN's
// result comment and the tables' names stayed English or Latin.

test('the Chinese page says the server\'s mistakes, the book, the PGN and the tables in Chinese', async () => {
  const page = await open('zh-CN', '#analyse', DESKTOP);
  await page.waitForFunction(() => window.chariot.analyse.here);
  // A FEN with a short rank, then one whose generals face each other.
  for (const [fen, said] of [
    ['rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1', 'FEN 无效：第 0 行占 8 列，应为 9 列。'],
    ['3k5/9/9/9/9/9/9/9/9/3K5 w - - 0 1', 'FEN 无效：双方将帅在同一条线上照面。'],
  ]) {
    await page.fill('#fen', fen);
    await page.click('#set-fen');
    await page.waitForFunction((s) => document.querySelector('#toast').textContent === s, said);
  }
  // The built-in book's name.
  await page.waitForSelector('#books h4');
  assert.equal(await page.locator('#books h4').first().textContent(), '内置开局库');
  // The tables as players name them.
  await page.click('#tab-tables');
  await page.waitForSelector('#tables-groups button[data-material="KRKN"]');
  const names = await page.evaluate(() => Object.fromEntries(['KRKN', 'KRKAABB', 'KCKABB', 'KPK', 'KAABBK', 'KRBKB', 'KCAAKA']
    .map((m) => [m, document.querySelector(`#tables-groups button[data-material="${m}"]`).textContent])));
  assert.deepEqual(names, {
    KRKN: '单车对单马', KRKAABB: '单车对士象全', KCKABB: '单炮对单缺士', KPK: '单兵对光将',
    KAABBK: '士象全对光将', KRBKB: '车象对单象', KCAAKA: '炮双士对单士',
  });
  const more = await page.evaluate(async () => {
    const { materialName } = await import('/assets/js/material.js');
    return ['KRNKRAB', 'KNNPPKAAB', 'KRRKCCPPP'].map(materialName);
  });
  assert.deepEqual(more, ['车马对车士象', '双马双兵对单缺象', '双车对双炮三兵']);
  await page.click('#tables-groups button[data-material="KRKN"]');
  await page.waitForSelector('#table-wdl td[data-count="wins"]');
  assert.equal(await page.textContent('#table-title'), '单车对单马（4 子）');
  assert.match(await page.textContent('#table-wdl'), /单车走（强方，红方）[\s\S]*单马走（弱方，黑方）/);
  await page.evaluate(() => { document.getElementById('toast').hidden = true; });
  await page.screenshot({ path: path.join(shots, 'tables-zh.png') });
  await page.setViewportSize(PHONE.viewport);
  await page.screenshot({ path: path.join(shots, 'tables-phone-zh.png') });
  await page.setViewportSize(DESKTOP.viewport);
  // A game: a move that is not legal, then resigned: the PGN's words are Chinese.
  await page.click('#tab-play');
  await newGame(page);
  await page.fill('#move-text', 'h2h8');
  await page.click('#type-move button');
  await page.waitForSelector('#toast.error:not([hidden])');
  assert.equal(await page.textContent('#toast'), '这不是合法的着法：着法“h2h8”不合规则。');
  page.once('dialog', (d) => d.accept());
  await page.click('#resign');
  await page.waitForFunction(() => document.querySelector('#status').classList.contains('over'));
  const pgn = await page.evaluate(async () => (await fetch(document.querySelector('#save-pgn').href)).text());
  assert.match(pgn, /\[Event "Chariot 网页对局"\]/);
  assert.match(pgn, /\[Red "棋手"\]\n\[Black "Chariot（第 1 级）"\]/);
  assert.match(pgn, /\{黑方胜：红方认输\} 0-1/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Issue 47: coordinates along the board.

test('coordinates in the frame: each side\'s files in the notation chosen, turning with the board', async () => {
  const page = await open('en-US', '', DESKTOP);
  const labels = async (id) => (await page.locator(`#${id} span`).allTextContents()).join('');
  const edges = async () => [await labels('coords-top'), await labels('coords-bottom'), await labels('coords-left')];
  // Chinese notation: Red's files 九…一 along Red's edge, Black's 1…9 along Black's.
  assert.deepEqual(await edges(), ['123456789', '九八七六五四三二一', '']);
  // Each label stands under its file, in the frame outside the points where pieces stand.
  const board = await page.locator('#board cg-board').boundingBox();
  for (const file of ['a', 'e', 'h']) {
    const label = await page.locator(`#coords-bottom span[data-file="${file}"]`).boundingBox();
    const point = await squarePoint(page, `${file}0`);
    assert.ok(Math.abs(label.x + label.width / 2 - point.x) < 2, `the label of file ${file} is under it`);
    assert.ok(label.y >= board.y + board.height - 1 && label.height >= 10, `the label of file ${file} is outside the board`);
  }
  // Turned: Black's numbers at the bottom, Red's at the top.
  await page.click('#flip');
  assert.deepEqual(await edges(), ['一二三四五六七八九', '987654321', '']);
  await page.selectOption('#notation', 'wxf');
  assert.deepEqual(await edges(), ['123456789', '987654321', '']);
  await page.click('#flip');
  assert.deepEqual(await edges(), ['123456789', '987654321', '']);
  // ICCS: letters along the bottom, ranks up the left, each beside its rank.
  await page.selectOption('#notation', 'iccs');
  assert.deepEqual(await edges(), ['', 'abcdefghi', '9876543210']);
  const rank = await page.locator('#coords-left span[data-rank="2"]').boundingBox();
  assert.ok(Math.abs(rank.y + rank.height / 2 - (await squarePoint(page, 'a2')).y) < 2, 'rank 2 beside its rank');
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'coordinates-iccs.png') });
  await page.click('#flip');
  assert.deepEqual(await edges(), ['', 'ihgfedcba', '0123456789']);
  // A game as Black turns the board and its coordinates.
  await page.click('#flip');
  await page.selectOption('#notation', 'chinese');
  await newGame(page, { side: 'black' });
  assert.deepEqual(await edges(), ['一二三四五六七八九', '987654321', '']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
  // On a phone, in Chinese.
  const phone = await open('zh-CN', '', PHONE);
  await newGame(phone, { side: 'black' });
  assert.equal((await phone.locator('#coords-bottom span').allTextContents()).join(''), '987654321');
  await waitMoves(phone, 1);
  await phone.evaluate(() => window.scrollTo(0, 0));
  await settled(phone);
  await phone.screenshot({ path: path.join(shots, 'coordinates-phone-zh.png') });
  await phone.context().close();
});

// Issue 47: a second piece set, and sounds.

test('the settings: a piece set of letters and the sounds, each remembered', async () => {
  const context = await browser.newContext({ ...DESKTOP, locale: 'en-US' });
  // Every tone the page starts, by its frequency.
  await context.addInitScript(() => {
    window.tones = [];
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function started(...when) {
      window.tones.push(this.frequency.value);
      return start.apply(this, when);
    };
  });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e));
  await page.goto(`${base}#analyse/3k5/9/9/9/4p4/9/9/9/4R4/3A1K3_w_-_-_0_1`);
  await page.waitForFunction(() => window.chariot?.analyse.here);
  const sound = await page.evaluate(async () => {
    const { SOUNDS } = await import('/assets/js/sounds.js');
    return Object.fromEntries(Object.entries(SOUNDS).map(([k, tones]) => [k, tones[0][0]]));
  });
  // Each move on the board is heard: its first tone says which sound it is.
  const heard = async (move, n) => {
    const before = await page.evaluate(() => window.tones.length);
    await clickSquare(page, move.slice(0, 2));
    await clickSquare(page, move.slice(2));
    await page.waitForFunction((k) => window.chariot.analyse.here.line.length === k, n);
    await page.waitForFunction((b) => window.tones.length > b, before, { timeout: 3000 }).catch(() => {});
    return page.evaluate((b) => window.tones[b] ?? null, before);
  };
  assert.equal(await heard('e1e5', 1), sound.capture);
  assert.equal(await heard('d9d8', 2), sound.move);
  assert.equal(await heard('e5d5', 3), sound.check);
  // The end of a game: a mate.
  await page.evaluate(() => { window.location.hash = '#analyse/3k5/9/9/9/9/9/9/9/4R4/4K4_w_-_-_0_1'; });
  await page.waitForFunction(() => window.chariot.analyse.here?.fen.startsWith('3k5/'));
  assert.equal(await heard('e1d1', 1), sound.end);
  // Sounds off: a move is silent.
  await page.click('#settings-button');
  await page.uncheck('#sounds');
  await page.click('#settings-button');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => window.chariot.analyse.here.line.length === 0);
  const silent = await page.evaluate(() => window.tones.length);
  await clickSquare(page, 'e1');
  await clickSquare(page, 'e2');
  await page.waitForFunction(() => window.chariot.analyse.here.line.length === 1);
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => window.tones.length), silent);
  // Letters instead of characters, on the board and in the set-up palette.
  const pictures = () => page.evaluate(() => [
    getComputedStyle(document.querySelector('#board piece.r-piece.white')).backgroundImage,
    document.querySelector('#setup-palette img').getAttribute('src'),
  ]);
  assert.match((await pictures())[0], /\/pieces\/rr\.svg/);
  await page.click('#settings-button');
  await page.selectOption('#pieces', 'letters');
  assert.match((await pictures())[0], /\/pieces\/letters\/rr\.svg/);
  assert.equal((await pictures())[1], '/assets/pieces/letters/rk.svg');
  // Both remembered after a reload.
  await page.reload();
  await page.waitForFunction(() => window.chariot?.analyse.here);
  assert.match((await pictures())[0], /\/pieces\/letters\/rr\.svg/);
  assert.equal(await page.isChecked('#sounds'), false);
  assert.equal(await page.inputValue('#pieces'), 'letters');
  // A game with letters, in English on a desktop and in Chinese on a phone.
  await page.click('#tab-play');
  await newGame(page);
  await clickSquare(page, 'h2');
  await clickSquare(page, 'e2');
  await waitMoves(page, 2);
  await page.click('#settings-button');
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'pieces-letters.png') });
  assert.deepEqual(page.errors, []);
  await context.close();
  const phone = await open('zh-CN', '', PHONE);
  await phone.evaluate(() => localStorage.setItem('chariot.pieces', 'letters'));
  await phone.reload();
  await phone.waitForSelector('#board cg-board piece');
  await phone.tap('#settings-button');
  await settled(phone);
  await phone.screenshot({ path: path.join(shots, 'pieces-letters-phone-zh.png') });
  await phone.context().close();
});

// Issue 47: the player's time control and name, and the games played on this machine.

test('a time control of one\'s own, one\'s name in the PGN, and the past games reopened with a click', async () => {
  const page = await open('en-US', '', DESKTOP);
  await page.click('#settings-button');
  await page.fill('#player-name', 'Ada Tester');
  await page.press('#player-name', 'Enter');
  await page.click('#settings-button');
  // 3 minutes and 7 seconds a move, the server's clock.
  await page.selectOption('#new-clock', 'custom');
  await page.fill('#clock-minutes', '3');
  await page.fill('#clock-increment', '7');
  await page.selectOption('#new-level', '1');
  await page.click('#start');
  await page.waitForFunction(() => window.chariot.play.game && !window.chariot.play.busy);
  const clock = await page.evaluate(() => window.chariot.play.game.clock);
  assert.deepEqual([clock.initial_ms, clock.increment_ms], [180000, 7000]);
  assert.match(await page.textContent('#clock-bottom'), /^(3:00|2:5\d)$/);
  // A move: the server adds the increment to the mover's time.
  await clickSquare(page, 'i0');
  await clickSquare(page, 'i1');
  await waitMoves(page, 2);
  const red = await page.evaluate(() => window.chariot.play.game.clock.red_ms);
  assert.ok(red > 180000 && red <= 187000, `Red's time after a move: ${red} ms`);
  page.once('dialog', (d) => d.accept());
  await page.click('#resign');
  await page.waitForFunction(() => document.querySelector('#status').classList.contains('over'));
  const game = await page.evaluate(() => window.chariot.play.game);
  const pgn = await page.evaluate(async () => (await fetch(document.querySelector('#save-pgn').href)).text());
  assert.match(pgn, /\[Red "Ada Tester"\]/);
  assert.match(pgn, /\[TimeControl "180\+7"\]/);
  // The game is first in the list of past games; a click opens it on the analysis board.
  const first = page.locator('#played-list tr').first();
  await page.waitForFunction(() => /Ada Tester – Chariot \(level 1\)/.test(document.querySelector('#played-list tr')?.textContent));
  assert.match(await first.textContent(), /0-1.*2 plies.*3\+7/);
  await settled(page);
  await page.screenshot({ path: path.join(shots, 'past-games.png') });
  await first.click();
  await page.waitForFunction((n) => window.chariot.view === 'analyse' && window.chariot.analyse.line.length === n, game.moves.length);
  assert.deepEqual(await page.evaluate(() => window.chariot.analyse.line), game.moves.map((m) => m.iccs));
  assert.match(await page.textContent('#loaded-tags'), /Ada Tester – Chariot \(level 1\) · 0-1/);
  // The choices are remembered for the next game.
  await page.reload();
  await page.waitForSelector('#new-level option', { state: 'attached' });
  await page.click('#tab-play');
  assert.deepEqual([await page.inputValue('#new-clock'), await page.inputValue('#clock-minutes'),
    await page.inputValue('#clock-increment'), await page.inputValue('#player-name')], ['custom', '3', '7', 'Ada Tester']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
  // In Chinese on a phone: the form with the player's own clock, and the list.
  const phone = await open('zh-CN', '', PHONE);
  await phone.selectOption('#new-clock', 'custom');
  await phone.locator('#played').scrollIntoViewIfNeeded();
  await phone.waitForSelector('#played-list tr');
  await phone.screenshot({ path: path.join(shots, 'past-games-phone-zh.png') });
  await phone.context().close();
});
