/**
 * The Web Push part of `npm run rest-examples` (scripts/rest-examples.ts): the server's public key, a
 * browser subscribed, listed, refused for a private endpoint, and unsubscribed both ways. Fixed keys, so
 * the examples do not change from run to run; nothing is pushed.
 */
import type { PushSettings } from '../service/push-channel.js';
import type { Call } from './rest-examples-tournaments.js';

/** A key pair made for the examples only (private key 0x09 × 32): never a deployment's. */
export const EXAMPLE_PUSH: PushSettings = {
  subject: 'mailto:operator@arbiter.example',
  vapidKeys: () =>
    Promise.resolve({
      publicKey: 'BHE1-k_ZOgnc6Yu_aBtL_PUOfA1jVOYq-wv_KjQpYXhl7UwfAt25Aj7lalV-UV1qncZsEfIglg3llDNN9Yh3ZyQ',
      privateKey: 'CQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQk',
    }),
};

/** A browser's subscription as PushSubscription.toJSON() gives it (the keys of a fixed private key). */
const browser = (endpoint: string) => ({
  endpoint,
  keys: {
    p256dh: 'BB4YUy_UdUwC8wQdnHXOszuD_9gax85P6ILMscmLxYlupGwxHE4v9A3ZajZT5uRURdMt_khuztdcepDGoYiBwKM',
    auth: 'AwMDAwMDAwMDAwMDAwMDAw',
  },
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
});

export const recordPushExamples = async (call: Call, token: string): Promise<void> => {
  await call('getPushPublicKey', 'GET', '/push/public-key');
  const sub = await call(
    'subscribePush',
    'POST',
    '/push/subscriptions',
    token,
    browser('https://updates.push.services.mozilla.com/wpush/v2/gAAAAABexample'),
  );
  await call('subscribePush', 'POST', '/push/subscriptions', token, browser('https://192.168.1.20/push/abc'));
  await call('listPushSubscriptions', 'GET', '/push/subscriptions', token);
  await call('unsubscribePush', 'DELETE', `/push/subscriptions/${sub.id}`, token);
  await call('subscribePush', 'POST', '/push/subscriptions', token, browser('https://fcm.googleapis.com/fcm/send/example-token'));
  await call('unsubscribePushEndpoint', 'POST', '/push/unsubscribe', token, {
    endpoint: 'https://fcm.googleapis.com/fcm/send/example-token',
  });
  await call('unsubscribePushEndpoint', 'POST', '/push/unsubscribe', token, {
    endpoint: 'https://fcm.googleapis.com/fcm/send/example-token',
  });
};
