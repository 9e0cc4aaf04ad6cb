import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { MODULES } from '../src/modules';

/**
 * Every variable a module the Helm chart deploys declares (services/<module>/src/config.ts,
 * decision 0058) has a chart value: the chart sets it itself (ports, bind addresses, the drain), it
 * is a first-class `config` or `secrets` value (`rde.settings`), or it is a name the module's
 * `modules.<name>.env` takes (`rde.envSettings`, which also refuses any other RDE_ name there).
 * So a variable added to a service cannot be forgotten by the chart, nor a stale name linger in it.
 */
const CHART = path.resolve(__dirname, '../../../charts/rde');
const SETTINGS_TEMPLATE = readFileSync(path.join(CHART, 'templates/_settings.tpl'), 'utf8');
const VALUES = parse(readFileSync(path.join(CHART, 'values.yaml'), 'utf8')) as {
  config: Record<string, unknown>;
  secrets: Record<string, unknown>;
  modules: Record<string, unknown>;
};
/** The templates that render env entries themselves (the settings template only holds the tables). */
const RENDERING = readdirSync(path.join(CHART, 'templates'))
  .filter((file) => file !== '_settings.tpl')
  .map((file) => readFileSync(path.join(CHART, 'templates', file), 'utf8'))
  .join('\n');

interface Setting {
  modules: string[];
  config?: string;
  secret?: string;
}

/** The YAML a named template of _settings.tpl holds. */
function table<T>(name: string): T {
  const body = new RegExp(`{{- define "${name}" -}}\\n([\\s\\S]*?)\\n{{- end -}}`).exec(SETTINGS_TEMPLATE);
  if (!body) throw new Error(`templates/_settings.tpl defines no ${name}`);
  return parse(body[1]!) as T;
}

const settings = table<Record<string, Setting>>('rde.settings');
const envNames = table<Record<string, string[]>>('rde.envSettings');
const deployed = Object.keys(VALUES.modules);
const declared = (name: string) => {
  const module = MODULES.find((candidate) => candidate.name === name);
  if (!module) throw new Error(`the chart deploys ${name}, which is no module of the binary`);
  return Object.keys(module.config);
};

/** A variable the deployment template sets for every module: by its name, or its module's own port. */
const setByTheChart = (module: string, variable: string) =>
  RENDERING.includes(`- name: ${variable}\n`) ||
  (variable === `RDE_${module.toUpperCase()}_PORT` && RENDERING.includes('- name: RDE_{{ upper $module }}_PORT\n'));

describe('the chart has a value for every setting a service declares', () => {
  test.each(deployed)(
    'each variable %s declares is set by the chart, a config or secrets value, or taken by its env',
    (module) => {
      const unplaced = declared(module).filter(
        (variable) =>
          !setByTheChart(module, variable) &&
          !settings[variable]?.modules.includes(module) &&
          !envNames[module]?.includes(variable),
      );
      expect(unplaced).toEqual([]);
    },
  );

  test('each config and secrets entry is read by every module it reaches, and its value exists in values.yaml', () => {
    for (const [variable, setting] of Object.entries(settings)) {
      for (const module of setting.modules)
        expect({ variable, module, declared: declared(module).includes(variable) }).toEqual({
          variable,
          module,
          declared: true,
        });
      const value = setting.config ? VALUES.config[setting.config] : VALUES.secrets[setting.secret ?? ''];
      expect({ variable, value: value === undefined ? 'missing' : 'present' }).toEqual({ variable, value: 'present' });
    }
  });

  test("each name a module's env takes is one that module declares and has no first-class value", () => {
    expect(Object.keys(envNames).sort()).toEqual([...deployed].sort());
    for (const [module, names] of Object.entries(envNames)) {
      const stale = names.filter(
        (variable) => !declared(module).includes(variable) || settings[variable]?.modules.includes(module),
      );
      expect({ module, stale }).toEqual({ module, stale: [] });
    }
  });

  test('the distribution settings (the rde client releases, the npm proxy) are first-class catalog values', () => {
    const distribution = declared('catalog').filter((variable) => /^RDE_(CLI|NPM|DISTRIBUTION)_/.test(variable));
    expect(distribution.length).toBeGreaterThan(0);
    for (const variable of distribution)
      expect({ variable, config: settings[variable]?.config }).toEqual({ variable, config: expect.any(String) });
  });
});
