// The inspector's DOM helpers: elements built from text only, tables, ages.

export const $ = (id) => document.getElementById(id);

/** An element with text (never HTML: everything shown comes from stored data). */
export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

export function row(cells) {
  const tr = document.createElement("tr");
  for (const [text, className] of cells) tr.append(el("td", text, className));
  return tr;
}

export const clip = (text, n = 400) => (text.length > n ? `${text.slice(0, n)}…` : text);

export function age(ms) {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86_400)} d`;
}

export function fillTable(id, rows) {
  const body = $(id).querySelector("tbody");
  body.replaceChildren(...rows);
}

export function reveal(...ids) {
  for (const id of ids) $(id).hidden = false;
}
