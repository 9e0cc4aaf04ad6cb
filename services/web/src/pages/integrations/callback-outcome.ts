/** What the vendor's callback said, as the gateway's redirect flags it (`connected=` or `error=connect`). */
export interface CallbackOutcome {
  readonly connected: boolean;
  readonly message: string;
}

/** Provider names as the API has them; anything else in a crafted link is not repeated on the page. */
const PROVIDER_NAME = /^[a-z0-9_]{1,40}$/;

export function callbackOutcomeOf(search: string): CallbackOutcome | undefined {
  const query = new URLSearchParams(search);
  const connected = query.get('connected');
  if (connected && PROVIDER_NAME.test(connected)) return { connected: true, message: `Connected to ${connected}.` };
  if (!query.has('error')) return undefined;
  const provider = query.get('provider') ?? '';
  const which = PROVIDER_NAME.test(provider) ? provider : 'the provider';
  return {
    connected: false,
    message:
      `Connecting to ${which} failed: consent was refused, or the connect link expired or was already used. ` +
      'Nothing was saved; connect again.',
  };
}
