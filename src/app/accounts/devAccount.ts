import type { LogSink } from '../log';
import type { AccountStore } from './accountStore';

export const DEV_ACCOUNT_NAME = 'Local platform (npm start)';

const VARIABLES = [
  'VIDEO_PLATFORM_DEV_BASE_URL',
  'VIDEO_PLATFORM_DEV_ACCESS_KEY',
  'VIDEO_PLATFORM_DEV_SECRET_KEY',
] as const;

/**
 * `npm start` passes the local platform it started through the environment. When all three
 * variables are set, the account "Local platform (npm start)" is added or updated from them (the
 * secret into secret storage) and its id returned, to be made active. Partial settings are
 * reported, not guessed.
 */
export async function applyDevEnvironment(
  env: NodeJS.ProcessEnv,
  store: AccountStore,
  log: LogSink,
): Promise<string | undefined> {
  const present = VARIABLES.filter((name) => env[name]);
  if (present.length === 0) return undefined;
  if (present.length < VARIABLES.length) {
    log.warn(`Ignoring the npm start account: ${VARIABLES.filter((name) => !env[name]).join(', ')} not set.`);
    return undefined;
  }
  const fields = { baseUrl: env.VIDEO_PLATFORM_DEV_BASE_URL!, accessKey: env.VIDEO_PLATFORM_DEV_ACCESS_KEY! };
  const secretKey = env.VIDEO_PLATFORM_DEV_SECRET_KEY!;
  const existing = store.list().find((account) => account.origin === 'dev');
  const profile = existing
    ? await store.update(existing.id, fields, secretKey)
    : await store.add({ ...fields, name: DEV_ACCOUNT_NAME, origin: 'dev' }, secretKey);
  log.info(`Using the npm start platform at ${profile.baseUrl}`);
  return profile.id;
}
