/**
 * A tiny SMTP server for tests: speaks just enough SMTP over TCP (EHLO,
 * MAIL, RCPT, DATA, QUIT; no TLS, no AUTH) for PocketBase to hand it a
 * message, and keeps each message it is given.
 */
import { createServer, type Socket } from 'node:net';

export interface SentMail {
  from: string;
  to: string[];
  /** The raw message (headers and body) as sent. */
  raw: string;
}

export interface SmtpSink {
  port: number;
  messages: SentMail[];
  /** Resolves with the next message (or one already received past `after`). */
  next: (after?: number, timeoutMs?: number) => Promise<SentMail>;
  stop: () => Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: SentMail[] = [];
  const waiters: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let inData = false;
    let current: SentMail = { from: '', to: [], raw: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink.test ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.raw = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
          buffer = buffer.slice(end + 5);
          inData = false;
          messages.push(current);
          current = { from: '', to: [], raw: '' };
          reply('250 OK: queued');
          waiters.splice(0).forEach((wake) => wake());
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') reply('250 sink.test');
        else if (verb === 'HELO') reply('250 sink.test');
        else if (verb === 'MAIL') {
          current.from = line.slice(10).replace(/[<>]/g, '').trim();
          reply('250 OK');
        } else if (verb === 'RCPT') {
          current.to.push(line.slice(8).replace(/[<>]/g, '').trim());
          reply('250 OK');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else reply('250 OK');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('SMTP sink has no port');
  return {
    port: address.port,
    messages,
    next: async (after = messages.length, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (messages.length <= after) {
        if (Date.now() > deadline) throw new Error('No e-mail arrived at the SMTP sink');
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return messages[after]!;
    },
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The text of a message with quoted-printable soft breaks and escapes undone. */
export function decodedMail(raw: string): string {
  return raw
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
