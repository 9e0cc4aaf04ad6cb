import { logLevel, type logCreator } from 'kafkajs';
import type { Logger } from '../../logger';

/** kafkajs logs through pino, warnings and errors only: its info lines are per-connection chatter. */
export const kafkaLogLevel = logLevel.WARN;

export function pinoLogCreator(logger: Logger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, ...details } = log;
      const entry = { kafkajs: namespace, ...details };
      if (level === logLevel.ERROR) logger.error(entry, message);
      else logger.warn(entry, message);
    };
}
