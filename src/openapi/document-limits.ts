/**
 * The bounds every document is read within, whoever reads it (mock, proxy, contract, compat, fixtures). Each is far
 * above any real OpenAPI document and far below what stalls a process: a hostile document is refused in one line
 * within a second or two, before anything walks it (docs/decisions.md, "A document cannot stall a command").
 */
export const DOCUMENT_LIMITS = {
  /** The largest document (or file a `$ref` names) read, in bytes. */
  bytes: 16 * 1024 * 1024,
  /**
   * Nodes (objects, arrays, values) of the document as parsed, a node a YAML alias names counted each time it is
   * named: a "billion laughs" (nine levels of nine aliases) is 387 million of them.
   */
  nodes: 2_000_000,
  /** Nesting depth of the document once every `$ref` is followed: a chain of references counts one level each. */
  depth: 200,
} as const;

/** A bound the document passes over; its message is one line and names the bound. */
export class DocumentLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentLimitError';
  }
}

/**
 * Counts the nodes of a parsed document and measures its nesting, without recursion (a deep document cannot
 * overflow the stack here). A value reached twice (a YAML alias) is counted each time, as every walker after this
 * one would visit it.
 */
export function checkNesting(value: unknown, where: string): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    nodes += 1;
    if (nodes > DOCUMENT_LIMITS.nodes)
      throw new DocumentLimitError(
        `${where} has more than ${DOCUMENT_LIMITS.nodes.toLocaleString('en')} nodes, its YAML aliases expanded (a "billion laughs" is refused)`,
      );
    if (typeof node !== 'object' || node === null) continue;
    if (depth > DOCUMENT_LIMITS.depth)
      throw new DocumentLimitError(`${where} nests deeper than ${DOCUMENT_LIMITS.depth} levels`);
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
}

/** What following the `$ref`s of a bundled document found: the references that lead back to themselves. */
export interface ReferenceShape {
  /** JSON pointers (`#/components/schemas/Node`) that a reference inside their own target leads back to. */
  circular: string[];
}

/** How many levels a node nests, its references followed. */
type Height = number;

/**
 * Follows every internal `$ref` of a bundled document (external ones are already pulled in) and bounds how deep it
 * nests, a chain of references counting one level a hop: the parser and the walkers follow such chains. Each target
 * is measured once and remembered, so a "$ref bomb" (each schema naming the one below it twice, forty levels down)
 * costs forty steps. What references would expand to is not bounded: nothing expands them (resolve-references.ts
 * shares each target, AJV compiles each by reference). A reference back to a target being followed is a cycle (a
 * recursive schema): counted once and reported.
 */
export function checkReferences(bundled: object, where: string): ReferenceShape {
  const walk = new ReferenceWalk(bundled, where);
  walk.measure(bundled, 1);
  return { circular: [...walk.circular] };
}

class ReferenceWalk {
  readonly circular = new Set<string>();
  private readonly measured = new Map<string, Height>();
  private readonly following = new Set<string>();

  constructor(
    private readonly root: object,
    private readonly where: string,
  ) {}

  measure(node: unknown, depth: number): Height {
    if (depth > DOCUMENT_LIMITS.depth) this.tooDeep();
    if (typeof node !== 'object' || node === null) return 1;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) return this.follow(ref, depth);
    let height = 0;
    for (const child of Object.values(node)) height = Math.max(height, this.measure(child, depth + 1));
    return height + 1;
  }

  private follow(ref: string, depth: number): Height {
    if (this.following.has(ref)) {
      this.circular.add(ref);
      return 1;
    }
    const known = this.measured.get(ref);
    if (known !== undefined) {
      if (depth + known > DOCUMENT_LIMITS.depth) this.tooDeep();
      return known;
    }
    const target = resolvePointer(this.root, ref);
    // A reference that does not resolve is named by resolve-references.ts; it is one level here.
    if (target === undefined) return 1;
    this.following.add(ref);
    const height = this.measure(target, depth + 1) + 1;
    this.following.delete(ref);
    this.measured.set(ref, height);
    return height;
  }

  private tooDeep(): never {
    throw new DocumentLimitError(
      `${this.where} nests deeper than ${DOCUMENT_LIMITS.depth} levels once its $refs are followed`,
    );
  }
}

/** RFC 6901: a JSON pointer in a URI fragment (`#/components/schemas/Pet`), `~1` for `/` and `~0` for `~`. */
function resolvePointer(root: object, ref: string): unknown {
  let node: unknown = root;
  const tokens = ref.slice(1).split('/').slice(1);
  for (const token of tokens) {
    if (typeof node !== 'object' || node === null) return undefined;
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
