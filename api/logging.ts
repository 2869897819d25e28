/**
 * The server's log (application.md §2 "Application shell": 'Server logs' downloads a zip of server logs).
 * Fastify's pino logger writes every line to standard output and to rotating files under DATA_DIR/logs
 * (pino-roll): one file per day, `keelson.YYYY-MM-DD.N.log`, a new one also after LOG_FILE_MAX_SIZE, and the
 * newest LOG_FILES_KEPT files kept.
 */
import type { FastifyServerOptions } from 'fastify';
import type { ServerConfig } from './config';

/** Base name of the log files in ServerConfig.logDir. */
export const LOG_FILE_BASE = 'keelson';
/** Size after which a log file is rotated within a day (pino-roll units). */
export const LOG_FILE_MAX_SIZE = '20m';
/** Rotated log files kept besides the active one. */
export const LOG_FILES_KEPT = 14;

/** Logger options for Fastify: stdout plus the rotating files of `config.logDir`. */
export function serverLoggerOptions(config: ServerConfig): FastifyServerOptions['logger'] {
  return {
    level: process.env.LOG_LEVEL || 'info',
    transport: {
      targets: [
        { target: 'pino/file', options: { destination: 1 } },
        {
          target: 'pino-roll',
          options: {
            file: `${config.logDir}/${LOG_FILE_BASE}`,
            extension: '.log',
            frequency: 'daily',
            dateFormat: 'yyyy-MM-dd',
            size: LOG_FILE_MAX_SIZE,
            mkdir: true,
            limit: { count: LOG_FILES_KEPT, removeOtherLogFiles: true },
          },
        },
      ],
    },
  };
}
