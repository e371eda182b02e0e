// The user feature's public face: its query keys and the assignees other features' forms choose from.
export { userKeys } from './api/query-keys';
export { assigneesQueryOptions, useAssignees, type Assignee } from './api/get-assignees';
