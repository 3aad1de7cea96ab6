/** Connection settings: stack config over environment, defaults, and exact errors for unusable settings. */
import {
  DEFAULT_SETTINGS,
  SETTING_SOURCES,
  SettingsError,
  parseKubeconfigRefresh,
  parseStateNames,
  parseUnknownStateTimeout,
  readSetting,
  resolveSettings,
  settingsProblems,
  type VendorSettings,
} from "../../rest/settings";

const config =
  (values: Record<string, string>) =>
  (key: string): string | undefined =>
    values[key];
const none = config({});
const minimalEnv = { VENDOR_BASE_URL: "https://api.example.test", VENDOR_TOKEN: "tok-1" };

function settingsError(run: () => unknown): SettingsError {
  try {
    run();
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error("expected a SettingsError");
}

describe("resolveSettings", () => {
  it("fills the defaults around a base URL and a token", () => {
    expect(resolveSettings(none, minimalEnv)).toEqual({
      baseUrl: "https://api.example.test",
      projectId: undefined,
      token: "tok-1",
      clientId: undefined,
      clientSecret: undefined,
      tokenUrl: undefined,
      apiVersion: "1",
      providerNamespace: "Vendor.Container",
      pollIntervalMs: 10_000,
      requestTimeoutMs: 30_000,
      callDeadlineMs: 120_000,
      kubeconfigRefresh: "always",
    });
  });

  it("publishes the spec's defaults", () => {
    expect(DEFAULT_SETTINGS).toEqual({
      apiVersion: "1",
      providerNamespace: "Vendor.Container",
      pollIntervalMs: 10_000,
      requestTimeoutMs: 30_000,
      callDeadlineMs: 120_000,
      kubeconfigRefresh: "always",
    });
  });

  it("reads each setting from the vendor config key and its VENDOR_ variable", () => {
    expect(SETTING_SOURCES).toEqual({
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
    });
  });

  const samples: [keyof VendorSettings, string, string, string | number, string | number][] = [
    ["baseUrl", "http://config.test", "http://env.test", "http://config.test", "http://env.test"],
    ["projectId", "p-config", "p-env", "p-config", "p-env"],
    ["token", "tok-config", "tok-env", "tok-config", "tok-env"],
    ["clientId", "id-config", "id-env", "id-config", "id-env"],
    ["clientSecret", "cs-config", "cs-env", "cs-config", "cs-env"],
    ["tokenUrl", "http://config.test/t", "http://env.test/t", "http://config.test/t", "http://env.test/t"],
    ["apiVersion", "1.0", "2", "1.0", "2"],
    ["providerNamespace", "Config.Container", "Env.Container", "Config.Container", "Env.Container"],
    ["pollIntervalMs", "111", "222", 111, 222],
    ["requestTimeoutMs", "333", "444", 333, 444],
    ["callDeadlineMs", "555", "666", 555, 666],
    ["kubeconfigRefresh", "onChange", "always", "onChange", "always"],
  ];

  it.each(samples)(
    "prefers stack config over the environment for %s",
    (name, configValue, envValue, expected) => {
      const [configKey, envName] = SETTING_SOURCES[name];
      const settings = resolveSettings(config({ [configKey]: configValue }), {
        ...minimalEnv,
        [envName]: envValue,
      });
      expect(settings[name]).toBe(expected);
    },
  );

  it.each(samples)(
    "falls back to the environment for %s",
    (name, _configValue, envValue, _expected, fromEnv) => {
      const [, envName] = SETTING_SOURCES[name];
      expect(resolveSettings(none, { ...minimalEnv, [envName]: envValue })[name]).toBe(fromEnv);
    },
  );

  it("treats a blank config value as unset, so the environment still applies", () => {
    const settings = resolveSettings(config({ "vendor:baseUrl": "  ", "vendor:token": "" }), minimalEnv);
    expect(settings.baseUrl).toBe("https://api.example.test");
    expect(settings.token).toBe("tok-1");
  });

  it("trims values, such as a token read from a file with its newline", () => {
    const settings = resolveSettings(
      config({
        "vendor:baseUrl": " http://config.test \n",
        "vendor:token": "tok-2\n",
        "vendor:pollIntervalMs": " 42 ",
      }),
      {},
    );
    expect(settings.baseUrl).toBe("http://config.test");
    expect(settings.token).toBe("tok-2");
    expect(settings.pollIntervalMs).toBe(42);
  });

  it("accepts client credentials instead of a token", () => {
    const settings = resolveSettings(none, {
      VENDOR_BASE_URL: "https://api.example.test",
      VENDOR_CLIENT_ID: "id-1",
      VENDOR_CLIENT_SECRET: "cs-1",
      VENDOR_TOKEN_URL: "https://auth.example.test/token",
    });
    expect([settings.token, settings.clientId, settings.clientSecret, settings.tokenUrl]).toEqual([
      undefined,
      "id-1",
      "cs-1",
      "https://auth.example.test/token",
    ]);
  });

  it.each([
    ["nothing", {}],
    ["a blank URL", { VENDOR_BASE_URL: "   " }],
  ])("refuses %s as base URL, naming both sources", (_case, env) => {
    const error = settingsError(() => resolveSettings(none, { VENDOR_TOKEN: "tok-1", ...env }));
    expect(error.message).toBe("no service URL: set stack config vendor:baseUrl or VENDOR_BASE_URL");
    expect(error.name).toBe("SettingsError");
  });

  it.each([["ftp://files.example.test"], ["api.example.test"]])("refuses the non-http base URL %s", (url) => {
    const error = settingsError(() => resolveSettings(none, { ...minimalEnv, VENDOR_BASE_URL: url }));
    expect(error.message).toBe(`vendor:baseUrl must be an http(s) URL, got "${url}"`);
  });

  it.each([
    ["no credentials at all", {}],
    ["client credentials without a token URL", { VENDOR_CLIENT_ID: "id-1", VENDOR_CLIENT_SECRET: "cs-1" }],
    [
      "client credentials without a secret",
      { VENDOR_CLIENT_ID: "id-1", VENDOR_TOKEN_URL: "https://a.test/t" },
    ],
    ["a blank token", { VENDOR_TOKEN: " \n" }],
  ])("refuses %s, naming every way to authenticate", (_case, env) => {
    const error = settingsError(() =>
      resolveSettings(none, { VENDOR_BASE_URL: "https://api.example.test", ...env }),
    );
    expect(error.message).toBe(
      "no credentials: set vendor:token (VENDOR_TOKEN), or vendor:clientId, vendor:clientSecret and vendor:tokenUrl " +
        "(VENDOR_CLIENT_ID, VENDOR_CLIENT_SECRET, VENDOR_TOKEN_URL)",
    );
  });

  it.each([
    ["pollIntervalMs", "abc"],
    ["pollIntervalMs", "1.5"],
    ["requestTimeoutMs", "0"],
    ["requestTimeoutMs", "-5"],
    ["callDeadlineMs", "10ms"],
    ["callDeadlineMs", "Infinity"],
  ] as const)("refuses %s = %j as not a positive integer", (name, value) => {
    const [configKey, envName] = SETTING_SOURCES[name];
    const expected = `${configKey} must be a positive integer (ms), got "${value}"`;
    expect(settingsError(() => resolveSettings(config({ [configKey]: value }), minimalEnv)).message).toBe(
      expected,
    );
    expect(settingsError(() => resolveSettings(none, { ...minimalEnv, [envName]: value })).message).toBe(
      expected,
    );
  });
});

describe("settingsProblems, what check reports at preview", () => {
  it("finds none when nothing is set: a URL and credentials are only needed by a call", () => {
    expect(settingsProblems(none, {})).toEqual([]);
  });

  it("finds none in usable settings", () => {
    expect(
      settingsProblems(
        config({
          "vendor:pollIntervalMs": "50",
          "vendor:stateNames": '{"Ready": "settled"}',
          "vendor:unknownStateTimeout": "90s",
        }),
        { ...minimalEnv, VENDOR_KUBECONFIG_REFRESH: "onchange" },
      ),
    ).toEqual([]);
  });

  it("names every unusable setting at once, in the order of the settings, from either source", () => {
    const problems = settingsProblems(
      config({ "vendor:baseUrl": "api.example.test", "vendor:callDeadlineMs": "2m" }),
      { VENDOR_POLL_INTERVAL_MS: "0", VENDOR_STATE_NAMES: "[]", VENDOR_KUBECONFIG_REFRESH: "never" },
    );
    expect(problems).toEqual([
      'vendor:baseUrl must be an http(s) URL, got "api.example.test"',
      'vendor:pollIntervalMs must be a positive integer (ms), got "0"',
      'vendor:callDeadlineMs must be a positive integer (ms), got "2m"',
      "vendor:stateNames must be a JSON object mapping state names to settled, transitional, deleting, deleted, " +
        'failed, e.g. {"Ready": "settled"}; got "[]"',
      'vendor:kubeconfigRefresh must be "always" or "onChange", got "never"',
    ]);
  });

  it("are what resolveSettings refuses, all in one error", () => {
    const env = { ...minimalEnv, VENDOR_POLL_INTERVAL_MS: "0", VENDOR_UNKNOWN_STATE_TIMEOUT: "soon" };
    const problems = [
      'vendor:pollIntervalMs must be a positive integer (ms), got "0"',
      'vendor:unknownStateTimeout must be a duration like "5m", "1h30m" or "90s", got "soon"',
    ];
    expect(settingsProblems(none, env)).toEqual(problems);
    expect(settingsError(() => resolveSettings(none, env)).message).toBe(problems.join("; "));
  });
});

describe("readSetting, the rule of every reader (resolveSettings, a resource's default project, a function)", () => {
  it.each<[string, Record<string, string>, Record<string, string>, string | undefined]>([
    ["config set", { "vendor:projectId": "p-config" }, { VENDOR_PROJECT_ID: "p-env" }, "p-config"],
    ["config trimmed", { "vendor:projectId": " p-config\n" }, {}, "p-config"],
    ["config empty, environment set", { "vendor:projectId": "" }, { VENDOR_PROJECT_ID: "p-env" }, "p-env"],
    [
      "config whitespace, environment set",
      { "vendor:projectId": " \t" },
      { VENDOR_PROJECT_ID: " p-env " },
      "p-env",
    ],
    ["config absent, environment set", {}, { VENDOR_PROJECT_ID: "p-env" }, "p-env"],
    [
      "config whitespace, environment whitespace",
      { "vendor:projectId": "  " },
      { VENDOR_PROJECT_ID: " " },
      undefined,
    ],
    ["neither", {}, {}, undefined],
  ])("%s", (_label, values, env, expected) => {
    expect(readSetting("projectId", config(values), env)).toBe(expected);
    expect(resolveSettings(config(values), { ...minimalEnv, ...env }).projectId).toBe(expected);
  });

  it("reads process.env when no environment is given", () => {
    const saved = process.env.VENDOR_PROJECT_ID;
    process.env.VENDOR_PROJECT_ID = "p-process";
    try {
      expect(readSetting("projectId", none)).toBe("p-process");
    } finally {
      if (saved === undefined) delete process.env.VENDOR_PROJECT_ID;
      else process.env.VENDOR_PROJECT_ID = saved;
    }
  });
});

describe("vendor:kubeconfigRefresh", () => {
  it.each([
    [undefined, "always"],
    ["always", "always"],
    ["onChange", "onChange"],
    [" ONCHANGE ", "onChange"],
    ["Always", "always"],
  ])("reads %j as %j", (text, value) => {
    expect(parseKubeconfigRefresh(text)).toBe(value);
  });

  it.each([["never"], ["on-change"], ["true"], ["sometimes"]])(
    "refuses %j, naming the setting and its values",
    (text) => {
      expect(settingsError(() => parseKubeconfigRefresh(text)).message).toBe(
        `vendor:kubeconfigRefresh must be "always" or "onChange", got ${JSON.stringify(text)}`,
      );
    },
  );
});

describe("the state settings (states the interface does not list)", () => {
  it("leaves both unset by default: only the api-notes' names, and the waiter's 5 minutes", () => {
    const settings = resolveSettings(none, minimalEnv);
    expect([settings.stateNames, settings.unknownStateTimeoutMs]).toEqual([undefined, undefined]);
  });

  it("reads vendor:stateNames from stack config over VENDOR_STATE_NAMES, keeping the names' spelling", () => {
    const settings = resolveSettings(
      config({
        "vendor:stateNames": '{"Ready": "settled", "Starting": "Transitional", "Broken": " failed "}',
      }),
      { ...minimalEnv, VENDOR_STATE_NAMES: '{"Other": "settled"}' },
    );
    expect(settings.stateNames).toEqual({ Ready: "settled", Starting: "transitional", Broken: "failed" });
  });

  it("reads VENDOR_STATE_NAMES and VENDOR_UNKNOWN_STATE_TIMEOUT when the stack config has none", () => {
    const settings = resolveSettings(none, {
      ...minimalEnv,
      VENDOR_STATE_NAMES: '{"Removing": "deleting", "Removed": "deleted"}',
      VENDOR_UNKNOWN_STATE_TIMEOUT: "90s",
    });
    expect(settings.stateNames).toEqual({ Removing: "deleting", Removed: "deleted" });
    expect(settings.unknownStateTimeoutMs).toBe(90_000);
  });

  it.each([
    ["5m", 300_000],
    ["1h30m", 5_400_000],
    ["90s", 90_000],
    [" 2m30s ", 150_000],
  ])("reads vendor:unknownStateTimeout %j as %d ms", (text, ms) => {
    expect(
      resolveSettings(config({ "vendor:unknownStateTimeout": text }), minimalEnv).unknownStateTimeoutMs,
    ).toBe(ms);
  });

  it.each([["5"], ["0m"], ["five minutes"], ["5 m"], ["-5m"], ["1d"]])(
    "refuses vendor:unknownStateTimeout %j, naming the setting",
    (text) => {
      expect(settingsError(() => parseUnknownStateTimeout(text)).message).toBe(
        `vendor:unknownStateTimeout must be a duration like "5m", "1h30m" or "90s", got ${JSON.stringify(text)}`,
      );
    },
  );

  const SHAPE =
    'vendor:stateNames must be a JSON object mapping state names to settled, transitional, deleting, deleted, failed, e.g. {"Ready": "settled"}; got';

  it.each([["Ready=settled"], ['["Ready"]'], ["null"], ['"Ready"'], ["42"], ['{"Ready": "settled"']])(
    "refuses vendor:stateNames %s as not a JSON object",
    (text) => {
      expect(settingsError(() => parseStateNames(text)).message).toBe(`${SHAPE} ${JSON.stringify(text)}`);
    },
  );

  it("refuses every bad entry of vendor:stateNames at once, naming the setting", () => {
    const error = settingsError(() =>
      resolveSettings(
        config({
          "vendor:stateNames":
            '{"Ready": "done", "Broken": 3, "": "failed", "Starting": "transitional", "STARTING": "settled"}',
        }),
        minimalEnv,
      ),
    );
    expect(error.message).toBe(
      'vendor:stateNames: "Ready" must map to one of settled, transitional, deleting, deleted, failed, got "done"; ' +
        '"Broken" must map to one of settled, transitional, deleting, deleted, failed, got 3; ' +
        "a state name must not be empty; " +
        '"Starting" and "STARTING" name the same state (states compare case-insensitively)',
    );
  });

  it("accepts an empty object, which adds no name", () => {
    expect(parseStateNames("{}")).toEqual({});
  });
});
