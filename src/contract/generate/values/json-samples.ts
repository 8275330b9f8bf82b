/** A value of each JSON type, to put where another type is required. */
export const SAMPLES: Record<string, unknown> = {
  string: 'x',
  integer: 7,
  number: 1.5,
  boolean: true,
  null: null,
  array: [],
  object: {},
};
