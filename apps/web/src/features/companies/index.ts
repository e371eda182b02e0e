// The company feature's public face: its query keys and the option list other features' forms choose from.
export { companyKeys } from './api/query-keys';
export { companyOptionsQueryOptions, useCompanyOptions } from './api/get-company-options';
