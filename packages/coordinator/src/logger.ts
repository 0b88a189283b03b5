import pino, { type Logger } from 'pino';

/** JSON lines when the output is not a terminal (machines read them), pretty lines otherwise. */
export function createLogger(nodeName: string): Logger {
  const level = process.env.SHOAL_LOG_LEVEL ?? 'info';
  if (process.stdout.isTTY) {
    return pino({
      level,
      base: { node: nodeName },
      transport: {
        target: 'pino-pretty',
        options: { colorize: true, ignore: 'pid,hostname', translateTime: 'HH:MM:ss.l' },
      },
    });
  }
  return pino({ level, base: { node: nodeName } });
}
