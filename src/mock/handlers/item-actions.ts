import type { Spec } from '../../openapi/spec.js';
import type { Operation } from '../../openapi/operations.js';
import type { Context, Handler } from '../front-door/context.js';
import type { Reply } from '../base/reply.js';
import type { ItemId } from '../store/collection-store.js';
import { itemActionOf, type ItemAction } from '../../openapi/item-actions.js';
import { nounOf } from '../store/collection-rules.js';
import { apiError } from '../../errors.js';

/**
 * The answer from the document's examples (prism-http, `fallback`) of an action on an item (`POST
 * /pet/{petId}/uploadImage`: item-actions.ts), given only where the store holds that item (and its parent): else
 * the document's 404, where the action declares a 404 or a 4XX (RFC 9110 §15.5.5). A mock that keeps the items
 * must not act on one it deleted or never made; where the action declares no such answer, the examples answer as
 * before (the document leaves it open). Every other operation goes straight to `fallback`.
 * @example itemActionsFirst(spec, prism)(context) // 404 for uploadImage of a pet the store does not hold
 */
export function itemActionsFirst(spec: Spec, fallback: Handler): Handler {
  const actions = new Map<string, ItemAction>();
  for (const operation of spec.operations) {
    const action = itemActionOf(spec.resources, operation);
    if (action?.collection.itemParameter && declaresNotFound(operation)) actions.set(operation.id, action);
  }
  if (actions.size === 0) return fallback;
  return function actOnHeldItem(context: Context): Reply | Promise<Reply> {
    const action = actions.get(context.operation.id);
    if (!action) return fallback(context);
    return heldItem(action, context).then((missing) => {
      if (missing) throw apiError('not_found', missing);
      return fallback(context);
    });
  };
}

function declaresNotFound(operation: Operation): boolean {
  return operation.responses.has('404') || operation.responses.has('4XX');
}

/** Why the item the action names is not held (its parent first, for a nested one), or undefined when it is. */
async function heldItem(action: ItemAction, context: Context): Promise<string | undefined> {
  const { collection, names } = action;
  const valueOf = (name: string) => context.params.path[names[name] ?? name] as ItemId;
  const parent = collection.parent ? valueOf(collection.parent.parameter) : undefined;
  if (collection.parent && parent !== undefined) {
    const held = await context.store.collection(collection.parent.collection).get(parent);
    if (!held) return `no ${nounOf(collection.parent.collection)} has id ${String(parent)}`;
  }
  const id = valueOf(collection.itemParameter!);
  const item = await context.store.collection(collection.name).get(id, parent);
  return item ? undefined : `no ${nounOf(collection.name)} has id ${String(id)}`;
}
