import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { onlyInSampledTraces, type SkipCheck } from '../src/telemetry';

const span = (recording: boolean) => ({ isRecording: () => recording });

describe('the MongoDB instrumentation, in sampled traces only (decision 0091)', () => {
  test('the release we use still decides through the check we replace', () => {
    expect(typeof (new MongoDBInstrumentation() as unknown as SkipCheck)._checkSkipInstrumentation).toBe('function');
  });

  test('a command gets a span only inside a recording span', () => {
    const check = onlyInSampledTraces(new MongoDBInstrumentation({ enabled: false })) as unknown as SkipCheck;
    expect(check._checkSkipInstrumentation!(undefined)).toBe(true);
    expect(check._checkSkipInstrumentation!(span(false))).toBe(true);
    expect(check._checkSkipInstrumentation!(span(true))).toBe(false);
  });
});
