/**
 * The agent's durable queue of readings (docs/edge.md, "How it keeps readings"): a SQLite file in the data
 * directory. A reading is inserted before anything tries to send it and leaves only when the console
 * acknowledged the batch that carried it (its 2xx answer to POST /api/telemetry), so a crash, a `kill -9`
 * or a power cut between the two sends it again, and the console's ingest stores a repeated point once.
 *
 * The queue has a bound in rows: past it the oldest readings are dropped, and counted in `dropped_total`,
 * kept in the same file so that the count survives restarts (the health report carries it).
 */
import Database from 'better-sqlite3';

export interface QueuedReading {
  seq: number;
  signal_id: number;
  /** Reading time, epoch ms on the agent's clock. */
  ts: number;
  value: number;
}

export interface NewReading {
  signal_id: number;
  ts: number;
  value: number;
}

export interface QueueOptions {
  /** Most readings kept; past it the oldest go first. */
  maxRows: number;
  /**
   * Also record every reading ever queued in a `journal` table, in the same transaction (for the
   * end-to-end test and the bench, which prove that what was queued was stored exactly once).
   */
  journal?: boolean;
}

/** 50 devices × 20 signals every 10 s for 7 days: an outage of a week on a large plant loses nothing. */
export const DEFAULT_MAX_ROWS = (50 * 20 * (7 * 86_400)) / 10;

type Counter = 'dropped_total' | 'rejected_total' | 'queued_total';

export class ReadingQueue {
  private readonly db: Database.Database;
  private rows: number;
  private readonly maxRows: number;
  private readonly journal: boolean;
  private readonly insertStmt: Database.Statement;
  private readonly journalStmt: Database.Statement;
  private readonly deleteStmt: Database.Statement;
  private readonly oldestStmt: Database.Statement;
  private readonly oldestTsStmt: Database.Statement;
  private readonly sinceStmt: Database.Statement;
  private readonly dropStmt: Database.Statement;
  private readonly addCounterStmt: Database.Statement;
  private readonly counterStmt: Database.Statement;

  constructor(file: string, options: QueueOptions) {
    this.maxRows = Math.max(1, Math.floor(options.maxRows));
    this.journal = options.journal ?? false;
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // FULL: a transaction is on disk when its commit returns, also across a power cut, which is common at
    // a plant (NORMAL keeps it across a crash of the process only). A commit is one fsync per device
    // poll and one per acknowledged batch: a few a second for 50 devices, far below what a disk does.
    this.db.pragma('synchronous = FULL');
    this.db.exec(`
      create table if not exists readings (
        seq integer primary key autoincrement,
        signal_id integer not null,
        ts integer not null,
        value real not null
      );
      create index if not exists readings_ts on readings (ts, seq);
      create table if not exists counters (name text primary key, value integer not null);
      create table if not exists journal (signal_id integer not null, ts integer not null);
    `);
    this.insertStmt = this.db.prepare('insert into readings (signal_id, ts, value) values (?, ?, ?)');
    this.journalStmt = this.db.prepare('insert into journal (signal_id, ts) values (?, ?)');
    // One statement for a whole acknowledged batch: 10,000 single-row deletes cost a third more.
    this.deleteStmt = this.db.prepare('delete from readings where seq in (select value from json_each(?))');
    // Keyset: the read after (ts, seq) starts where the batch before it ended, so the sender can read the
    // next backlog batch while the one before is still on the wire (docs/edge.md, "How it keeps readings").
    this.oldestStmt = this.db.prepare(
      `select seq, signal_id, ts, value from readings
       where ts < ? and ts >= ? and (ts > ? or seq > ?) order by ts, seq limit ?`,
    );
    this.oldestTsStmt = this.db.prepare('select min(ts) as ts from readings');
    this.sinceStmt = this.db.prepare(
      'select seq, signal_id, ts, value from readings where ts >= ? order by ts, seq limit ?',
    );
    this.dropStmt = this.db.prepare(
      'delete from readings where seq in (select seq from readings order by ts, seq limit ?)',
    );
    this.addCounterStmt = this.db.prepare(
      'insert into counters (name, value) values (?, ?) on conflict (name) do update set value = value + excluded.value',
    );
    this.counterStmt = this.db.prepare('select value from counters where name = ?');
    this.rows = (this.db.prepare('select count(*) as n from readings').get() as { n: number }).n;
  }

  /** Readings waiting for an acknowledgement. */
  get depth(): number {
    return this.rows;
  }

  counter(name: Counter): number {
    return (this.counterStmt.get(name) as { value: number } | undefined)?.value ?? 0;
  }

  /** Stores one poll's readings in one transaction; drops the oldest beyond the bound, counted. */
  push(readings: readonly NewReading[]): void {
    if (!readings.length) return;
    this.db.transaction(() => {
      for (const r of readings) {
        this.insertStmt.run(r.signal_id, r.ts, r.value);
        if (this.journal) this.journalStmt.run(r.signal_id, r.ts);
      }
      this.addCounterStmt.run('queued_total', readings.length);
      const over = this.rows + readings.length - this.maxRows;
      if (over > 0) {
        const dropped = this.dropStmt.run(over).changes;
        this.addCounterStmt.run('dropped_total', dropped);
      }
    })();
    this.rows = Math.min(this.rows + readings.length, this.maxRows);
  }

  /**
   * The oldest readings taken before `before` (epoch ms), in reading-time order, after the reading `after`
   * (the last one of a batch read before) when given; they stay queued.
   */
  oldest(limit: number, before = Number.MAX_SAFE_INTEGER, after?: QueuedReading): QueuedReading[] {
    const afterTs = after?.ts ?? Number.MIN_SAFE_INTEGER;
    return this.oldestStmt.all(before, afterTs, afterTs, after?.seq ?? 0, limit) as QueuedReading[];
  }

  /** Readings taken at or after `since`, oldest first: the live ones, sent ahead of a backlog. */
  since(since: number, limit: number): QueuedReading[] {
    return this.sinceStmt.all(since, limit) as QueuedReading[];
  }

  /** Reading time of the oldest reading still queued. */
  oldestTs(): number | null {
    return (this.oldestTsStmt.get() as { ts: number | null }).ts;
  }

  /**
   * The console acknowledged these readings: they leave the queue, and nothing else does. `rejected` of
   * them were refused one by one in the answer (an unknown signal, out of range…): counted, not resent.
   */
  ack(batch: readonly QueuedReading[], rejected = 0): void {
    let removed = 0;
    this.db.transaction(() => {
      removed = this.deleteStmt.run(JSON.stringify(batch.map((r) => r.seq))).changes;
      if (rejected) this.addCounterStmt.run('rejected_total', rejected);
    })();
    this.rows -= removed;
  }

  /** Every (signal, reading time) ever queued, when the queue keeps a journal. */
  journalEntries(): { signal_id: number; ts: number }[] {
    return this.db.prepare('select signal_id, ts from journal order by ts, signal_id').all() as {
      signal_id: number;
      ts: number;
    }[];
  }

  close(): void {
    this.db.close();
  }
}
