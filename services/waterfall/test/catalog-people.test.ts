import { catalog } from '@rde/proto';
import { peopleIn } from '../src/clients/people';

/** The people of a catalog answer, as people search's rows carry them (decision 0076). */
describe('waterfall: people of a catalog answer', () => {
  // As the waterfall receives it: encoded by the catalog, decoded on arrival.
  const { InvokeProviderResponse } = catalog;
  const answer = (fields: Partial<catalog.InvokeProviderResponse>) =>
    InvokeProviderResponse.decode(InvokeProviderResponse.encode(InvokeProviderResponse.fromPartial(fields)).finish());

  test('typed people become rows with only the fields the catalog set, work history included', () => {
    const people = peopleIn(
      answer({
        people: [
          {
            name: 'Ada Lovelace',
            title: 'CTO',
            companyDomain: 'acme.com',
            workHistory: { jobs: [{ company: 'Acme' }] },
          },
          { name: 'Grace Hopper', linkedinUrl: 'https://linkedin.com/in/grace' },
        ],
      }),
    );
    expect(people).toStrictEqual([
      { name: 'Ada Lovelace', title: 'CTO', company_domain: 'acme.com', work_history: [{ company: 'Acme' }] },
      { name: 'Grace Hopper', linkedin_url: 'https://linkedin.com/in/grace' },
    ]);
  });

  test('an answer with no people is no rows', () => {
    expect(peopleIn(answer({}))).toStrictEqual([]);
  });

  test("a previous version's catalog, which sends people only as JSON, is still read", () => {
    const legacy = [{ name: 'Ada Lovelace', company: 'Acme' }];
    expect(peopleIn(answer({ peopleJson: Buffer.from(JSON.stringify(legacy)) }))).toStrictEqual(legacy);
  });
});
