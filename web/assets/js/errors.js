// The server's errors as the page says them (issue 47, fault 8: the Chinese page showed the
// server's English). Every error answer carries a stable `code` and the `params` of its message
// (docs/web-api.md, "Errors"); in Chinese the page says each in its own words, in English it
// shows the server's message. A code the page does not know is said by its kind.

import { current, t } from './i18n.js';
import { materialName } from './material.js';

const SIDES = { red: '红方', black: '黑方' };
const PIECES = { advisor: '士', elephant: '象', soldier: '兵', general: '将', horse: '马', chariot: '车', cannon: '炮' };
const FILTERS = {
  player: '棋手', color: '执子', event: '赛事', since: '起始日期', until: '截止日期', result: '结果', min_elo: '最低等级分',
  theme: '主题', mate_in: '几步杀', difficulty: '难度', source: '来源', offset: '起始位置', limit: '数量',
};

const side = (s) => SIDES[s] ?? s;

/** Why a FEN is no position (`params.reason` and its parts). */
function fenReason(p) {
  switch (p.reason) {
    case 'fen-empty': return 'FEN 是空的';
    case 'fen-ranks': return `棋盘有 ${p.ranks} 行，应为 10 行`;
    case 'fen-rank-width': return `第 ${p.rank} 行占 ${p.files} 列，应为 9 列`;
    case 'fen-char': return `第 ${p.rank} 行有不认识的字符“${p.char}”`;
    case 'fen-turn': return `走子方“${p.text}”无效：红方为 w（或 r），黑方为 b`;
    case 'fen-counter': return `计数“${p.text}”无效：应为非负整数`;
    case 'fen-trailing': return `FEN 之后还有文字“${p.text}”`;
    case 'no-general': return `${side(p.side)}没有将帅`;
    case 'generals': return `${side(p.side)}有 ${p.count} 个将帅`;
    case 'general-outside-palace': return `${side(p.side)}的将帅在 ${p.square}，不在九宫之内`;
    case 'unreachable-square': return `${side(p.side)}的${PIECES[p.piece] ?? p.piece}在 ${p.square}，这是它走不到的位置`;
    case 'too-many-of-kind': return `${side(p.side)}有 ${p.count} 个“${p.letter}”，最多 ${p.max} 个`;
    case 'too-many-pieces': return `${side(p.side)}有 ${p.count} 个棋子，最多 16 个`;
    case 'generals-facing': return '双方将帅在同一条线上照面';
    case 'opposite-in-check': return `${side(p.side)}不走棋却正被将军`;
    case 'shared-square': return `${p.square} 上有两个棋子`;
    default: return '不是合法的局面';
  }
}

/** Why move text is no legal move (`params.move`, `params.reason`). */
function moveReason(p) {
  switch (p.reason) {
    case 'malformed': return `无法识别着法“${p.move}”`;
    case 'no-piece': return `着法“${p.move}”找不到对应的棋子`;
    case 'ambiguous': return `着法“${p.move}”有歧义，可指不止一步棋`;
    case 'inexpressible': return `着法“${p.move}”无法用此记谱法写出`;
    case 'game-over': return `着法“${p.move}”之前对局已经结束`;
    default: return `着法“${p.move}”不合规则`;
  }
}

/** The Chinese words of each code: a sentence, or a function of the parameters. */
const ZH = {
  'invalid-fen': (p) => `FEN 无效：${fenReason(p)}。`,
  'illegal-move': (p) => `${moveReason(p)}。`,
  'illegal-line': (p) => `第 ${p.n} 步：${moveReason(p)}。`,
  'bad-history': (p) => `此前的着法第 ${p.n} 步：${moveReason(p)}。`,
  'forbidden-move': () => t('forbidden'),
  'not-your-turn': '现在轮到 Chariot 走棋。',
  'game-over': '对局已经结束。',
  'time-ran-out': '着法送到之前，您的时间已经用完。',
  'no-hint-now': '只有轮到您走、对局仍在进行时才能提示。',
  'ended-off-board': '对局以认输、议和或超时结束，不能悔棋。',
  'nothing-to-take-back': '您还没有走棋，无棋可悔。',
  'moved-on': () => t('moved.on'),
  'bad-level': (p) => `没有第 ${p.level} 级（1 至 ${p.max} 级）。`,
  'bad-clock-minutes': (p) => `每方 ${p.minutes} 分钟无效：应大于 0，最多 ${p.max} 分钟。`,
  'bad-clock-increment': (p) => `每步加 ${p.increment} 秒无效：应为 0 至 ${p.max} 秒。`,
  'bad-side': '执子方无效：应为红方或黑方。',
  'bad-lang': '语言无效：应为 en 或 zh。',
  'bad-name': (p) => `名字无效：最多 ${p.max} 个字符，不能有控制字符。`,
  'no-played-game': (p) => `没有在此下过的第 ${p.id} 局。`,
  'no-book': (p) => `没有名为“${p.name}”的开局库。`,
  'no-game': () => t('game.gone'),
  'too-many-games': (p) => `服务器已有 ${p.max} 局对局，达到上限；请稍后再试。`,
  'too-many-analyses': (p) => `已有 ${p.max} 个分析在运行，达到服务器的上限；请稍后再试。`,
  'too-many-jobs': (p) => `已有 ${p.max} 个导入、生成或复盘任务在进行，达到上限；请等其中一个结束再试。`,
  'no-job': '没有这个任务（从未开始，或早已结束）。',
  'bad-review-source': '请指明要复盘的一局棋：着法（及起始 FEN）、下过的棋、数据库中的棋或服务器上的对局，只能一种。',
  'review-too-long': (p) => `这局棋有 ${p.plies} 步，复盘最多 ${p.max} 步。`,
  'nothing-to-review': '这局棋没有着法，无从复盘。',
  'no-review': '没有这个复盘（从未开始，或早已结束）。',
  'too-many-reviews': (p) => `已有 ${p.max} 个复盘在进行，达到服务器的上限；请等其中一个结束再试。`,
  'bad-book-name': (p) => `开局库名称“${p.name}”无效：应为 1 至 60 个文字、数字、空格、“-”“_”或“.”（不以“.”开头）。`,
  'no-library': '此服务器不保存生成的开局库。',
  'no-table': (p) => `残局库未收录此子力（${materialName(p.material) ?? p.material}）。`,
  'bad-material': (p) => `“${p.material}”不是子力组合。`,
  'unknown-parameter': (p) => `未知的参数“${p.name}”。`,
  'bad-filter': (p) => `筛选条件“${FILTERS[p.name] ?? p.name}”的值无效。`,
  'no-game-database': '此服务器没有棋谱数据库。',
  'database-building': (p) => `正在用自带的棋谱建立数据库（第 ${p.file}/${p.files} 个文件，已读 ${p.read} 局）；请稍候再试。`,
  'no-stored-game': (p) => `数据库中没有第 ${p.id} 局。`,
  'empty-file': '文件是空的。',
  'no-puzzle': (p) => `没有编号为 ${p.id} 的习题。`,
  'not-solvers-turn': (p) => `走了 ${p.n} 步之后轮到对方，不是解题的一方。`,
  'puzzle-over': (p) => `这道题已经结束：解题方的 ${p.n} 步都已走完。`,
  'no-line': '在搜索的限度内没有找到取胜的走法。',
  'too-many-searches': (p) => `已有 ${p.max} 个习题搜索在运行，达到服务器的上限；请再试一次。`,
  'unreadable-file': '无法按 PGN、DhtmlXQ 或 XQF 读取此文件。',
  // The kinds, for a code without words of its own.
  'bad-request': '请求有误。',
  unprocessable: '无法办到。',
  'not-found': '没有找到。',
  conflict: '现在不能这样做。',
  'too-large': '内容太大。',
  'unsupported-media-type': '内容的类型不对。',
  busy: '服务器繁忙，请稍后再试。',
  'engine-failure': '外部引擎无法启动或出错了。',
  internal: '服务器出错了。',
};

/** What a kind of failure (an HTTP status) is called when the answer has no code. */
const STATUS = { 400: 'bad-request', 404: 'not-found', 409: 'conflict', 413: 'too-large', 415: 'unsupported-media-type', 422: 'unprocessable', 502: 'engine-failure', 503: 'busy' };

/**
 * A server error (`api.js`'s Error: `message`, `status`, `code`, `params`) in the page's
 * language: in English the server's message; in Chinese the code's words.
 */
export function errorText(e) {
  if (current() !== 'zh' || !e) return e?.message ?? '';
  const words = ZH[e.code] ?? ZH[STATUS[e.status]] ?? ZH.internal;
  return typeof words === 'function' ? words(e.params || {}) : words;
}

/** Why a game of a file stops early, from `POST /api/read`'s `error` and `stop`. */
export function stopText(error, stop) {
  if (current() !== 'zh' || !stop) return error;
  return stop.n ? `第 ${stop.n} 步：${moveReason(stop)}` : `FEN 无效：${fenReason(stop)}`;
}

/** The kind of a game refused by an import (`rejections[].kind`), in the page's language. */
export function rejectionKind(kind) {
  if (current() !== 'zh') return kind;
  return {
    'unreadable game': '无法读取的对局',
    'bad start position': '开局局面无效',
    'no moves': '没有着法',
    'unreadable move': '无法识别的着法',
    'move names no piece': '着法找不到对应的棋子',
    'illegal move': '着法不合规则',
    'ambiguous move': '着法有歧义',
  }[kind] ?? '无法导入';
}
