// The field feature's public face: its query keys and the option list other features' forms choose from.
export { fieldKeys } from './api/query-keys';
export { fieldOptionsQueryOptions, useFieldOptions } from './api/get-field-options';
