import { describe, expect, it } from 'vitest';
import { twinBranchesReason } from './twin-branches.js';
import { planValue } from './value-plan.js';

// Shared objects, as the loader shares the object a $ref names (readme's discriminators.yaml, ApplicationApprovedEvent
// and ApplicationDeniedEvent: allOf the same base, a title and a description of their own).
const base = { type: 'object', properties: { kind: { type: 'string', enum: ['a', 'b'] } }, required: ['kind'] };
const approved = { title: 'Approved', description: 'one', allOf: [base] };
const denied = { title: 'Denied', description: 'two', allOf: [base] };
const distinct = { allOf: [base, { properties: { extra: { type: 'string' } }, required: ['extra'] }] };
const names = new Map<unknown, string>([
  [approved, 'Approved'],
  [denied, 'Denied'],
]);

describe('twinBranchesReason: a oneOf no value can satisfy, for a reason the document gives', () => {
  it.each([
    ['two branches asserting the same schemas', [approved, denied], /its branches Approved and Denied assert the same/],
    ['a branch with an assertion of its own', [approved, denied, distinct], undefined],
    ['a branch and a distinct one', [approved, distinct], undefined],
    ['one branch', [approved], undefined],
  ] as const)('%s', (_name, branches, want) => {
    const reason = twinBranchesReason([...branches], names);
    if (want === undefined) expect(reason).toBeUndefined();
    else expect(reason).toMatch(want);
  });

  it('the value plan names the schema as admitting no value (noValue), a discriminator or not', () => {
    const schema = { oneOf: [approved, denied], discriminator: { propertyName: 'kind' } };
    const plan = planValue(schema, { document: { components: { schemas: { Approved: approved, Denied: denied } } } });
    expect(plan).toMatchObject({ ok: false, unhonoured: { keyword: 'oneOf', noValue: true } });
  });
});
