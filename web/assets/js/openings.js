// An opening's code and name where a line is shown: above the move lists of Play and Analyse
// and at the head of the explorer. The server names the line (`opening` of a game or
// position, `GET /api/opening`): its ECCO code, derived from the master games, and the name
// composed from the players' terms in Chinese and English.

import { current, t } from './i18n.js';

/** The name of `opening` in the page's language (the other language as a fallback). */
export function openingName(opening) {
  if (!opening) return '';
  return (current() === 'zh' ? opening.name_zh ?? opening.name_en : opening.name_en ?? opening.name_zh) ?? '';
}

/**
 * Draws `opening` (the API's object, or null) into `element`: the code in a badge, then the
 * name; the element is hidden when there is nothing to say.
 */
export function showOpening(element, opening) {
  element.replaceChildren();
  const name = openingName(opening);
  element.hidden = !opening || (!opening.eco && !name);
  if (element.hidden) return;
  const label = document.createElement('span');
  label.className = 'label';
  label.textContent = t('opening');
  element.append(label);
  if (opening.eco) {
    const eco = document.createElement('span');
    eco.className = 'eco';
    eco.textContent = opening.eco;
    eco.title = t('opening.eco');
    element.append(eco);
  }
  if (name) {
    const text = document.createElement('span');
    text.className = 'name';
    text.textContent = name;
    element.append(text);
  }
  // The other language's name as a tooltip: a player who knows the Chinese name finds it.
  const other = current() === 'zh' ? opening.name_en : opening.name_zh;
  element.title = other ?? '';
}
