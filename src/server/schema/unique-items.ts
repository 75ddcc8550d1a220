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

/**
 * The id of `value`'s canonical form in `ids`: equal JSON values get equal ids. A value that is
 * not JSON data (undefined, a function, a bigint) gets a form of its own type name and string.
 * `visit` (when given) sees every array with the ids of its items.
 */
export function canonicalId(
  value: unknown,
  ids: Interned,
  visit?: (array: readonly unknown[], itemIds: readonly number[]) => void,
): number {
  if (Array.isArray(value)) {
    const itemIds = value.map((item) => canonicalId(item, ids, visit));
    visit?.(value, itemIds);
    return intern(`[${itemIds.join(",")}]`, ids);
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalId((value as Record<string, unknown>)[key], ids, visit)}`,
      );
    return intern(`{${entries.join(",")}}`, ids);
  }
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
