import type { Caller } from '@rde/platform';
import { offeredValues, type Chain, type ChainStep } from '../../domain/enrich/chains';
import { profileOf } from '../../domain/enrich/profile';
import type { Subject } from '../../domain/enrich/subject';
import {
  miss,
  personalEmailScreen,
  personalEmailVerdict,
  phoneVerdict,
  profileVerdict,
  workEmailVerdict,
  type Deliverability,
  type Verdict,
} from '../../domain/enrich/verdicts';
import type { JsonObject, ProviderPort } from '../../clients/providers';

/** The validator's checks of one run: each distinct address is checked, and billed, once (rule 2). */
export class Validations {
  private readonly checks = new Map<string, Promise<Deliverability | undefined>>();

  constructor(
    private readonly providers: ProviderPort,
    private readonly validator: { tool: string; method: string },
    private readonly caller: Caller,
    /** Called once per address the validator answered for: it is billed whatever the verdict. */
    private readonly onChecked: (address: string) => void,
  ) {}

  check(address: string): Promise<Deliverability | undefined> {
    const key = address.trim().toLowerCase();
    let check = this.checks.get(key);
    if (!check) this.checks.set(key, (check = this.run(key)));
    return check;
  }

  private async run(address: string): Promise<Deliverability | undefined> {
    const result = await this.providers.invoke(
      { tool: this.validator.tool, method: this.validator.method, payload: { email: address } },
      this.caller,
    );
    if (!result.ok) return undefined;
    this.onChecked(address);
    return { result: String(result.answer.result ?? 'unknown'), free: result.answer.free === true };
  }
}

/**
 * The capability's verdict on one provider answer (or one batch result entry): the rule of its
 * chain applied to what the step's finding offers. `asOf` (`YYYY-MM`) dates current roles.
 */
export async function judge(
  chain: Chain,
  step: ChainStep,
  subject: Subject,
  answer: JsonObject,
  context: { asOf: string; validations?: Validations },
): Promise<Verdict> {
  const finding = step.finding;
  if (finding.kind === 'profile') return profileVerdict(subject, profileOf(finding.shape, answer, context.asOf));
  const offered = offeredValues(finding, answer);
  switch (chain.capability) {
    case 'email_enrichment':
      return workEmailVerdict(subject, offered[0]);
    case 'phone_enrichment':
      return phoneVerdict(offered[0]);
    case 'personal_email':
      return personalVerdict(subject, offered, context.validations!);
    default:
      return miss('no_result');
  }
}

/** Rule 2 over every address a provider offered: the first that passes is the hit; else the last miss. */
async function personalVerdict(subject: Subject, offered: string[], validations: Validations): Promise<Verdict> {
  let last: Verdict = miss('no_result');
  for (const address of offered) {
    const screened = personalEmailScreen(subject, address);
    if (screened) {
      last = screened;
      continue;
    }
    const check = await validations.check(address);
    last = check ? personalEmailVerdict(address, check) : miss('skip', 'validator_failed');
    if (last.kind === 'hit') return last;
  }
  return last;
}
