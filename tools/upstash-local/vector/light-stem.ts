/**
 * A light English stemmer: plural and common inflection endings, then a final silent "e", so
 * "colors" meets "color" and "moved", "moving", "moves" all meet "move" (as "mov"), without
 * Porter's aggressive conflations ("university" / "universe"). Words of three letters or fewer and
 * words with digits are left alone.
 */
export function lightStem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let stem = word;
  if (stem.endsWith("ies") || stem.endsWith("ied")) stem = `${stem.slice(0, -3)}y`;
  else if (stem.endsWith("sses")) stem = stem.slice(0, -2);
  else if (stem.endsWith("ing") && stem.length > 5) stem = undouble(stem.slice(0, -3));
  else if (stem.endsWith("ed") && stem.length > 4) stem = undouble(stem.slice(0, -2));
  else if (/(ch|sh|x|z|ss)es$/.test(stem)) stem = stem.slice(0, -2);
  else if (stem.endsWith("s") && !/(ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);
  if (stem.endsWith("e") && stem.length > 3) stem = stem.slice(0, -1);
  return stem;
}

/** "stopp" (from "stopping") -> "stop"; keeps "ll"/"ss"/"zz" endings such as "call" or "fizz". */
function undouble(stem: string): string {
  const n = stem.length;
  if (n >= 3 && stem[n - 1] === stem[n - 2] && !/[lsz]/.test(stem[n - 1] ?? "")) return stem.slice(0, -1);
  return stem;
}
