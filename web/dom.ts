/** A tiny element builder: `h('button', { class: 'x', onclick }, 'Label')`. Properties starting with `on` are listeners. */
type Props = Record<string, string | number | boolean | null | undefined | ((e: never) => void)>;

export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: (Node | string | null | false | undefined)[]
): HTMLElementTagNameMap[K] => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2), v as EventListener);
    // Through the CSSOM: the page's CSP refuses style attributes written as markup.
    else if (k === 'style') el.style.cssText = String(v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== false && c !== undefined) el.append(c);
  return el;
};

/**
 * Replaces the content of `parent`, keeping the keyboard where it was: on the element with the same id,
 * or on `focusInstead(id)` when that names another (the board's cursor square moves as one types).
 */
export const replaceContent = (
  parent: HTMLElement,
  children: (Node | string)[],
  focusInstead: (id: string) => string = (id) => id,
): void => {
  const focused = document.activeElement instanceof HTMLElement && parent.contains(document.activeElement) ? document.activeElement.id : '';
  parent.replaceChildren(...children);
  if (focused) document.getElementById(focusInstead(focused))?.focus();
};
