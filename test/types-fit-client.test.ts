import { expectTypeOf, it } from 'vitest';
import type { NewPet, Pet, paths } from '../src/types.js';

// With `paths` and `NewPet` from `petstore-kit/types`, `client.POST('/pets', { body: newPet })` (openapi-fetch)
// must typecheck. Checked by `npm run typecheck` (tsc reads test/): the types must be the very ones `paths` uses.
type CreateBody = paths['/pets']['post']['requestBody']['content']['application/json'];
type Created = paths['/pets']['post']['responses'][201]['content']['application/json'];
type Listed = paths['/pets']['get']['responses'][200]['content']['application/json'];

it('NewPet is the body paths takes for createPet, and Pet what it answers', () => {
  expectTypeOf<NewPet>().toEqualTypeOf<CreateBody>();
  expectTypeOf<Pet>().toEqualTypeOf<Created>();
  expectTypeOf<Pet[]>().toEqualTypeOf<Listed>();
  const newPet: NewPet = { name: 'Rex', categoryId: 1 };
  const body: CreateBody = newPet;
  expectTypeOf(body).toEqualTypeOf<CreateBody>();
});
