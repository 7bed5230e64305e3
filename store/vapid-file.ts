import { createECDH } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The local server's VAPID key pair (Web Push, RFC 8292), kept in its data directory like the
 * token-signing key (store/secret-file.ts): made once, readable by the owner only (0600), so the browsers
 * that subscribed stay reachable across restarts. Replacing it (`arbiter vapid-keys replace`) cuts every
 * existing subscription off: a push service accepts only the key a browser subscribed with, so the play
 * page subscribes again with the new one when it next opens.
 */
export const VAPID_KEYS_FILE = 'vapid-keys.json';

export interface VapidKeyPair {
  readonly publicKey: string;
  readonly privateKey: string;
}

/**
 * Checks a key pair given by an operator (a file, a secret, the environment): a P-256 public key of 65
 * bytes and a private key of 32, base64url, that belong together. Throws naming `where`.
 */
export const checkVapidKeyPair = (value: unknown, where: string): VapidKeyPair => {
  const v = (value ?? {}) as Partial<Record<keyof VapidKeyPair, unknown>>;
  if (typeof v.publicKey !== 'string' || typeof v.privateKey !== 'string') {
    throw new Error(`${where}: expected {"publicKey": "…", "privateKey": "…"} (base64url, as web-push generate-vapid-keys prints them)`);
  }
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(Buffer.from(v.privateKey, 'base64url'));
  } catch {
    throw new Error(`${where}: privateKey is not a P-256 private key in base64url`);
  }
  if (ecdh.getPublicKey('base64url') !== v.publicKey.replace(/=+$/, '')) {
    throw new Error(`${where}: publicKey is not the public half of privateKey`);
  }
  return { publicKey: ecdh.getPublicKey('base64url'), privateKey: v.privateKey.replace(/=+$/, '') };
};

const readPair = (path: string): VapidKeyPair | null => {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not JSON`);
  }
  return checkVapidKeyPair(parsed, path);
};

/** web-push is loaded only to make a pair: a process that reads its keys (every API cold start) does without it. */
const writePair = async (path: string, exclusive: boolean): Promise<void> => {
  const { default: webpush } = await import('web-push');
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  writeFileSync(path, `${JSON.stringify({ publicKey, privateKey }, null, 2)}\n`, { mode: 0o600, flag: exclusive ? 'wx' : 'w' });
  chmodSync(path, 0o600);
};

/** The key pair in `dir`, made (and the folder with it) on first use; two servers starting at once keep one pair. */
export const readOrCreateVapidKeys = async (dir: string): Promise<{ keys: VapidKeyPair; created: boolean }> => {
  const path = join(dir, VAPID_KEYS_FILE);
  const existing = readPair(path);
  if (existing) return { keys: existing, created: false };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    await writePair(path, true);
    return { keys: readPair(path)!, created: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return { keys: readPair(path)!, created: false };
    throw e;
  }
};

/** Replaces the pair with a new one (written beside, then renamed over, so a reader never sees half a file). */
export const replaceVapidKeys = async (dir: string): Promise<VapidKeyPair> => {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const next = join(dir, `${VAPID_KEYS_FILE}.next`);
  await writePair(next, false);
  renameSync(next, join(dir, VAPID_KEYS_FILE));
  return readPair(join(dir, VAPID_KEYS_FILE))!;
};
