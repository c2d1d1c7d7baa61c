import type { QueryParamDoc } from '../http/RouteDoc';
import type { ListProfile } from '../query/ListProfile';

/** The list parameters of a profile as the OpenAPI document shows them, so the numbers come from the profile itself. */
export function listQueryDoc(profile: ListProfile): QueryParamDoc[] {
  return [
    {
      name: 'limit',
      description: `0 to ${profile.maxLimit}, default ${profile.defaultLimit}`,
      schema: { type: 'integer', minimum: 0, maximum: profile.maxLimit },
    },
    ...(profile.allowOffset
      ? [{ name: 'offset', description: 'rows to skip', schema: { type: 'integer', minimum: 0 } }]
      : []),
    { name: 'cursor', description: 'the id of the last row seen', schema: { type: 'integer', minimum: 0 } },
    { name: 'order', schema: { type: 'string', enum: ['asc', 'desc'] } },
  ];
}

/** The switch of lists that show open rows only (declared `open_only`): closed ones too when true. */
export const WITH_CLOSED: QueryParamDoc = {
  name: 'with_closed',
  description: 'include closed positions',
  schema: { type: 'boolean' },
};
