// The interface's words in English and Chinese. The language is the one chosen last (kept in
// localStorage), else the browser's: Chinese for any zh-* language, English otherwise.

const WORDS = {
  en: {
    'tab.play': 'Play', 'tab.analyse': 'Analyse', notation: 'Notation',
    'tab.tables': 'Tables', 'tab.puzzles': 'Puzzles', 'tables.title': 'Endgame tables', 'tables.count': '{n} tables',
    'tables.pieces': '{n} pieces', 'tables.tip': '{positions} positions · {size} · longest mate {plies} plies',
    'tables.loading': 'Reading every position of the table…', 'tables.page': '{material}: {n} pieces',
    'tables.file': 'file {file}, {size} ({bytes} bytes)', 'tables.positions': '{n} positions',
    'tables.longestall': 'longest mate {n} plies', 'tables.nolongest': 'no mate',
    'tables.format': 'format version {version}: {entries} entries per side to move × {width} B, compressed {ratio}:1',
    'tables.rule.judged': 'perpetual check/chase rules judged (they decide nothing here)',
    'tables.rule.decides': 'perpetual check/chase rules judged (they decide some positions)',
    'tables.rule.not-judged': 'perpetual check/chase rules not judged',
    'tables.strong': 'strong side, Red', 'tables.weak': 'weak side, Black',
    'tables.tomove': '{material} to move ({side})', 'tables.side': 'Side to move',
    'tables.col.positions': 'Positions', 'tables.col.wins': 'Wins', 'tables.col.draws': 'Draws',
    'tables.col.losses': 'Losses',
    'tables.rule': 'of these, by the perpetual check/chase rules: {wins} wins, {losses} losses',
    'tables.histogram': 'Positions at each distance to mate (in plies; a ply is one side\'s move)',
    'tables.axis': 'distance to mate (plies)',
    'tables.bar.win': 'mates in {d} plies: {n} positions', 'tables.bar.loss': 'mated in {d} plies: {n} positions',
    'tables.longest': 'Longest mates (click one to analyse it)', 'tables.nomate': 'No position is decided by mate.',
    'tables.open': 'Analyse this position with the endgame tables',
    'tables.bytes': '{n} bytes', 'tables.kib': '{n} KiB', 'tables.mib': '{n} MiB',
    settings: 'Settings', 'set.pieces': 'Pieces', 'set.pieces.characters': 'Chinese characters (帥 將)',
    'set.pieces.letters': 'Letters (K A E H R C P)', 'set.sounds': 'Sounds (move, capture, check, end)',
    'notation.chinese': 'Chinese', flip: 'Flip board', share: 'Share', 'share.link': 'Link to this position',
    'share.copied': 'Link copied: it opens this position (with its moves) in the analysis board.',
    'share.shown': 'Copy the link shown under the board: it opens this position in the analysis board.',
    'moved.on': 'This game moved on in another tab; here it is as it stands now.',
    'game.gone': 'That game is no longer on the server (closed, or idle too long).',
    'new.title': 'New game', 'new.side': 'You play', 'new.level': 'Level',
    'new.start': 'Start from', 'new.start.initial': 'the usual position', 'new.start.fen': 'a FEN',
    'new.start.setup': 'a position set up on the board', 'new.start.analysis': 'the analysis board',
    'new.clock': 'Clock', 'new.clock.none': 'none', 'new.go': 'Start',
    'new.clock.custom': 'your own…', 'new.clock.minutes': 'minutes each', 'new.clock.increment': 'seconds a move',
    'set.name': "Your name (in the games' PGN)",
    'played.title': 'Your past games', 'played.more': 'More', 'played.plies': '{n} plies', 'played.open': 'Open this game on the analysis board',
    'played.ply': '1 ply',
    'review.button': 'Review', 'review.title': 'Game review', 'review.stop': 'Stop',
    'review.played': 'Review this game: every move judged by the engine',
    'review.asking': 'Asking for the review…',
    'review.running': 'Reviewing… {done} of {total} positions · {secs} s',
    'review.done': '{total} positions reviewed, {nodes} nodes each ({secs} s).',
    'review.cancelled': 'Review stopped after {done} of {total} positions.',
    'review.failed': 'The review failed: {error}',
    'review.side': "Scores and the graph are from Red's side: up is good for Red.",
    'review.inaccuracy': 'Inaccuracy', 'review.mistake': 'Mistake', 'review.blunder': 'Blunder',
    'review.loss': 'Average loss (cp)', 'review.accuracy': 'Accuracy',
    'review.none': 'No inaccuracy, mistake or blunder.',
    'review.here': 'This position: {score}', 'review.forced': 'the only move',
    'review.engine': "the engine's move", 'review.better': 'Better: {move}', 'review.line': 'Line: {line}',
    'review.playline': 'Play the better line',
    'review.graph': "Red's winning chances move by move (a click goes there; a dot to the move it marks)",
    red: 'Red', black: 'Black', takeback: 'Take back', hint: 'Hint', draw: 'Offer draw',
    resign: 'Resign', play: 'Play', typemove: 'Type a move: h2e2, C2.5, 炮二平五',
    save: 'Save PGN', toanalysis: 'Analyse this position', setfen: 'Set',
    startpos: 'Start position', edit: 'Set up', load: 'Load game file', playfromhere: 'Play from here',
    tomove: 'To move', clear: 'Clear', done: 'Done', 'analyse.start': 'Analyse', 'analyse.stop': 'Stop',
    lines: 'Lines', seconds: 'Seconds', book: 'Opening book', tablebase: 'Endgame tables',
    'level.n': 'Level {n}', 'level.desc.1': 'beginner', 'level.desc.top': 'strongest',
    'level.option': 'Level {n} — Elo {elo}', 'level.role': ' ({role})',
    'level.detail': 'Elo {elo} (95%: {lower} to {upper}, {games} games); at most {nodes} nodes a move',
    'level.scale': 'Elo measured in engine matches, on a scale where {engine} at {nodes} nodes a move is {elo}',
    yourmove: 'Your move ({side})', thinking: 'Chariot is thinking…',
    'engine.book': 'Chariot played {move} from its book',
    'engine.tables': 'Chariot played {move} from its endgame tables ({score})',
    'engine.search': "Chariot played {move}: depth {depth}, score {score} (Red's side), {nodes} nodes, {secs} s",
    'result.red': 'Red wins', 'result.black': 'Black wins', 'result.draw': 'Draw',
    'why.checkmate': 'checkmate', 'why.stalemate': 'stalemate (no legal move)',
    'why.perpetual-check': 'perpetual check', 'why.perpetual-chase': 'perpetual chase',
    'why.repetition': 'repetition', 'why.move-limit': '60 moves without a capture',
    'why.resignation': 'resignation', 'why.agreement': 'by agreement', 'why.time': 'on time',
    'draw.accepted': 'Chariot accepts the draw.', 'draw.declined': 'Chariot declines the draw.',
    'hint.move': 'Hint: {move}', 'hint.none': 'No hint: no move.',
    'resign.confirm': 'Resign this game?',
    forbidden: 'That move is forbidden: it repeats a position by a perpetual check or chase (Asian rules).',
    'illegal.because': 'That is not a legal move. ({why})',
    'pos.turn': '{side} to move', 'pos.check': 'check',
    'tb.win': 'win', 'tb.draw': 'draw', 'tb.loss': 'loss', 'tb.dtm': 'mate in {n} plies',
    'tb.none': 'not covered by the tables', 'book.none': 'no book moves',
    'book.games': '{n} games', 'book.game': '1 game', moves: 'Moves', 'moves.none': 'No moves yet.',
    opening: 'Opening', 'opening.eco': 'ECCO code (derived from the master games)',
    'analysis.summary': 'depth {depth} · {nodes} nodes · {nps} nodes/s',
    'analysis.done': 'analysis finished', 'analysis.busy': 'The server is busy; try again shortly.',
    'analysis.time': '{secs} s', 'seconds.infinite': '∞ infinite',
    'analysis.side': "Scores from Red's side: + Red is better, − Black; #3 Red mates in 3, #-3 Black does",
    'score.red-better': 'Red is better by {pawns}', 'score.black-better': 'Black is better by {pawns}',
    'score.even': 'Even', 'score.red-mates': 'Red mates in {n}', 'score.black-mates': 'Black mates in {n}',
    'peek.title': 'Line {n} of {engine}: move {ply} of {of}',
    'peek.keys': '← → step through the line · Esc goes back', 'peek.back': 'Back to the position',
    'peek.prev': 'Previous move', 'peek.next': 'Next move', 'peek.take': 'Play this line',
    'setup.hint': 'Pick a piece below and click squares to place it; click a piece on the board to remove it.',
    'loaded.game': 'Game {n}', 'loaded.error': 'stops early: {error}',
    'file.read': 'Read {n} games ({format}).',
    mate: 'mate in {n}', mated: 'mated in {n}',
    games: 'Games', 'f.player': 'Player', 'f.either': 'either colour', 'f.red': 'as Red',
    'f.black': 'as Black', 'f.event': 'Event', 'f.since': 'from YYYY', 'f.until': 'to YYYY',
    'f.anyresult': 'any result', 'f.apply': 'Filter', 'f.minelo': 'min. rating',
    'f.newest': 'newest first', 'f.rated': 'best rated first',
    'games.total': '{n} games reached this position', 'games.total.one': '1 game reached this position', 'games.ended': '(game ended)',
    'games.plies': '{n} plies', 'games.page': 'page {n} of {of}',
    'tb.playline': 'Play the best line', 'tb.rule': 'decided by the perpetual check/chase rules',
    'tb.mates': 'mates in {n} plies', 'tb.mated': 'mated in {n} plies',
    'new.book': 'Book', 'new.book.default': "Chariot's own", 'book.compiled': 'built here',
    'book.builtin': 'built-in book', 'job.failed': 'failed (a server error)',
    'build.title': 'Your games and books', 'build.upload': 'Import game files…',
    'build.formats': 'PGN, DhtmlXQ or XQF; any encoding; .zst too',
    'build.name': 'Book name', 'build.plies': 'Plies', 'build.compile': 'Build a book from these games',
    'build.download': 'Download the book', 'build.play': 'Play against it',
    'build.reading': '{file}: {n} games read…', 'build.sending': '{file}: sending…',
    'build.imported': '{file} ({format}, {encoding}): {read} read, {imported} new, {duplicates} already there, {rejected} rejected. The database has {total} games.',
    'build.unreadable': '{file}: not a game file ({why})',
    'build.rejection': 'game {game}, line {line}, ply {ply}: {message}',
    'build.compiling': 'Building “{name}”… {secs} s',
    'build.compiled': 'Book “{name}”: {games}, {positions} positions, {entries} moves ({kb} KB). It is in the opening book pane and in the New game form.',
    'build.noname': 'Give the book a name.',
  },
  zh: {
    'tab.play': '对弈', 'tab.analyse': '分析', notation: '记谱',
    'tab.tables': '残局库', 'tab.puzzles': '习题', 'tables.title': '残局库', 'tables.count': '共 {n} 个残局库',
    'tables.pieces': '{n} 子', 'tables.tip': '{positions} 个局面 · {size} · 最长杀棋 {plies} 步（半回合）',
    'tables.loading': '正在读取残局库的全部局面…', 'tables.page': '{material}（{n} 子）',
    'tables.file': '文件 {file}，{size}（{bytes} 字节）', 'tables.positions': '{n} 个局面',
    'tables.longestall': '最长杀棋 {n} 步（半回合）', 'tables.nolongest': '无杀棋',
    'tables.format': '格式版本 {version}：每方走棋 {entries} 个条目 × {width} 字节，压缩比 {ratio}:1',
    'tables.rule.judged': '已按长将、长捉规则判定（此库无局面由此判定）',
    'tables.rule.decides': '已按长将、长捉规则判定（部分局面由此判定）',
    'tables.rule.not-judged': '未按长将、长捉规则判定',
    'tables.strong': '强方，红方', 'tables.weak': '弱方，黑方',
    'tables.tomove': '{material}走（{side}）', 'tables.side': '走子方',
    'tables.col.positions': '局面数', 'tables.col.wins': '胜', 'tables.col.draws': '和',
    'tables.col.losses': '负',
    'tables.rule': '其中按长将、长捉规则判定：胜 {wins}，负 {losses}',
    'tables.histogram': '各杀棋距离的局面数（单位：步，即半回合，一方走一着）',
    'tables.axis': '杀棋距离（步，半回合）',
    'tables.bar.win': '{d} 步（半回合）杀：{n} 个局面', 'tables.bar.loss': '{d} 步（半回合）被杀：{n} 个局面',
    'tables.longest': '最长杀棋（点击分析）', 'tables.nomate': '没有由杀棋决定的局面。',
    'tables.open': '用残局库分析此局面',
    'tables.bytes': '{n} 字节', 'tables.kib': '{n} KiB', 'tables.mib': '{n} MiB',
    settings: '设置', 'set.pieces': '棋子', 'set.pieces.characters': '汉字（帥 將）',
    'set.pieces.letters': '字母（K A E H R C P）', 'set.sounds': '声音（走子、吃子、将军、终局）',
    'notation.chinese': '中文', flip: '翻转棋盘', share: '分享', 'share.link': '此局面的链接',
    'share.copied': '链接已复制：在分析棋盘中打开此局面（连同着法）。',
    'share.shown': '请复制棋盘下方的链接：它在分析棋盘中打开此局面。',
    'moved.on': '这局棋已在另一个标签页中继续；这里显示的是当前局面。',
    'game.gone': '服务器上已没有这局棋（已关闭，或闲置太久）。',
    'new.title': '新对局', 'new.side': '执子', 'new.level': '难度',
    'new.start': '开局', 'new.start.initial': '标准开局', 'new.start.fen': 'FEN 局面',
    'new.start.setup': '在棋盘上摆的局面', 'new.start.analysis': '分析棋盘的局面',
    'new.clock': '计时', 'new.clock.none': '不计时', 'new.go': '开始',
    'new.clock.custom': '自定…', 'new.clock.minutes': '分钟（每方）', 'new.clock.increment': '秒（每步加）',
    'set.name': '您的名字（写入棋谱）',
    'played.title': '下过的棋', 'played.more': '更多', 'played.plies': '{n} 步', 'played.open': '在分析棋盘上打开这局棋',
    'played.ply': '1 步',
    'review.button': '复盘', 'review.title': '复盘', 'review.stop': '停止',
    'review.played': '复盘这局棋：引擎评判每一步',
    'review.asking': '正在请求复盘…',
    'review.running': '复盘中…已分析 {done}/{total} 个局面 · {secs} 秒',
    'review.done': '已复盘 {total} 个局面，每个局面 {nodes} 节点（{secs} 秒）。',
    'review.cancelled': '复盘已停止：已分析 {done}/{total} 个局面。',
    'review.failed': '复盘失败：{error}',
    'review.side': '分数与曲线均为红方视角：越高对红方越有利。',
    'review.inaccuracy': '缓着', 'review.mistake': '劣着', 'review.blunder': '败着',
    'review.loss': '平均损失（分）', 'review.accuracy': '准确率',
    'review.none': '没有缓着、劣着或败着。',
    'review.here': '此局面：{score}', 'review.forced': '唯一着法',
    'review.engine': '引擎的首选', 'review.better': '更好：{move}', 'review.line': '变例：{line}',
    'review.playline': '走更好的变例',
    'review.graph': '红方胜率走势（点击跳到该局面；点击圆点看它标记的那步棋）',
    red: '红方', black: '黑方', takeback: '悔棋', hint: '提示', draw: '提和',
    resign: '认输', play: '走棋', typemove: '输入着法：h2e2、C2.5、炮二平五',
    save: '保存棋谱 (PGN)', toanalysis: '分析此局面', setfen: '设置',
    startpos: '初始局面', edit: '摆棋', load: '打开棋谱文件', playfromhere: '从此局面对弈',
    tomove: '走子方', clear: '清空', done: '完成', 'analyse.start': '分析', 'analyse.stop': '停止',
    lines: '变例数', seconds: '秒数', book: '开局库', tablebase: '残局库',
    'level.n': '第 {n} 级', 'level.desc.1': '入门', 'level.desc.top': '最强',
    'level.option': '第 {n} 级 — 等级分 {elo}', 'level.role': '（{role}）',
    'level.detail': '等级分 {elo}（95% 区间 {lower} 至 {upper}，{games} 局）；每步至多 {nodes} 节点',
    'level.scale': '等级分由引擎对局测得：以 {engine}（每步 {nodes} 节点）为 {elo} 分',
    yourmove: '轮到您走（{side}）', thinking: 'Chariot 思考中…',
    'engine.book': 'Chariot 走 {move}（开局库）',
    'engine.tables': 'Chariot 走 {move}（残局库，{score}）',
    'engine.search': 'Chariot 走 {move}：深度 {depth}，分数 {score}（红方视角），{nodes} 节点，{secs} 秒',
    'result.red': '红胜', 'result.black': '黑胜', 'result.draw': '和棋',
    'why.checkmate': '将死', 'why.stalemate': '困毙（无着可走）',
    'why.perpetual-check': '长将', 'why.perpetual-chase': '长捉',
    'why.repetition': '重复局面', 'why.move-limit': '六十回合无吃子',
    'why.resignation': '认输', 'why.agreement': '协议和棋', 'why.time': '超时',
    'draw.accepted': 'Chariot 同意和棋。', 'draw.declined': 'Chariot 拒绝和棋。',
    'hint.move': '提示：{move}', 'hint.none': '没有提示：无着可走。',
    'resign.confirm': '确定认输吗？',
    forbidden: '禁着：这步棋以长将或长捉重复局面（亚洲规则）。',
    'illegal.because': '这不是合法的着法：{why}',
    'pos.turn': '{side}走', 'pos.check': '将军',
    'tb.win': '胜', 'tb.draw': '和', 'tb.loss': '负', 'tb.dtm': '{n} 步（半回合）杀',
    'tb.none': '残局库未收录', 'book.none': '开局库中没有着法',
    'book.games': '{n} 局', 'book.game': '1 局', moves: '着法', 'moves.none': '还没有着法。',
    opening: '开局', 'opening.eco': 'ECCO 编号（由大师对局得出）',
    'analysis.summary': '深度 {depth} · {nodes} 节点 · 每秒 {nps} 节点',
    'analysis.done': '分析结束', 'analysis.busy': '服务器繁忙，请稍后再试。',
    'analysis.time': '{secs} 秒', 'seconds.infinite': '∞ 无限',
    'analysis.side': '分数为红方视角：正数红优，负数黑优；#3 红方 3 步杀，#-3 黑方 3 步杀',
    'score.red-better': '红方优 {pawns}', 'score.black-better': '黑方优 {pawns}',
    'score.even': '均势', 'score.red-mates': '红方 {n} 步杀', 'score.black-mates': '黑方 {n} 步杀',
    'peek.title': '{engine} 第 {n} 变：第 {ply} 步，共 {of} 步',
    'peek.keys': '← → 逐步查看 · Esc 返回', 'peek.back': '回到局面',
    'peek.prev': '上一步', 'peek.next': '下一步', 'peek.take': '走入此变',
    'setup.hint': '在下面选一个棋子，点击棋盘放置；点击棋盘上的棋子可移除。',
    'loaded.game': '第 {n} 局', 'loaded.error': '提前结束：{error}',
    'file.read': '读取了 {n} 局（{format}）。',
    mate: '{n} 步杀', mated: '{n} 步被杀',
    games: '棋谱', 'f.player': '棋手', 'f.either': '执红或执黑', 'f.red': '执红',
    'f.black': '执黑', 'f.event': '赛事', 'f.since': '起 YYYY', 'f.until': '止 YYYY',
    'f.anyresult': '任何结果', 'f.apply': '筛选', 'f.minelo': '最低等级分',
    'f.newest': '最新的在前', 'f.rated': '等级分高的在前',
    'games.total': '{n} 局经过此局面', 'games.total.one': '1 局经过此局面', 'games.ended': '（对局结束）',
    'games.plies': '{n} 步（半回合）', 'games.page': '第 {n} 页，共 {of} 页',
    'tb.playline': '走最佳着法', 'tb.rule': '按长将、长捉规则判定',
    'tb.mates': '{n} 步（半回合）杀', 'tb.mated': '{n} 步（半回合）被杀',
    'new.book': '开局库', 'new.book.default': 'Chariot 自带', 'book.compiled': '在此生成',
    'book.builtin': '内置开局库', 'job.failed': '任务失败（服务器出错）。',
    'build.title': '我的棋谱与开局库', 'build.upload': '导入棋谱文件…',
    'build.formats': 'PGN、DhtmlXQ 或 XQF；任何编码；也可为 .zst',
    'build.name': '开局库名称', 'build.plies': '步数', 'build.compile': '用这些对局生成开局库',
    'build.download': '下载开局库', 'build.play': '与它对弈',
    'build.reading': '{file}：已读 {n} 局…', 'build.sending': '{file}：上传中…',
    'build.imported': '{file}（{format}，{encoding}）：读取 {read} 局，新增 {imported} 局，已有 {duplicates} 局，拒收 {rejected} 局。数据库共 {total} 局。',
    'build.unreadable': '{file}：不是棋谱文件。',
    'build.rejection': '第 {game} 局，第 {line} 行，第 {ply} 步：{message}',
    'build.compiling': '正在生成“{name}”… {secs} 秒',
    'build.compiled': '开局库“{name}”：{games}，{positions} 个局面，{entries} 个着法（{kb} KB）。已加入开局库面板和新对局表单。',
    'build.noname': '请为开局库命名。',
  },
};

let language = pick();

function pick() {
  const saved = localStorage.getItem('chariot.language');
  if (saved === 'en' || saved === 'zh') return saved;
  return (navigator.languages || [navigator.language || 'en'])
    .some((l) => l.toLowerCase().startsWith('zh')) ? 'zh' : 'en';
}

/** The current language, `en` or `zh`. */
export function current() {
  return language;
}

/** Switches the language and remembers the choice. */
export function setLanguage(l) {
  language = l;
  localStorage.setItem('chariot.language', l);
  translatePage();
}

/** The words for `key` in the current language, `{name}` replaced from `values`. */
export function t(key, values = {}) {
  return lookUp(WORDS, key, values);
}

/**
 * A view's own words: a function like `t` over `table` (`{en: {...}, zh: {...}}`), for the
 * modules that keep their words beside their code.
 */
export function wordsOf(table) {
  return (key, values = {}) => lookUp(table, key, values);
}

/** `key` in `table` in the current language (else English, else the key), `{name}` filled in. */
function lookUp(table, key, values) {
  const text = table[language][key] ?? table.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in values ? String(values[k]) : `{${k}}`));
}

/** `1 game`, `12 games` (`1 局`, `12 局`). */
export function gamesCount(n) {
  return n === 1 ? t('book.game') : t('book.games', { n: n.toLocaleString() });
}

/** `1 ply`, `12 plies` (`1 步`, `12 步`). */
export function pliesCount(n) {
  return n === 1 ? t('played.ply') : t('played.plies', { n });
}

/** Puts the words into every element marked `data-i18n` (text) or `data-i18n-placeholder`. */
export function translatePage() {
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-placeholder]')) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  for (const el of document.querySelectorAll('[data-i18n-aria]')) {
    el.setAttribute('aria-label', t(el.dataset.i18nAria));
  }
  for (const el of document.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
}

/** A game's result and reason from the API's `result`, in words. */
export function resultText(result) {
  const who = result.winner ? t(`result.${result.winner}`) : t('result.draw');
  return `${who}: ${t(`why.${result.why}`)} (${result.result})`;
}
