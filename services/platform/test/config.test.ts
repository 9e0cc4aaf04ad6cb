import { ConfigError, configProblems, env, loadConfig } from '../src';

describe('loadConfig', () => {
  const shape = { PORT: env.port(8080), RDE_PUBLIC_URL: env.url(), RDE_FLAG: env.flag(false) };

  test('applies defaults and coerces types', () => {
    expect(loadConfig(shape, { RDE_PUBLIC_URL: 'https://rde.example/' })).toEqual({
      PORT: 8080,
      RDE_PUBLIC_URL: 'https://rde.example/',
      RDE_FLAG: false,
    });
    expect(loadConfig(shape, { PORT: '9000', RDE_PUBLIC_URL: 'https://x.example/', RDE_FLAG: '1' })).toMatchObject({
      PORT: 9000,
      RDE_FLAG: true,
    });
  });

  test('names every bad or missing variable at once', () => {
    const error = (() => {
      try {
        loadConfig(shape, { PORT: '70000', RDE_FLAG: 'maybe' });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.problems).toHaveLength(3);
    expect(error.message).toMatch(/PORT="70000" is invalid/);
    expect(error.message).toMatch(/RDE_PUBLIC_URL is required/);
    expect(error.message).toMatch(/RDE_FLAG="maybe" is invalid/);
  });
});

describe('configProblems', () => {
  test('says what a described variable expects, once even when its value fails two checks', () => {
    expect(configProblems({ PORT: env.port(8080), RDE_WAIT_MS: env.milliseconds(0) }, { PORT: '-1.5' })).toEqual([
      'PORT="-1.5" is invalid: expected a port, 0 to 65535 (0 = any free port)',
    ]);
  });

  test('is empty for a valid environment', () => {
    expect(configProblems({ PORT: env.port(8080) }, { PORT: '0' })).toEqual([]);
  });
});
