/**
 * A real SMTP server in the test process (smtp-server), which keeps every mail it accepts parsed by
 * mailparser, and refuses the recipients a test names with 550 on RCPT TO, as a receiving server does
 * for an address that does not exist.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TestSmtp {
  readonly url: string;
  readonly received: ParsedMail[];
  /** Recipients refused with 550 5.1.1 from now on. */
  readonly refuse: Set<string>;
  /** The next mail to arrive (or one that already did and was not taken yet). */
  next(timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export const startSmtp = async (): Promise<TestSmtp> => {
  const received: ParsedMail[] = [];
  const refuse = new Set<string>();
  let taken = 0;
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address.toLowerCase())) {
        const e = Object.assign(new Error('5.1.1 <' + address.address + '>: Recipient address rejected: User unknown'), {
          responseCode: 550,
        });
        return callback(e);
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream, { skipImageLinks: true }).then(
        (mail) => {
          received.push(mail);
          for (const w of waiters.splice(0)) w();
          callback();
        },
        (e: Error) => callback(e),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse,
    next: async (timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length <= taken) {
        if (Date.now() > deadline) throw new Error(`no mail within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received[taken++]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
