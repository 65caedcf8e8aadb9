/**
 * cac has no suggestions of its own: the closest candidate to a mistyped word, when it is close enough to be the
 * likely intent (at most one edit per three letters, at least one), as ` Did you mean "status"?`; else `''`.
 */
export function didYouMean(typed: string, candidates: readonly string[]): string {
  const word = typed.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  const allowed = Math.max(1, Math.floor(word.length / 3));
  return best && best.candidate !== typed && best.distance <= allowed ? ` Did you mean "${best.candidate}"?` : '';
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours cost 1. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
