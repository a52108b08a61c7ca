// Small DOM helpers: build elements in one expression, find the page's fixed elements by id.

/** What an element can hold. */
export type Child = Node | string | number | null | undefined | false;

/** Event handlers by event name. */
export type Handlers = { [E in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[E]) => void };

/** An element's properties. */
export interface Props {
  class?: string;
  title?: string;
  attrs?: Record<string, string>;
  on?: Handlers;
}

/** Creates an element with properties and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props !== null) {
    if (props.class !== undefined) element.className = props.class;
    if (props.title !== undefined) element.title = props.title;
    for (const [name, value] of Object.entries(props.attrs ?? {})) element.setAttribute(name, value);
    for (const [name, handler] of Object.entries(props.on ?? {}))
      if (handler !== undefined) element.addEventListener(name, handler as EventListener);
  }
  append(element, children);
  return element;
}

/** Appends children (nested arrays flattened, null/undefined/false skipped). */
export function append(parent: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces an element's children. */
export function replace(parent: Element, ...children: (Child | Child[])[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** The page element with this id, of the expected type; throws if the page lacks it. */
export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return element;
}
