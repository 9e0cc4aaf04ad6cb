import type { catalog } from '@rde/proto';
import type { PersonRecord } from '@rde/platform';

/**
 * The people of a catalog answer (InvokeProvider `people`, decision 0076). A catalog of the previous
 * version sends them only as `people_json`, during a rolling deploy or replayed from its invocation
 * cache (15 minutes): read that when the typed list is empty. Remove once every catalog sends `people`.
 */
export function peopleIn(answer: catalog.InvokeProviderResponse): PersonRecord[] {
  if (answer.people.length === 0 && answer.peopleJson.length > 0) {
    return JSON.parse(answer.peopleJson.toString('utf8')) as PersonRecord[];
  }
  return answer.people.map(personRecordOf);
}

/** A person as the search's rows carry it: the fields the catalog set, in the catalog's order. */
function personRecordOf(person: catalog.Person): PersonRecord {
  return present({
    name: person.name,
    title: person.title,
    company: person.company,
    company_domain: person.companyDomain,
    linkedin_url: person.linkedinUrl,
    location: person.location,
    seniority: person.seniority,
    work_history: person.workHistory?.jobs.map((job) => present({ company: job.company, title: job.title })),
  });
}

/** Drops unset fields, so a row has no `"title": null` where the vendor gave none. */
function present<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}
