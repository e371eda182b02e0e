/** One JSON line per event on stderr, which journald keeps (docs/edge.md). */
export type Level = 'debug' | 'info' | 'warn' | 'error';
export type Log = (level: Level, msg: string, fields?: Record<string, unknown>) => void;

export const jsonLog =
  (minimum: Level = 'info'): Log =>
  (level, msg, fields = {}) => {
    const order: Level[] = ['debug', 'info', 'warn', 'error'];
    if (order.indexOf(level) < order.indexOf(minimum)) return;
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
  };
