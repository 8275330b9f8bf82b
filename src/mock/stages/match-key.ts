/**
 * A constant-time test of a credential against every accepted key: each key is compared over a fixed width (the
 * longest key's), lengths compared apart, all keys every time, without branches, so that neither which key matched
 * nor a key's content or length shows in the time taken; the time depends only on the width and on the candidate,
 * which the client knows. UTF-16 code units, so any text compares (an apiKey header, a Basic password) with no
 * encoder and no `node:crypto`: the browser build runs the same check.
 * @example createKeyMatcher(['k3y'])('k3y') // true
 */
export function createKeyMatcher(keys: readonly string[]): (candidate: string) => boolean {
  const width = Math.max(1, ...keys.map((key) => key.length));
  const padded = keys.map((key) => ({ units: codeUnits(key, width), length: key.length }));
  // One scratch array: the check is synchronous, so no two requests ever use it at once.
  const candidateUnits = new Uint16Array(width);

  return function matchKey(candidate: string): boolean {
    // Longer than every key, it is cut to the width (and fails on length).
    for (let i = 0; i < width; i++) candidateUnits[i] = i < candidate.length ? candidate.charCodeAt(i) : 0;
    let known = 0;
    for (const key of padded) known |= sameUnits(key.units, candidateUnits) & Number(key.length === candidate.length);
    return known === 1;
  };
}

function codeUnits(text: string, width: number): Uint16Array {
  const units = new Uint16Array(width);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}

/** 1 when two arrays of the same length are equal, else 0; every unit is looked at whatever the first difference. */
function sameUnits(a: Uint16Array, b: Uint16Array): number {
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return Number(difference === 0);
}
