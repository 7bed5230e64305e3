/**
 * Secrets Manager's rotation function for the JWT signing key (infra/constructs/secrets.ts schedules it
 * every 30 days). The four steps of a rotation: createSecret puts a new random key as AWSPENDING;
 * setSecret and testSecret have nothing to do (no other system holds the key: the API reads it from the
 * secret, functions/jwt-keys.ts); finishSecret makes it AWSCURRENT, and the key before becomes
 * AWSPREVIOUS, which the API keeps accepting for one token lifetime. Every step can run twice safely.
 */
export interface RotationEvent {
  readonly SecretId: string;
  readonly ClientRequestToken: string;
  readonly Step: 'createSecret' | 'setSecret' | 'testSecret' | 'finishSecret';
}

/** The Secrets Manager calls rotation makes (the SDK client in production; tests pass a fake). */
export interface RotationClient {
  describe(secretId: string): Promise<{ rotationEnabled: boolean; versions: Readonly<Record<string, readonly string[]>> }>;
  /** Whether an earlier try of createSecret already stored the pending version's value. */
  hasPendingValue(secretId: string, token: string): Promise<boolean>;
  randomKey(): Promise<string>;
  putPending(secretId: string, token: string, value: string): Promise<void>;
  moveCurrent(secretId: string, toVersion: string, fromVersion: string | undefined): Promise<void>;
}

const currentVersion = (versions: Readonly<Record<string, readonly string[]>>): string | undefined =>
  Object.entries(versions).find(([, stages]) => stages.includes('AWSCURRENT'))?.[0];

export const rotate = async (client: RotationClient, event: RotationEvent, log: (line: string) => void = console.log): Promise<void> => {
  const { SecretId: id, ClientRequestToken: token, Step: step } = event;
  const { rotationEnabled, versions } = await client.describe(id);
  if (!rotationEnabled) throw new Error(`secret ${id} does not have rotation enabled`);
  const stages = versions[token];
  if (!stages) throw new Error(`secret ${id} has no version ${token} to rotate to`);
  if (stages.includes('AWSCURRENT') && step !== 'finishSecret') throw new Error(`version ${token} of ${id} is already current`);
  if (!stages.includes('AWSPENDING') && !stages.includes('AWSCURRENT')) throw new Error(`version ${token} of ${id} is not pending`);
  switch (step) {
    case 'createSecret':
      if (await client.hasPendingValue(id, token)) return;
      await client.putPending(id, token, await client.randomKey());
      break;
    case 'setSecret':
    case 'testSecret':
      break;
    case 'finishSecret': {
      const current = currentVersion(versions);
      if (current === token) return;
      await client.moveCurrent(id, token, current);
      break;
    }
    default:
      throw new Error(`unknown rotation step ${String(step)}`);
  }
  log(JSON.stringify({ msg: 'jwt-secret.rotate', step, version: token }));
};

/** The AWS SDK behind {@link RotationClient} (loaded on first use; the SDK ships with the runtime). */
const sdkClient = (): RotationClient => {
  const sdk = import('@aws-sdk/client-secrets-manager').then((m) => ({ m, client: new m.SecretsManagerClient({}) }));
  return {
    describe: async (id) => {
      const { m, client } = await sdk;
      const out = await client.send(new m.DescribeSecretCommand({ SecretId: id }));
      return { rotationEnabled: out.RotationEnabled === true, versions: out.VersionIdsToStages ?? {} };
    },
    hasPendingValue: async (id, token) => {
      const { m, client } = await sdk;
      try {
        await client.send(new m.GetSecretValueCommand({ SecretId: id, VersionId: token, VersionStage: 'AWSPENDING' }));
        return true;
      } catch (e) {
        if (e instanceof m.ResourceNotFoundException) return false;
        throw e;
      }
    },
    randomKey: async () => {
      const { m, client } = await sdk;
      const out = await client.send(new m.GetRandomPasswordCommand({ PasswordLength: 64, ExcludePunctuation: true }));
      return out.RandomPassword!;
    },
    putPending: async (id, token, value) => {
      const { m, client } = await sdk;
      await client.send(
        new m.PutSecretValueCommand({ SecretId: id, ClientRequestToken: token, SecretString: value, VersionStages: ['AWSPENDING'] }),
      );
    },
    moveCurrent: async (id, toVersion, fromVersion) => {
      const { m, client } = await sdk;
      await client.send(
        new m.UpdateSecretVersionStageCommand({
          SecretId: id,
          VersionStage: 'AWSCURRENT',
          MoveToVersionId: toVersion,
          RemoveFromVersionId: fromVersion,
        }),
      );
    },
  };
};

/** The Lambda entry point, invoked by Secrets Manager once per step. */
export const handler = async (event: RotationEvent): Promise<void> => rotate(sdkClient(), event);
