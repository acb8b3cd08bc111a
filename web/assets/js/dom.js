// Small helpers for building the page's elements, shared by the views that draw their own panels.

/** An element with properties (`className`, `id`, `textContent`, ...) and children. */
export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  e.append(...children);
  return e;
}
