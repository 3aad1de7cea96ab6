/**
 * Connection settings, resolved from Pulumi stack configuration (namespace `vendor`) with environment
 * fallbacks. This module is the one place that reads them: the providers (provider/common/context.ts,
 * including the default `projectId` of `check`) and the SDK's functions (sdk/dataSource.ts) both go through
 * {@link readSetting}, so a resource and a function never disagree on a value. Credentials are read here, in
 * the process that calls the service, and are never captured into the serialized provider or into state.
 */
import { isStateClass, STATE_CLASSES, type StateClass } from "./states";

/** Resolved settings of one client. */
export interface VendorSettings {
  /** Service URL (`vendor:baseUrl`, `VENDOR_BASE_URL`). */
  baseUrl: string;
  /** Default project of every resource (`vendor:projectId`, `VENDOR_PROJECT_ID`). */
  projectId?: string;
  /** Static bearer token (`vendor:token`, `VENDOR_TOKEN`). */
  token?: string;
  /** OAuth2 client id (`vendor:clientId`, `VENDOR_CLIENT_ID`). */
  clientId?: string;
  /** OAuth2 client secret (`vendor:clientSecret`, `VENDOR_CLIENT_SECRET`). */
  clientSecret?: string;
  /** OAuth2 token endpoint (`vendor:tokenUrl`, `VENDOR_TOKEN_URL`). */
  tokenUrl?: string;
  /** `api-version` query parameter; default `1`. */
  apiVersion: string;
  /** Provider path segment; default `Vendor.Container`. */
  providerNamespace: string;
  /** Time between status polls while waiting. */
  pollIntervalMs: number;
  /** Timeout of one HTTP attempt. */
  requestTimeoutMs: number;
  /** Overall deadline of one call including retries. */
  callDeadlineMs: number;
  /**
   * Extra state names and what they mean (`vendor:stateNames`, `VENDOR_STATE_NAMES`, JSON such as
   * `{"Ready": "settled"}`); unset: only the api-notes' names. Read by the client's waiter (rest/waiter.ts).
   */
  stateNames?: Readonly<Record<string, StateClass>>;
  /**
   * How long a wait gives a state it does not know (`vendor:unknownStateTimeout`, a duration such as `5m`);
   * unset: the waiter's default of 5 minutes.
   */
  unknownStateTimeoutMs?: number;
  /**
   * When a cluster's kubeconfig is downloaded again (`vendor:kubeconfigRefresh`, `VENDOR_KUBECONFIG_REFRESH`):
   * `always` (the default), in every create, update and refresh that finds the cluster settled; or `onChange`,
   * only when the state holds none or the cluster's answer differs from the state's outputs (its endpoint,
   * version, state, node pools...), which saves one request per cluster and refresh but keeps a credential
   * the service rotated without any other change until the cluster changes.
   */
  kubeconfigRefresh: KubeconfigRefresh;
}

/** The values of `vendor:kubeconfigRefresh`. */
export type KubeconfigRefresh = "always" | "onChange";

/** Each setting: its stack config key and its environment variable. */
export const SETTING_SOURCES = {
  baseUrl: ["vendor:baseUrl", "VENDOR_BASE_URL"],
  projectId: ["vendor:projectId", "VENDOR_PROJECT_ID"],
  token: ["vendor:token", "VENDOR_TOKEN"],
  clientId: ["vendor:clientId", "VENDOR_CLIENT_ID"],
  clientSecret: ["vendor:clientSecret", "VENDOR_CLIENT_SECRET"],
  tokenUrl: ["vendor:tokenUrl", "VENDOR_TOKEN_URL"],
  apiVersion: ["vendor:apiVersion", "VENDOR_API_VERSION"],
  providerNamespace: ["vendor:providerNamespace", "VENDOR_PROVIDER_NAMESPACE"],
  pollIntervalMs: ["vendor:pollIntervalMs", "VENDOR_POLL_INTERVAL_MS"],
  requestTimeoutMs: ["vendor:requestTimeoutMs", "VENDOR_REQUEST_TIMEOUT_MS"],
  callDeadlineMs: ["vendor:callDeadlineMs", "VENDOR_CALL_DEADLINE_MS"],
  stateNames: ["vendor:stateNames", "VENDOR_STATE_NAMES"],
  unknownStateTimeoutMs: ["vendor:unknownStateTimeout", "VENDOR_UNKNOWN_STATE_TIMEOUT"],
  kubeconfigRefresh: ["vendor:kubeconfigRefresh", "VENDOR_KUBECONFIG_REFRESH"],
} as const satisfies Record<keyof VendorSettings, readonly [string, string]>;

/**
 * Settings that only `check` reads (provider/common/context.ts), not part of a client's settings: the
 * account's per-cluster-type limits (spec §8), parsed by provider/common/limits.ts.
 */
export const CHECK_SETTING_SOURCES = {
  limits: ["vendor:limits", "VENDOR_LIMITS"],
} as const;

/** Every setting {@link readSetting} reads: the client's and `check`'s. */
const ALL_SETTING_SOURCES = { ...SETTING_SOURCES, ...CHECK_SETTING_SOURCES };

/** The value of each setting that has a default. */
export const DEFAULT_SETTINGS: Pick<
  VendorSettings,
  | "apiVersion"
  | "providerNamespace"
  | "pollIntervalMs"
  | "requestTimeoutMs"
  | "callDeadlineMs"
  | "kubeconfigRefresh"
> = {
  apiVersion: "1",
  providerNamespace: "Vendor.Container",
  pollIntervalMs: 10_000,
  requestTimeoutMs: 30_000,
  callDeadlineMs: 120_000,
  kubeconfigRefresh: "always",
};

/** Thrown when the settings cannot work (no base URL, no credentials, malformed numbers). */
export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SettingsError";
  }
}

/** The settings that are a number of milliseconds. */
type MsSetting = "pollIntervalMs" | "requestTimeoutMs" | "callDeadlineMs";

function positiveInt(name: MsSetting, text: string | undefined, fallback: number): number {
  if (text === undefined || text.trim() === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    throw new SettingsError(`${SETTING_SOURCES[name][0]} must be a positive integer (ms), got "${text}"`);
  }
  return value;
}

/**
 * Parses `vendor:stateNames`: a JSON object of state names to state classes (`settled`, `transitional`,
 * `deleting`, `deleted`, `failed`). Names and classes are compared case-insensitively, as the waiter compares
 * states; every problem is reported at once.
 */
export function parseStateNames(text: string | undefined): Record<string, StateClass> | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const key = SETTING_SOURCES.stateNames[0];
  const classes = STATE_CLASSES.join(", ");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new SettingsError(
      `${key} must be a JSON object mapping state names to ${classes}, e.g. {"Ready": "settled"}; got ${JSON.stringify(text)}`,
    );
  }
  const names: Record<string, StateClass> = {};
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    const cls = typeof value === "string" ? value.trim().toLowerCase() : undefined;
    if (name.trim() === "") problems.push("a state name must not be empty");
    else if (cls === undefined || !isStateClass(cls))
      problems.push(`${JSON.stringify(name)} must map to one of ${classes}, got ${JSON.stringify(value)}`);
    else if (seen.has(name.trim().toLowerCase()))
      problems.push(
        `${JSON.stringify(seen.get(name.trim().toLowerCase()))} and ${JSON.stringify(name)} name the same state ` +
          "(states compare case-insensitively)",
      );
    else {
      seen.set(name.trim().toLowerCase(), name);
      names[name.trim()] = cls;
    }
  }
  if (problems.length > 0) throw new SettingsError(`${key}: ${problems.join("; ")}`);
  return names;
}

/** Parses `vendor:unknownStateTimeout`: a duration such as `5m`, `1h30m` or `90s`, in ms. */
export function parseUnknownStateTimeout(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text.trim());
  const ms = match
    ? (Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0)) * 1000
    : 0;
  if (ms <= 0) {
    throw new SettingsError(
      `${SETTING_SOURCES.unknownStateTimeoutMs[0]} must be a duration like "5m", "1h30m" or "90s", got ${JSON.stringify(text)}`,
    );
  }
  return ms;
}

/** Parses `vendor:kubeconfigRefresh`: `always` (also when unset) or `onChange`, in any case. */
export function parseKubeconfigRefresh(text: string | undefined): KubeconfigRefresh {
  if (text === undefined || text.trim() === "") return DEFAULT_SETTINGS.kubeconfigRefresh;
  const value = (["always", "onChange"] as const).find((v) => v.toLowerCase() === text.trim().toLowerCase());
  if (value === undefined) {
    throw new SettingsError(
      `${SETTING_SOURCES.kubeconfigRefresh[0]} must be "always" or "onChange", got ${JSON.stringify(text)}`,
    );
  }
  return value;
}

/**
 * The value of one setting, by the one rule every reader follows: the stack configuration first
 * (`get("vendor:projectId")`), then the environment (`VENDOR_PROJECT_ID`); a value is trimmed, and a blank
 * or whitespace-only value counts as unset at either source, so a blank config key does not hide the
 * environment. `undefined` when neither source has a value. Never throws.
 */
export function readSetting(
  name: keyof VendorSettings | keyof typeof CHECK_SETTING_SOURCES,
  get: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const [configKey, envName] = ALL_SETTING_SOURCES[name];
  const value = [get(configKey), env[envName]].find((v) => v !== undefined && v.trim() !== "");
  return value?.trim();
}

/** The base URL when set: an http(s) URL. */
function parseBaseUrl(text: string | undefined): string | undefined {
  if (text !== undefined && !/^https?:\/\//.test(text))
    throw new SettingsError(`vendor:baseUrl must be an http(s) URL, got "${text}"`);
  return text;
}

/** The settings whose values have a form, parsed. */
type FormedSettings = Pick<
  VendorSettings,
  MsSetting | "stateNames" | "unknownStateTimeoutMs" | "kubeconfigRefresh"
> & { baseUrl?: string };

/**
 * The settings whose values have a form, each read by {@link readSetting} and parsed, with what is wrong with
 * those that are set (one sentence each, naming the setting); a setting with a problem keeps its default.
 * Whether anything required is missing is not a problem here: see {@link resolveSettings}. The settings
 * without a form are not read, since `check` calls this for every resource.
 */
function parseFormedSettings(
  get: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv,
): { settings: FormedSettings; problems: string[] } {
  const read = (name: keyof VendorSettings): string | undefined => readSetting(name, get, env);
  const problems: string[] = [];
  const parsed = <T>(parse: () => T, fallback: T): T => {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof SettingsError)) throw error;
      problems.push(error.message);
      return fallback;
    }
  };
  const ms = (name: MsSetting): number =>
    parsed(() => positiveInt(name, read(name), DEFAULT_SETTINGS[name]), DEFAULT_SETTINGS[name]);
  const settings = {
    baseUrl: parsed(() => parseBaseUrl(read("baseUrl")), undefined),
    pollIntervalMs: ms("pollIntervalMs"),
    requestTimeoutMs: ms("requestTimeoutMs"),
    callDeadlineMs: ms("callDeadlineMs"),
    stateNames: parsed(() => parseStateNames(read("stateNames")), undefined),
    unknownStateTimeoutMs: parsed(() => parseUnknownStateTimeout(read("unknownStateTimeoutMs")), undefined),
    kubeconfigRefresh: parsed(
      () => parseKubeconfigRefresh(read("kubeconfigRefresh")),
      DEFAULT_SETTINGS.kubeconfigRefresh,
    ),
  };
  return { settings, problems };
}

/**
 * What is wrong with the settings that are set (a non-http base URL, a number that is not a positive integer,
 * a `vendor:stateNames` that is not a mapping...), one sentence each naming the setting; empty when every value
 * that is set is usable. A missing base URL or credentials is not reported: only a call to the service needs
 * them, and `check` reports these problems at preview, which makes none. Never throws.
 */
export function settingsProblems(
  get: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  return parseFormedSettings(get, env).problems;
}

/**
 * Resolves the settings, each by {@link readSetting}: stack config first, then the environment, trimmed,
 * blank meaning unset. Throws a `SettingsError` that names both sources when something required is missing,
 * and one that names every setting whose value is unusable ({@link settingsProblems}).
 */
export function resolveSettings(
  get: (key: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): VendorSettings {
  const { settings: formed, problems } = parseFormedSettings(get, env);
  const read = (name: keyof VendorSettings): string | undefined => readSetting(name, get, env);
  const baseUrl = read("baseUrl");
  if (!baseUrl) throw new SettingsError("no service URL: set stack config vendor:baseUrl or VENDOR_BASE_URL");
  if (problems.length > 0) throw new SettingsError(problems.join("; "));
  const settings: VendorSettings = {
    ...formed,
    baseUrl,
    projectId: read("projectId"),
    token: read("token"),
    clientId: read("clientId"),
    clientSecret: read("clientSecret"),
    tokenUrl: read("tokenUrl"),
    apiVersion: read("apiVersion") ?? DEFAULT_SETTINGS.apiVersion,
    providerNamespace: read("providerNamespace") ?? DEFAULT_SETTINGS.providerNamespace,
  };
  const clientCredentials = settings.clientId && settings.clientSecret && settings.tokenUrl;
  if (!settings.token && !clientCredentials) {
    throw new SettingsError(
      "no credentials: set vendor:token (VENDOR_TOKEN), or vendor:clientId, vendor:clientSecret and vendor:tokenUrl " +
        "(VENDOR_CLIENT_ID, VENDOR_CLIENT_SECRET, VENDOR_TOKEN_URL)",
    );
  }
  return settings;
}
