// A move list: numbered rows of Red's and Black's moves in the chosen notation; a click on a
// move calls `onPick(index)` (0-based; -1 is the start position).

import { t } from './i18n.js';

/**
 * Draws `moves` (the API's MoveText objects) into `element`, `current` (an index or -1)
 * marked; `startFen` tells whether Black moved first.
 */
export function renderMoves(element, { moves, current, startFen, notation, onPick }) {
  element.replaceChildren();
  if (!moves.length) {
    const empty = document.createElement('div');
    empty.className = 'empty';
    empty.textContent = t('moves.none');
    element.append(empty);
    return;
  }
  const blackFirst = startFen.split(' ')[1] === 'b';
  const fullmove = Number(startFen.split(' ')[5]) || 1;
  const cells = [];
  if (blackFirst) cells.push(null);
  moves.forEach((m, i) => cells.push({ m, i }));
  for (let row = 0; row * 2 < cells.length; row += 1) {
    const no = document.createElement('div');
    no.className = 'no';
    no.textContent = `${fullmove + row}.`;
    element.append(no);
    for (const cell of cells.slice(row * 2, row * 2 + 2)) {
      const div = document.createElement('div');
      div.className = 'mv';
      if (cell) {
        div.textContent = cell.m[notation];
        div.dataset.index = String(cell.i);
        div.title = cell.m.iccs;
        if (cell.i === current) div.classList.add('current');
        div.addEventListener('click', () => onPick(cell.i));
      } else {
        div.textContent = '…';
      }
      element.append(div);
    }
  }
  // Scroll the list, not the page, to the current move.
  const mark = element.querySelector('.current');
  if (mark) {
    const top = mark.offsetTop - element.offsetTop;
    if (top < element.scrollTop || top + mark.offsetHeight > element.scrollTop + element.clientHeight) {
      element.scrollTop = top - element.clientHeight / 2;
    }
  }
}

/** Moves the current mark with the arrow keys: returns the new index for ←/→/Home/End. */
export function stepKey(event, current, count) {
  switch (event.key) {
    case 'ArrowLeft': return Math.max(-1, current - 1);
    case 'ArrowRight': return Math.min(count - 1, current + 1);
    case 'Home': return -1;
    case 'End': return count - 1;
    default: return null;
  }
}
