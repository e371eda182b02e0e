// The role feature's public face: its query keys and the option list other features' forms choose from.
export { roleKeys } from './api/query-keys';
export { roleOptionsQueryOptions, useRoleOptions } from './api/get-role-options';
