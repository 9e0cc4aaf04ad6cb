import { billingConfig, billingReturnUrl } from '../src/config';

/** Where checkout and the portal send the person back: the dashboard's billing page unless set. */
describe('billing return URL', () => {
  const returnUrl = (variables: NodeJS.ProcessEnv) => billingReturnUrl(billingConfig(variables));

  test('unset, it is the billing page of the dashboard the gateway serves on its port', () => {
    expect(returnUrl({})).toBe('http://127.0.0.1:8080/app/billing');
    expect(returnUrl({ PORT: '9090' })).toBe('http://127.0.0.1:9090/app/billing');
  });

  test('on the public URL, or under the dashboard URL when one is set', () => {
    expect(returnUrl({ RDE_PUBLIC_URL: 'https://rde.example.com' })).toBe('https://rde.example.com/app/billing');
    expect(returnUrl({ RDE_DASHBOARD_URL: 'https://app.example.com/' })).toBe('https://app.example.com/billing');
  });

  test('RDE_BILLING_RETURN_URL wins; a value that is not a URL is refused', () => {
    expect(returnUrl({ RDE_BILLING_RETURN_URL: 'https://pay.example.com/done', PORT: '9090' })).toBe(
      'https://pay.example.com/done',
    );
    expect(() => billingConfig({ RDE_BILLING_RETURN_URL: 'not a url' })).toThrow(/RDE_BILLING_RETURN_URL/);
  });
});
