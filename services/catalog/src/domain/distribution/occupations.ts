/**
 * The reference tables: the sandbox's job titles mapped to O*NET-SOC occupations. Curated by hand
 * from the O*NET 29.0 Database (U.S. Department of Labor, Employment and Training Administration,
 * licensed CC BY 4.0) and the sandbox's vocabulary of roles (services/sandbox, domain/vocabulary).
 */

interface Occupation {
  readonly code: string;
  readonly title: string;
}

// prettier-ignore
const OCCUPATIONS: Record<string, Occupation> = {
  software: { code: '15-1252.00', title: 'Software Developers' },
  web: { code: '15-1254.00', title: 'Web Developers' },
  qa: { code: '15-1253.00', title: 'Software Quality Assurance Analysts and Testers' },
  database: { code: '15-1243.00', title: 'Database Architects' },
  systems: { code: '15-1299.08', title: 'Computer Systems Engineers/Architects' },
  security: { code: '15-1212.00', title: 'Information Security Analysts' },
  research: { code: '15-1221.00', title: 'Computer and Information Research Scientists' },
  dataScience: { code: '15-2051.00', title: 'Data Scientists' },
  bi: { code: '15-2051.01', title: 'Business Intelligence Analysts' },
  support: { code: '15-1232.00', title: 'Computer User Support Specialists' },
  itProjects: { code: '15-1299.09', title: 'Information Technology Project Managers' },
  interface: { code: '15-1255.00', title: 'Web and Digital Interface Designers' },
  marketingManagers: { code: '11-2021.00', title: 'Marketing Managers' },
  marketing: { code: '13-1161.00', title: 'Market Research Analysts and Marketing Specialists' },
  sales: { code: '41-3091.00', title: 'Sales Representatives of Services, Except Advertising, Insurance, Financial Services, and Travel' },
  salesEngineers: { code: '41-9031.00', title: 'Sales Engineers' },
  hr: { code: '13-1071.00', title: 'Human Resources Specialists' },
  financialAnalysts: { code: '13-2051.00', title: 'Financial and Investment Analysts' },
  accountants: { code: '13-2011.00', title: 'Accountants and Auditors' },
  operationsResearch: { code: '15-2031.00', title: 'Operations Research Analysts' },
  projects: { code: '13-1082.00', title: 'Project Management Specialists' },
  logistics: { code: '13-1081.02', title: 'Logistics Analysts' },
  customerService: { code: '43-4051.00', title: 'Customer Service Representatives' },
  lawyers: { code: '23-1011.00', title: 'Lawyers' },
  paralegals: { code: '23-2011.00', title: 'Paralegals and Legal Assistants' },
};

/** Each sandbox title, its department and its occupation. */
// prettier-ignore
const TITLES: readonly (readonly [title: string, department: string, occupation: keyof typeof OCCUPATIONS])[] = [
  ['Software Engineer', 'engineering', 'software'], ['Backend Engineer', 'engineering', 'software'],
  ['Frontend Engineer', 'engineering', 'web'], ['Mobile Engineer', 'engineering', 'software'],
  ['Data Engineer', 'engineering', 'database'], ['DevOps Engineer', 'engineering', 'systems'],
  ['Site Reliability Engineer', 'engineering', 'systems'], ['Security Engineer', 'engineering', 'security'],
  ['Machine Learning Engineer', 'engineering', 'research'], ['QA Engineer', 'engineering', 'qa'],
  ['Data Scientist', 'data', 'dataScience'], ['Data Analyst', 'data', 'bi'], ['Analytics Engineer', 'data', 'bi'],
  ['Product Manager', 'product', 'marketingManagers'], ['Product Owner', 'product', 'itProjects'],
  ['Product Designer', 'design', 'interface'], ['UX Researcher', 'design', 'interface'],
  ['Account Executive', 'sales', 'sales'], ['Sales Development Representative', 'sales', 'sales'],
  ['Solutions Engineer', 'sales', 'salesEngineers'], ['Account Manager', 'sales', 'sales'],
  ['Growth Marketer', 'marketing', 'marketing'], ['Content Marketer', 'marketing', 'marketing'],
  ['Product Marketer', 'marketing', 'marketing'], ['Recruiter', 'people', 'hr'],
  ['Technical Recruiter', 'people', 'hr'], ['Talent Sourcer', 'people', 'hr'], ['HR Business Partner', 'people', 'hr'],
  ['Financial Analyst', 'finance', 'financialAnalysts'], ['Accountant', 'finance', 'accountants'],
  ['Operations Analyst', 'operations', 'operationsResearch'], ['Project Manager', 'operations', 'projects'],
  ['Supply Chain Analyst', 'operations', 'logistics'], ['Customer Success Specialist', 'customer_success', 'customerService'],
  ['Support Engineer', 'customer_success', 'support'], ['Corporate Counsel', 'legal', 'lawyers'],
  ['Paralegal', 'legal', 'paralegals'],
];

const SOURCE =
  'Source: O*NET 29.0 Database by the U.S. Department of Labor, Employment and Training Administration ' +
  '(USDOL/ETA), used under the CC BY 4.0 license, mapped by hand to the job titles of the RDE sandbox. ' +
  'O*NET is a trademark of USDOL/ETA; USDOL/ETA has not approved, endorsed or tested this table.';

/** The names served at /api/v2/reference/onet/{name}, each rendered once as markdown. */
export const REFERENCE_TABLES: Readonly<Record<string, () => string>> = {
  titles: () =>
    table(
      '# Job titles and their O*NET-SOC occupations',
      ['Title', 'Department', 'O*NET-SOC code', 'Occupation'],
      TITLES.map(([title, department, key]) => [title, department, OCCUPATIONS[key]!.code, OCCUPATIONS[key]!.title]),
    ),
  occupations: () =>
    table(
      '# O*NET-SOC occupations and the job titles they cover',
      ['O*NET-SOC code', 'Occupation', 'Titles'],
      Object.entries(OCCUPATIONS)
        .map(([key, { code, title }]) => [code, title, titlesOf(key).join(', ')])
        .sort(([a], [b]) => a!.localeCompare(b!)),
    ),
};

function titlesOf(occupation: string): string[] {
  return TITLES.filter(([, , key]) => key === occupation).map(([title]) => title);
}

function table(heading: string, columns: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [heading, '', SOURCE, '', line(columns), line(columns.map(() => '---')), ...rows.map(line), ''].join('\n');
}
