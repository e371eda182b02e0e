/**
 * The demo's fault log: after the back-fill has replayed a month of alarms, some of them are worked as
 * the plant companies' technicians would have worked them, through the real alarm and fault services at
 * the historical times: a few alarms rejected as false, the others approved into faults that were then
 * assigned, commented, resolved and closed. The newest faults are still open or in progress. Nothing is
 * published: this is history, not news.
 */
import { ALARM_STATUS, type AlarmRecord, type FaultStatus, type Locale } from '@solar/shared';
import type { createRandom, Random } from '@solar/simulator';
import type { AppContext } from '../context';
import type { Actor } from '../lib/actor';
import { listAlarms, AlarmsService, SILENT_PUBLISHER } from '../modules/alarms';
import { FaultsService } from '../modules/faults';
import { TECHNICIAN_ROLE_NAME } from './demo';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** At most this many faults, and this many rejected alarms. */
const MAX_FAULTS = 16;
const MAX_REJECTED = 3;

export interface DemoFaultsResult {
  faults: Record<FaultStatus, number>;
  rejected: number;
}

interface Technician {
  id: number;
  companyId: number;
  locale: Locale;
}

type Kind = 'trip' | 'comm' | 'performance' | 'noProduction';

/** What technicians wrote, in their language: comments on the way, root cause and resolution at the end. */
const TEXTS: Record<
  'tr' | 'mk',
  Record<Kind, { ack: string; work: string; rootCause: string; resolution: string }>
> = {
  tr: {
    trip: {
      ack: 'Evirici uzaktan sıfırlanamadı, sahaya ekip yönlendirildi.',
      work: 'AC tarafında izolasyon ölçümü yapıldı, değerler normal.',
      rootCause: 'Şebeke gerilimindeki ani yükselme koruma açmasına neden oldu.',
      resolution: 'Evirici yeniden devreye alındı, 30 dakika izlendi; üretim normal.',
    },
    comm: {
      ack: 'Veri kaydedici ve modem kontrol ediliyor.',
      work: 'RS485 hattındaki konnektör oksitlenmiş.',
      rootCause: 'Haberleşme hattında gevşek konnektör.',
      resolution: 'Konnektör değiştirildi, haberleşme kararlı.',
    },
    performance: {
      ack: 'Dizi akımları karşılaştırılıyor.',
      work: 'MPPT-1 üzerinde iki dizide akım yok; sigortalar kontrol ediliyor.',
      rootCause: 'Dizi sigortası atmış.',
      resolution: 'Sigortalar değiştirildi, dizi akımları eşit.',
    },
    noProduction: {
      ack: 'Trafo merkezi ve OG hücresi kontrol ediliyor.',
      work: 'Dağıtım şirketi bölgesel kesinti bildirdi.',
      rootCause: 'Dağıtım şebekesinde planlı olmayan kesinti.',
      resolution: 'Şebeke geri geldi, tüm eviriciler üretime geçti.',
    },
  },
  mk: {
    trip: {
      ack: 'Инверторот не може да се ресетира од далечина, екипа е испратена на терен.',
      work: 'Изолацијата на AC страната е измерена, вредностите се нормални.',
      rootCause: 'Нагол скок на мрежниот напон ја активираше заштитата.',
      resolution: 'Инверторот е повторно вклучен и следен 30 минути; производството е нормално.',
    },
    comm: {
      ack: 'Се проверуваат податочниот логер и модемот.',
      work: 'Конекторот на RS485 линијата е оксидиран.',
      rootCause: 'Олабавен конектор на комуникациската линија.',
      resolution: 'Конекторот е заменет, комуникацијата е стабилна.',
    },
    performance: {
      ack: 'Се споредуваат струите на стринговите.',
      work: 'Два стринга на MPPT-1 немаат струја; се проверуваат осигурувачите.',
      rootCause: 'Прегорен осигурувач на стринг.',
      resolution: 'Осигурувачите се заменети, струите на стринговите се еднакви.',
    },
    noProduction: {
      ack: 'Се проверуваат трафостаницата и СН ќелијата.',
      work: 'Дистрибутерот пријави регионален прекин.',
      rootCause: 'Непланиран прекин во дистрибутивната мрежа.',
      resolution: 'Мрежата е вратена, сите инвертори произведуваат.',
    },
  },
};

const kindOf = (alarm: AlarmRecord): Kind =>
  alarm.source === 'comm_loss'
    ? 'comm'
    : alarm.source === 'performance'
      ? 'performance'
      : alarm.source === 'plant_no_production'
        ? 'noProduction'
        : 'trip';

/** Whole milliseconds between `min` and `max` (times are stored as integers). */
const between = (random: Random, min: number, max: number) => Math.round(min + (max - min) * random());

/**
 * Works the cleared alarms of the history up to `endMs` into faults and rejections (see the file's
 * comment); answers what it made. Deterministic for a given history.
 */
export async function seedDemoFaults(
  ctx: Pick<AppContext, 'db' | 'alarmEngine'>,
  endMs: number,
  /** The simulator's seeded generator (its package is optional: load-simulator.ts). */
  randomFrom: typeof createRandom,
): Promise<DemoFaultsResult> {
  const result: DemoFaultsResult = {
    faults: { open: 0, in_progress: 0, resolved: 0, closed: 0 },
    rejected: 0,
  };
  const technicians = await ctx.db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.role_id')
    .select(['users.id', 'users.company_id', 'users.language_id'])
    .where('roles.name', '=', TECHNICIAN_ROLE_NAME)
    .where('users.is_active', '=', 1)
    .orderBy('users.id')
    .execute();
  const byCompany = new Map<number, Technician[]>();
  for (const t of technicians) {
    if (t.company_id === null) continue;
    const list = byCompany.get(t.company_id) ?? [];
    list.push({ id: t.id, companyId: t.company_id, locale: t.language_id === 4 ? 'mk_MK' : 'tr_TR' });
    byCompany.set(t.company_id, list);
  }
  const { items } = await listAlarms(
    ctx.db,
    { all: true },
    { status_id: ALARM_STATUS.cleared },
    { limit: 5000, offset: 0 },
    false,
  );
  // One alarm per incident, its cause (a trip raises its status and its Evt1 cause at once; approving the
  // cause approves the alarms that followed it), and per kind of alarm of a device, oldest first.
  const seen = new Set<string>();
  const candidates = items
    .filter((a) => byCompany.has(a.company_id) && a.cleared_at !== null && a.cause_alarm_id === null)
    .sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at) || a.id - b.id)
    .filter((a) => {
      const device = a.device_id ?? `p${a.plant_id}`;
      const keys = [`${device}@${a.started_at}`, `${a.source}:${device}:${a.message}`];
      if (keys.some((k) => seen.has(k))) return false;
      for (const k of keys) seen.add(k);
      return true;
    });
  if (!candidates.length) return result;
  const random = randomFrom(candidates.length * 7919 + candidates[0]!.id);

  // A few short underperformance or trip alarms turn out to be nothing: rejected.
  const rejects = candidates
    .filter((a) => a.source === 'performance' || a.priority_id <= 2)
    .slice(-MAX_REJECTED)
    .slice(0, Math.max(1, Math.min(MAX_REJECTED, Math.floor(candidates.length / 6))));
  const rejectIds = new Set(rejects.map((a) => a.id));
  const worked = [...candidates.filter((a) => !rejectIds.has(a.id))]
    .sort((a, b) => b.priority_id - a.priority_id || Date.parse(a.started_at) - Date.parse(b.started_at))
    .slice(0, MAX_FAULTS)
    .sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at));

  let now = 0;
  const clock = { db: ctx.db, now: () => now };
  const alarms = new AlarmsService({
    ...clock,
    alarmPublisher: SILENT_PUBLISHER,
    alarmEngine: ctx.alarmEngine,
  });
  const faults = new FaultsService(clock);
  const actorOf = (t: Technician): Actor => ({
    userId: t.id,
    ip: null,
    isAdmin: false,
    companyId: t.companyId,
    units: [],
  });
  const latest = endMs - MINUTE_MS;

  for (const [i, alarm] of rejects.entries()) {
    const team = byCompany.get(alarm.company_id)!;
    now = Math.min(Date.parse(alarm.cleared_at!) + between(random, 5 * MINUTE_MS, 40 * MINUTE_MS), latest);
    await alarms.reject(actorOf(team[i % team.length]!), alarm.id);
    result.rejected++;
  }

  // The oldest faults are closed, the newest still open: the share of each state follows age.
  const target = (index: number): FaultStatus => {
    const share = (index + 0.5) / worked.length;
    return share < 0.4 ? 'closed' : share < 0.65 ? 'resolved' : share < 0.85 ? 'in_progress' : 'open';
  };
  for (const [i, alarm] of worked.entries()) {
    const team = byCompany.get(alarm.company_id)!;
    const approver = actorOf(team[i % team.length]!);
    const assignee = team[(i + 1) % team.length]!;
    const text = TEXTS[assignee.locale === 'mk_MK' ? 'mk' : 'tr'][kindOf(alarm)];
    const started = Date.parse(alarm.started_at);
    const approvedAt = started + between(random, 8 * MINUTE_MS, 35 * MINUTE_MS);
    const ackAt = approvedAt + between(random, 10 * MINUTE_MS, 50 * MINUTE_MS);
    const resolvedAt = ackAt + between(random, 1.5 * HOUR_MS, 5 * HOUR_MS);
    const closedAt = resolvedAt + between(random, 1 * HOUR_MS, 4 * HOUR_MS);
    // A fault cannot be further along than the time it had before the end of the history.
    let status = target(i);
    if (status === 'closed' && closedAt > latest) status = 'resolved';
    if (status === 'resolved' && resolvedAt > latest) status = 'in_progress';
    if (status === 'in_progress' && ackAt > latest) status = 'open';
    if (approvedAt > latest) continue;

    now = approvedAt;
    const { fault_id: faultId } = await alarms.approve(approver, alarm.id);
    if (status !== 'open') {
      const fault = await faults.get(approver, faultId);
      const body = {
        plant_id: fault.plant_id,
        device_id: fault.device_id,
        tag_id: fault.tag_id,
        title: fault.title,
        description: fault.description ?? undefined,
        priority_id: fault.priority_id,
        assignee_user_id: assignee.id,
      };
      const worker = actorOf(assignee);
      now = ackAt;
      await faults.save(approver, faultId, { ...body, status: 'in_progress' });
      await faults.comment(worker, faultId, text.ack);
      if (status === 'resolved' || status === 'closed') {
        now = Math.round((ackAt + resolvedAt) / 2);
        await faults.comment(worker, faultId, text.work);
        now = resolvedAt;
        await faults.save(worker, faultId, {
          ...body,
          status: 'resolved',
          root_cause: text.rootCause,
          resolution: text.resolution,
        });
      }
      if (status === 'closed') {
        now = closedAt;
        await faults.save(approver, faultId, {
          ...body,
          status: 'closed',
          root_cause: text.rootCause,
          resolution: text.resolution,
        });
      }
    }
    result.faults[status]++;
  }
  return result;
}
