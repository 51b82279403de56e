/**
 * Upstash computes sparse and fused scores in float32 and prints the shortest decimal that reads
 * back as the same float32 (e.g. `0.018800145`, `0.033333335`). This rounds a float64 score the
 * same way, so the emulator's numbers equal the ones the official SDK tests see from the service.
 */
export function float32Score(x: number): number {
  const f = Math.fround(x);
  if (!Number.isFinite(f) || f === 0) return f;
  for (let digits = 1; digits <= 9; digits += 1) {
    const candidate = Number(f.toPrecision(digits));
    if (Math.fround(candidate) === f) return candidate;
  }
  return f;
}
