/**
 * The fixed word lists of work and place the universe draws from (companies' and people's own
 * names: company-vocabulary.ts, person-vocabulary.ts). Changing any list changes every seed's universe.
 */

export const SENIORITIES = ['entry', 'senior', 'manager', 'director', 'vp', 'cxo'] as const;
export type Seniority = (typeof SENIORITIES)[number];
/** Share of people at each level, in the order above. */
export const SENIORITY_WEIGHTS = [38, 30, 14, 10, 5, 3];
/** Total years of experience by level: [min, max]. */
export const YEARS_BY_SENIORITY: Record<Seniority, [number, number]> = {
  entry: [0, 3],
  senior: [4, 12],
  manager: [6, 16],
  director: [9, 22],
  vp: [12, 26],
  cxo: [15, 32],
};

export interface Department {
  readonly id: string;
  /** As it appears in titles: "Director of Engineering". */
  readonly noun: string;
  readonly chief: string;
  readonly certifications: readonly string[];
}

// prettier-ignore
export const DEPARTMENTS: readonly Department[] = [
  { id: 'engineering', noun: 'Engineering', chief: 'CTO', certifications: ['AWS Certified Solutions Architect', 'Certified Kubernetes Administrator', 'Google Professional Cloud Developer'] },
  { id: 'data', noun: 'Data', chief: 'Chief Data Officer', certifications: ['Databricks Certified Data Engineer', 'TensorFlow Developer Certificate'] },
  { id: 'product', noun: 'Product', chief: 'Chief Product Officer', certifications: ['Certified Scrum Product Owner', 'Pragmatic Institute PMC'] },
  { id: 'design', noun: 'Design', chief: 'Chief Design Officer', certifications: ['NN/g UX Certification', 'Google UX Design Certificate'] },
  { id: 'sales', noun: 'Sales', chief: 'Chief Revenue Officer', certifications: ['Salesforce Certified Administrator', 'MEDDIC Certified'] },
  { id: 'marketing', noun: 'Marketing', chief: 'CMO', certifications: ['HubSpot Inbound Marketing', 'Google Ads Certification'] },
  { id: 'people', noun: 'People', chief: 'Chief People Officer', certifications: ['SHRM-CP', 'LinkedIn Certified Recruiter', 'AIRS Certified Internet Recruiter'] },
  { id: 'finance', noun: 'Finance', chief: 'CFO', certifications: ['CPA', 'CFA Level II', 'ACCA'] },
  { id: 'operations', noun: 'Operations', chief: 'COO', certifications: ['PMP', 'Lean Six Sigma Green Belt'] },
  { id: 'customer_success', noun: 'Customer Success', chief: 'Chief Customer Officer', certifications: ['Certified Customer Success Manager', 'ITIL Foundation'] },
  { id: 'legal', noun: 'Legal', chief: 'General Counsel', certifications: ['CIPP/E', 'CIPP/US'] },
];

export interface Role {
  /** The individual-contributor title; managers and above take their department's titles. */
  readonly title: string;
  readonly department: string;
  readonly weight: number;
  readonly skills: readonly string[];
  readonly degree: string;
}

// prettier-ignore
export const ROLES: readonly Role[] = [
  { title: 'Software Engineer', department: 'engineering', weight: 60, degree: 'BSc Computer Science', skills: ['TypeScript', 'Java', 'Go', 'Python', 'PostgreSQL', 'Distributed Systems', 'Microservices', 'Git'] },
  { title: 'Backend Engineer', department: 'engineering', weight: 30, degree: 'BSc Computer Science', skills: ['Go', 'Java', 'Kotlin', 'PostgreSQL', 'Kafka', 'gRPC', 'Redis', 'Microservices'] },
  { title: 'Frontend Engineer', department: 'engineering', weight: 25, degree: 'BSc Computer Science', skills: ['TypeScript', 'React', 'CSS', 'Next.js', 'GraphQL', 'Accessibility', 'Webpack'] },
  { title: 'Data Engineer', department: 'engineering', weight: 15, degree: 'BSc Computer Science', skills: ['Python', 'Spark', 'Airflow', 'SQL', 'dbt', 'Kafka', 'Snowflake'] },
  { title: 'DevOps Engineer', department: 'engineering', weight: 12, degree: 'BSc Information Systems', skills: ['Kubernetes', 'Terraform', 'AWS', 'Docker', 'Linux', 'CI/CD', 'Prometheus'] },
  { title: 'Site Reliability Engineer', department: 'engineering', weight: 8, degree: 'BSc Computer Science', skills: ['Kubernetes', 'Go', 'Prometheus', 'Linux', 'Incident Management', 'Terraform'] },
  { title: 'Mobile Engineer', department: 'engineering', weight: 10, degree: 'BSc Computer Science', skills: ['Swift', 'Kotlin', 'React Native', 'iOS', 'Android', 'GraphQL'] },
  { title: 'Security Engineer', department: 'engineering', weight: 6, degree: 'BSc Computer Science', skills: ['Threat Modeling', 'Penetration Testing', 'AWS', 'Python', 'SIEM', 'Zero Trust'] },
  { title: 'Machine Learning Engineer', department: 'engineering', weight: 9, degree: 'MSc Machine Learning', skills: ['Python', 'PyTorch', 'TensorFlow', 'MLOps', 'Kubernetes', 'SQL', 'LLMs'] },
  { title: 'QA Engineer', department: 'engineering', weight: 7, degree: 'BSc Information Systems', skills: ['Test Automation', 'Cypress', 'Selenium', 'Python', 'CI/CD'] },
  { title: 'Data Scientist', department: 'data', weight: 14, degree: 'MSc Statistics', skills: ['Python', 'R', 'SQL', 'Machine Learning', 'Statistics', 'Experimentation', 'PyTorch'] },
  { title: 'Data Analyst', department: 'data', weight: 14, degree: 'BSc Economics', skills: ['SQL', 'Excel', 'Tableau', 'Looker', 'Python', 'Statistics'] },
  { title: 'Analytics Engineer', department: 'data', weight: 5, degree: 'BSc Mathematics', skills: ['dbt', 'SQL', 'Snowflake', 'Looker', 'Python'] },
  { title: 'Product Manager', department: 'product', weight: 16, degree: 'MBA', skills: ['Product Strategy', 'Roadmapping', 'User Research', 'SQL', 'Agile', 'A/B Testing'] },
  { title: 'Product Owner', department: 'product', weight: 6, degree: 'BSc Business Administration', skills: ['Agile', 'Scrum', 'Jira', 'Backlog Management', 'User Stories'] },
  { title: 'Product Designer', department: 'design', weight: 10, degree: 'BA Interaction Design', skills: ['Figma', 'Prototyping', 'Design Systems', 'User Research', 'Accessibility'] },
  { title: 'UX Researcher', department: 'design', weight: 4, degree: 'MSc Human-Computer Interaction', skills: ['User Research', 'Usability Testing', 'Survey Design', 'Figma'] },
  { title: 'Account Executive', department: 'sales', weight: 24, degree: 'BA Communications', skills: ['Salesforce', 'Negotiation', 'SaaS Sales', 'MEDDIC', 'Pipeline Management'] },
  { title: 'Sales Development Representative', department: 'sales', weight: 16, degree: 'BA Marketing', skills: ['Outbound Prospecting', 'Salesforce', 'Cold Calling', 'Outreach', 'LinkedIn Sales Navigator'] },
  { title: 'Solutions Engineer', department: 'sales', weight: 7, degree: 'BSc Computer Science', skills: ['Technical Demos', 'APIs', 'Python', 'Solution Architecture', 'Salesforce'] },
  { title: 'Account Manager', department: 'sales', weight: 10, degree: 'BA Business', skills: ['Account Management', 'Upselling', 'Salesforce', 'Negotiation'] },
  { title: 'Growth Marketer', department: 'marketing', weight: 8, degree: 'BA Marketing', skills: ['SEO', 'Google Ads', 'Lifecycle Marketing', 'HubSpot', 'A/B Testing'] },
  { title: 'Content Marketer', department: 'marketing', weight: 8, degree: 'BA English', skills: ['Copywriting', 'SEO', 'Content Strategy', 'HubSpot', 'Social Media'] },
  { title: 'Product Marketer', department: 'marketing', weight: 5, degree: 'BA Marketing', skills: ['Positioning', 'Go-to-Market', 'Competitive Analysis', 'Copywriting'] },
  { title: 'Recruiter', department: 'people', weight: 9, degree: 'BA Psychology', skills: ['Full-Cycle Recruiting', 'Sourcing', 'Greenhouse', 'Interviewing', 'LinkedIn Recruiter'] },
  { title: 'Technical Recruiter', department: 'people', weight: 7, degree: 'BA Psychology', skills: ['Technical Sourcing', 'Boolean Search', 'Greenhouse', 'Lever', 'LinkedIn Recruiter'] },
  { title: 'Talent Sourcer', department: 'people', weight: 4, degree: 'BA Sociology', skills: ['Sourcing', 'Boolean Search', 'LinkedIn Recruiter', 'Talent Mapping'] },
  { title: 'HR Business Partner', department: 'people', weight: 5, degree: 'BA Human Resources', skills: ['Employee Relations', 'Performance Management', 'Workday', 'Compensation'] },
  { title: 'Financial Analyst', department: 'finance', weight: 10, degree: 'BSc Finance', skills: ['Financial Modeling', 'Excel', 'FP&A', 'SQL', 'Forecasting'] },
  { title: 'Accountant', department: 'finance', weight: 9, degree: 'BSc Accounting', skills: ['GAAP', 'NetSuite', 'Reconciliation', 'Excel', 'Audit'] },
  { title: 'Operations Analyst', department: 'operations', weight: 8, degree: 'BSc Industrial Engineering', skills: ['Process Improvement', 'SQL', 'Excel', 'Lean', 'Tableau'] },
  { title: 'Project Manager', department: 'operations', weight: 9, degree: 'BSc Business Administration', skills: ['Project Management', 'Agile', 'Jira', 'Stakeholder Management', 'Risk Management'] },
  { title: 'Supply Chain Analyst', department: 'operations', weight: 4, degree: 'BSc Supply Chain Management', skills: ['Logistics', 'SAP', 'Forecasting', 'Excel', 'Procurement'] },
  { title: 'Customer Success Specialist', department: 'customer_success', weight: 12, degree: 'BA Communications', skills: ['Onboarding', 'Gainsight', 'Account Management', 'Zendesk', 'Churn Reduction'] },
  { title: 'Support Engineer', department: 'customer_success', weight: 8, degree: 'BSc Information Systems', skills: ['Troubleshooting', 'Zendesk', 'SQL', 'APIs', 'Linux'] },
  { title: 'Corporate Counsel', department: 'legal', weight: 3, degree: 'JD', skills: ['Contract Negotiation', 'Privacy Law', 'Commercial Law', 'Compliance'] },
  { title: 'Paralegal', department: 'legal', weight: 2, degree: 'BA Legal Studies', skills: ['Legal Research', 'Contract Management', 'Compliance', 'Document Review'] },
];

/** Every skill any role has: the values of the per-person "side skill" attribute. */
export const ALL_SKILLS: readonly string[] = [...new Set(ROLES.flatMap((role) => role.skills))].sort();

export interface City {
  readonly name: string;
  readonly region: string;
  readonly country: string;
  readonly countryCode: string;
  /** Cities of one metro are "just outside" each other: a metro-wide search returns them all. */
  readonly metro: string;
  readonly weight: number;
  /** Dialling prefix used for mobile numbers. */
  readonly phonePrefix: string;
}

// prettier-ignore
export const CITIES: readonly City[] = [
  { name: 'San Francisco', region: 'California', country: 'United States', countryCode: 'US', metro: 'sf-bay', weight: 60, phonePrefix: '+1415' },
  { name: 'Oakland', region: 'California', country: 'United States', countryCode: 'US', metro: 'sf-bay', weight: 14, phonePrefix: '+1510' },
  { name: 'San Jose', region: 'California', country: 'United States', countryCode: 'US', metro: 'sf-bay', weight: 18, phonePrefix: '+1408' },
  { name: 'Palo Alto', region: 'California', country: 'United States', countryCode: 'US', metro: 'sf-bay', weight: 8, phonePrefix: '+1650' },
  { name: 'San Mateo', region: 'California', country: 'United States', countryCode: 'US', metro: 'sf-bay', weight: 6, phonePrefix: '+1650' },
  { name: 'New York', region: 'New York', country: 'United States', countryCode: 'US', metro: 'nyc', weight: 70, phonePrefix: '+1212' },
  { name: 'Brooklyn', region: 'New York', country: 'United States', countryCode: 'US', metro: 'nyc', weight: 16, phonePrefix: '+1718' },
  { name: 'Jersey City', region: 'New Jersey', country: 'United States', countryCode: 'US', metro: 'nyc', weight: 8, phonePrefix: '+1201' },
  { name: 'Boston', region: 'Massachusetts', country: 'United States', countryCode: 'US', metro: 'boston', weight: 24, phonePrefix: '+1617' },
  { name: 'Cambridge', region: 'Massachusetts', country: 'United States', countryCode: 'US', metro: 'boston', weight: 8, phonePrefix: '+1617' },
  { name: 'Seattle', region: 'Washington', country: 'United States', countryCode: 'US', metro: 'seattle', weight: 28, phonePrefix: '+1206' },
  { name: 'Bellevue', region: 'Washington', country: 'United States', countryCode: 'US', metro: 'seattle', weight: 8, phonePrefix: '+1425' },
  { name: 'Austin', region: 'Texas', country: 'United States', countryCode: 'US', metro: 'austin', weight: 22, phonePrefix: '+1512' },
  { name: 'Chicago', region: 'Illinois', country: 'United States', countryCode: 'US', metro: 'chicago', weight: 24, phonePrefix: '+1312' },
  { name: 'Denver', region: 'Colorado', country: 'United States', countryCode: 'US', metro: 'denver', weight: 12, phonePrefix: '+1303' },
  { name: 'Atlanta', region: 'Georgia', country: 'United States', countryCode: 'US', metro: 'atlanta', weight: 12, phonePrefix: '+1404' },
  { name: 'Los Angeles', region: 'California', country: 'United States', countryCode: 'US', metro: 'la', weight: 30, phonePrefix: '+1213' },
  { name: 'Santa Monica', region: 'California', country: 'United States', countryCode: 'US', metro: 'la', weight: 6, phonePrefix: '+1310' },
  { name: 'Toronto', region: 'Ontario', country: 'Canada', countryCode: 'CA', metro: 'toronto', weight: 20, phonePrefix: '+1416' },
  { name: 'London', region: 'England', country: 'United Kingdom', countryCode: 'GB', metro: 'london', weight: 50, phonePrefix: '+447' },
  { name: 'Manchester', region: 'England', country: 'United Kingdom', countryCode: 'GB', metro: 'manchester', weight: 10, phonePrefix: '+447' },
  { name: 'Dublin', region: 'Leinster', country: 'Ireland', countryCode: 'IE', metro: 'dublin', weight: 12, phonePrefix: '+3538' },
  { name: 'Berlin', region: 'Berlin', country: 'Germany', countryCode: 'DE', metro: 'berlin', weight: 24, phonePrefix: '+4915' },
  { name: 'Munich', region: 'Bavaria', country: 'Germany', countryCode: 'DE', metro: 'munich', weight: 12, phonePrefix: '+4917' },
  { name: 'Paris', region: 'Ile-de-France', country: 'France', countryCode: 'FR', metro: 'paris', weight: 24, phonePrefix: '+336' },
  { name: 'Amsterdam', region: 'North Holland', country: 'Netherlands', countryCode: 'NL', metro: 'amsterdam', weight: 14, phonePrefix: '+316' },
  { name: 'Stockholm', region: 'Stockholm County', country: 'Sweden', countryCode: 'SE', metro: 'stockholm', weight: 8, phonePrefix: '+467' },
  { name: 'Madrid', region: 'Community of Madrid', country: 'Spain', countryCode: 'ES', metro: 'madrid', weight: 10, phonePrefix: '+346' },
  { name: 'Tel Aviv', region: 'Tel Aviv District', country: 'Israel', countryCode: 'IL', metro: 'tel-aviv', weight: 10, phonePrefix: '+9725' },
  { name: 'Bangalore', region: 'Karnataka', country: 'India', countryCode: 'IN', metro: 'bangalore', weight: 30, phonePrefix: '+919' },
  { name: 'Singapore', region: 'Singapore', country: 'Singapore', countryCode: 'SG', metro: 'singapore', weight: 14, phonePrefix: '+659' },
  { name: 'Sydney', region: 'New South Wales', country: 'Australia', countryCode: 'AU', metro: 'sydney', weight: 14, phonePrefix: '+614' },
  { name: 'Sao Paulo', region: 'Sao Paulo', country: 'Brazil', countryCode: 'BR', metro: 'sao-paulo', weight: 14, phonePrefix: '+5511' },
];
