// Endgame names: a table's material signature (`KRKN`: the strong side's pieces, `K`, the weak
// side's) as players say it in Chinese, `单车对单马`, from the pieces of both sides.
//
// The rule (docs/web-app.md, "Endgame names"): each side is named by its attacking pieces in
// the order 车 马 炮 兵 (two of a kind 双车, three 三兵 ...), then its defenders: 士象全 (both
// advisors and elephants), 单缺士 (one advisor missing), 单缺象 (one elephant missing), 双士,
// 双象, 士象, 士, 象. A side of one piece has 单 before it (单车, 单马, 单士); a side of a
// general alone is 光将. The two sides are joined by 对, the strong side first. The generic
// names 车马炮兵士象 stand for either colour's pieces, as endgame books write them.

const ATTACKERS = [['R', '车'], ['N', '马'], ['C', '炮'], ['P', '兵']];
const NUMBERS = ['', '', '双', '三', '四', '五'];

/** The letters of a side (after its `K`), WXF's `E` and `H` read as `B` and `N`. */
function counts(letters) {
  const n = {};
  for (const ch of letters.toUpperCase().replace(/E/g, 'B').replace(/H/g, 'N')) n[ch] = (n[ch] || 0) + 1;
  return n;
}

/** The defenders' name: `a` advisors and `b` elephants (`alone`: the side has nothing else). */
function defenders(a, b, alone) {
  if (a >= 2 && b >= 2) return '士象全';
  if (a === 1 && b >= 2) return '单缺士';
  if (a >= 2 && b === 1) return '单缺象';
  if (a >= 2) return '双士';
  if (b >= 2) return '双象';
  if (a === 1 && b === 1) return alone ? '单士象' : '士象';
  if (a === 1) return alone ? '单士' : '士';
  if (b === 1) return alone ? '单象' : '象';
  return '';
}

/** One side's pieces (`R`, `AABB`, ``: the letters after its general) in Chinese. */
export function sideName(letters) {
  const n = counts(letters);
  const pieces = Object.values(n).reduce((s, k) => s + k, 0);
  if (!pieces) return '光将';
  const attack = ATTACKERS.filter(([l]) => n[l]).map(([l, name]) => `${NUMBERS[n[l]] ?? n[l]}${name}`).join('');
  const defence = defenders(n.A || 0, n.B || 0, !attack);
  if (pieces === 1 && attack) return `单${attack}`;
  return attack + defence;
}

/** A material signature (`KRKN`, `KRKAABB`) in Chinese (`单车对单马`); `null` when it is none. */
export function materialName(signature) {
  const m = /^K([A-Z]*)K([A-Z]*)$/i.exec(signature);
  return m ? `${sideName(m[1])}对${sideName(m[2])}` : null;
}
