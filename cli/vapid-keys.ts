/**
 * `arbiter vapid-keys replace [--data-dir DIR]`: replaces the local server's Web Push key pair kept in its
 * data directory (store/vapid-file.ts). Every browser subscribed with the old key stops getting pushes
 * (the push service accepts only the key it subscribed with); the server drops those subscriptions at
 * their next send and the play page subscribes again when it opens. Restart the server to load the new
 * pair. Not for a server given ARBITER_VAPID_PUBLIC_KEY/ARBITER_VAPID_PRIVATE_KEY, nor for AWS (put a new
 * value in the secret of ARBITER_VAPID_SECRET_ARN).
 */
import { replaceVapidKeys } from '../store/vapid-file.js';
import { dataDirAction } from './data-dir-command.js';
import type { CliIo } from './io.js';

const USAGE = 'usage: arbiter vapid-keys replace [--data-dir DIR]   (default ARBITER_DATA_DIR, else .arbiter-data)';

export async function run(args: string[], io: CliIo): Promise<number> {
  const dir = dataDirAction(args, 'replace', USAGE, io);
  if (typeof dir === 'number') return dir;
  const { publicKey } = await replaceVapidKeys(dir);
  io.out(
    `Replaced the Web Push keys in ${dir} (public key ${publicKey}): restart the server; browsers subscribe again when they open the play page.`,
  );
  return 0;
}
