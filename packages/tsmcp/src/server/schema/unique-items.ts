/**
 * `uniqueItems` in time near-linear in the array's size: every item gets an integer id shared by
 * every item equal to it under JSON equality (numbers by value, so 1 and 1.0 are equal; objects
 * equal whatever their key order; arrays equal item by item), so a duplicate is a repeated id.
 * Both validators use it: the pairwise comparison the libraries do is quadratic (40,000 items:
 * seconds with the event loop blocked). Spec: JSON Schema 2020-12 Validation §6.4.3 (uniqueItems),
 * Core §4.2.2 (instance equality).
 */

/** Interned canonical forms: a form names its children by id, so each form is short. */
export type Interned = Map<string, number>;

function intern(form: string, ids: Interned): number {
  let id = ids.get(form);
  if (id === undefined) {
    id = ids.size;
    ids.set(form, id);
  }
  return id;
}

function scalarId(value: unknown, ids: Interned): number {
  if (
    typeof value === "string" ||
    typeof value === "number" ||
    typeof value === "boolean" ||
    value === null
  ) {
    return intern(JSON.stringify(value), ids);
  }
  return intern(`${typeof value}:${String(value)}`, ids);
}

/** A container whose children are being given ids. */
interface Frame {
  readonly value: object;
  /** The object's keys, sorted; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  readonly childIds: number[];
}

/**
 * The id of `value`'s canonical form in `ids`: equal JSON values get equal ids. A value that is
 * not JSON data (undefined, a function, a bigint) gets a form of its own type name and string.
 * `visit` (when given) sees every array with the ids of its items. Works without recursion, so a
 * deeply nested value cannot overflow the stack.
 *
 * @throws TypeError when the value contains itself (it is not JSON data).
 */
export function canonicalId(
  value: unknown,
  ids: Interned,
  visit?: (array: readonly unknown[], itemIds: readonly number[]) => void,
): number {
  const stack: Frame[] = [];
  const open = new Set<object>();
  /** The id of a scalar, or undefined after pushing a container to give its children ids. */
  const enter = (child: unknown): number | undefined => {
    if (typeof child !== "object" || child === null) return scalarId(child, ids);
    if (open.has(child)) throw new TypeError("the value contains itself");
    open.add(child);
    stack.push({
      value: child,
      keys: Array.isArray(child) ? undefined : Object.keys(child).sort(),
      childIds: [],
    });
    return undefined;
  };
  const rootId = enter(value);
  if (rootId !== undefined) return rootId;
  for (;;) {
    const frame = stack[stack.length - 1] as Frame;
    const { keys, childIds } = frame;
    const items = frame.value as Record<string, unknown> & unknown[];
    const size = keys === undefined ? items.length : keys.length;
    if (childIds.length < size) {
      const at = childIds.length;
      const childId = enter(keys === undefined ? items[at] : items[keys[at] as string]);
      if (childId !== undefined) childIds.push(childId);
      continue;
    }
    stack.pop();
    open.delete(frame.value);
    let id: number;
    if (keys === undefined) {
      visit?.(items, childIds);
      id = intern(`[${childIds.join(",")}]`, ids);
    } else {
      id = intern(
        `{${keys.map((key, index) => `${JSON.stringify(key)}:${childIds[index]}`).join(",")}}`,
        ids,
      );
    }
    const parent = stack[stack.length - 1];
    if (parent === undefined) return id;
    parent.childIds.push(id);
  }
}

/**
 * A duplicate pair of `itemIds` as ajv's built-in check reports it: `[j, i]` with `j < i`, where
 * `i` is the highest index whose item equals an earlier one and `j` the highest such earlier index;
 * undefined when every item is distinct.
 */
export function duplicateOf(itemIds: readonly number[]): [number, number] | undefined {
  const last = new Map<number, number>();
  let found: [number, number] | undefined;
  itemIds.forEach((id, i) => {
    const j = last.get(id);
    if (j !== undefined) found = [j, i];
    last.set(id, i);
  });
  return found;
}

/**
 * ajv's `uniqueItems` keyword, replacing its built-in one (quadratic for untyped items): the same
 * meaning, error wording and `params` (`i`, `j`) as the built-in.
 */
export const UNIQUE_ITEMS_KEYWORD = {
  keyword: "uniqueItems",
  type: "array",
  schemaType: "boolean",
  errors: true,
  validate: function uniqueItems(this: unknown, unique: boolean, data: readonly unknown[]): boolean {
    const validate = uniqueItems as typeof uniqueItems & { errors?: unknown[] | null };
    validate.errors = null;
    if (!unique) return true;
    const ids: Interned = new Map();
    const duplicate = duplicateOf(data.map((item) => canonicalId(item, ids)));
    if (duplicate === undefined) return true;
    const [j, i] = duplicate;
    validate.errors = [
      {
        keyword: "uniqueItems",
        params: { i, j },
        message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
      },
    ];
    return false;
  },
} as const;

/** What {@link scanArrays} learns about every array inside a value. */
export interface ArrayScan {
  /** Whether some array (at any depth) holds two equal items. */
  readonly hasDuplicates: boolean;
  /** The sum over every array of its length squared: the pairs a pairwise check compares. */
  readonly pairs: number;
}

/** Looks at every array inside `value` once (time near-linear in the value's size). */
export function scanArrays(value: unknown): ArrayScan {
  let hasDuplicates = false;
  let pairs = 0;
  canonicalId(value, new Map(), (array, itemIds) => {
    pairs += array.length * array.length;
    if (!hasDuplicates && duplicateOf(itemIds) !== undefined) hasDuplicates = true;
  });
  return { hasDuplicates, pairs };
}
