import { queryOptions, useQuery } from '@tanstack/react-query';
import { dataQualityAnswer, type DataQualityAnswer } from '@solar/shared';
import { api } from '../../../lib/api-client';
import { dataQualityKeys } from './query-keys';

/** Which flags a card shows: a plant's or a device's, over the plant's local days [from, to]. */
export type DataQualitySubject = { plantId: number } | { deviceId: number };

const query = (from: string | null, to: string | null) =>
  new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}) }).toString();

/** GET plants/{id}/data-quality or devices/{id}/data-quality; without dates, the plant's today. */
export async function getDataQuality(
  subject: DataQualitySubject,
  from: string | null,
  to: string | null,
): Promise<DataQualityAnswer> {
  const path =
    'plantId' in subject
      ? `plants/${subject.plantId}/data-quality`
      : `devices/${subject.deviceId}/data-quality`;
  const q = query(from, to);
  return dataQualityAnswer.parse(await api.get<unknown>(q ? `${path}?${q}` : path));
}

export const dataQualityQueryOptions = (
  subject: DataQualitySubject,
  from: string | null,
  to: string | null,
) =>
  queryOptions({
    queryKey:
      'plantId' in subject
        ? dataQualityKeys.plant(subject.plantId, from, to)
        : dataQualityKeys.device(subject.deviceId, from, to),
    queryFn: () => getDataQuality(subject, from, to),
  });

export const useDataQuality = (
  subject: DataQualitySubject,
  from: string | null,
  to: string | null,
  enabled = true,
) => useQuery({ ...dataQualityQueryOptions(subject, from, to), enabled });
