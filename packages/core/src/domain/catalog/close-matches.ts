/** Levenshtein distance, small inputs only (model codes). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Codes a person probably meant: within a few edits (scaled to the length), or sharing the typed
 * text as a prefix (`gamma` -> gamma-3.1, gamma-3.1-fast ...). Best first.
 */
export function closeMatches(typed: string, codes: readonly string[], limit = 3): string[] {
  const wanted = typed.trim().toLowerCase().slice(0, 100);
  if (wanted === "") return [];
  const budget = Math.max(2, Math.floor(wanted.length / 4));
  const scored: Array<{ code: string; score: number }> = [];
  for (const code of codes) {
    const candidate = code.toLowerCase();
    const distance = editDistance(wanted, candidate);
    if (distance <= budget) scored.push({ code, score: distance });
    else if (candidate.startsWith(wanted) && wanted.length >= 3)
      scored.push({ code, score: budget + 1 });
  }
  scored.sort((x, y) => x.score - y.score || x.code.localeCompare(y.code));
  return scored.slice(0, limit).map((entry) => entry.code);
}
