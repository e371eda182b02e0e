import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditList, type AuditList, type AuditListQuery } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { withQuery } from '../../../lib/list-query';
import { adminKeys } from './query-keys';

/** GET audit: one page of the change log, newest first (administrator only). */
export async function getAudit(query: AuditListQuery): Promise<AuditList> {
  return auditList.parse(await api.get<unknown>(withQuery('audit', query)));
}

export const useAudit = (query: AuditListQuery, enabled = true) =>
  useQuery({
    queryKey: adminKeys.audit(query),
    queryFn: () => getAudit(query),
    placeholderData: keepPreviousData,
    enabled,
  });
