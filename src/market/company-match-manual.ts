// The hand-kept part of name matching: names the company directory cannot match by spelling,
// each checked by hand. "alias" is the same company under another name (a rename, a brand);
// "subsidiary" is a company owned by the listed parent (matched with method "parent").
import { nameKey } from './company-names.js';

export interface ManualCompanyName {
  name: string;
  ticker: string;
  relation: 'alias' | 'subsidiary';
  note: string;
}

const ENTRIES: readonly ManualCompanyName[] = [
  {
    name: 'Google Inc.',
    ticker: 'GOOGL',
    relation: 'alias',
    note: 'Google Inc. became Alphabet Inc. (same issuer) in the 2015 reorganization',
  },
  {
    name: 'Google',
    ticker: 'GOOGL',
    relation: 'alias',
    note: "Google is Alphabet's operating company and former listed name",
  },
  {
    name: 'AT&T Services, Inc.',
    ticker: 'T',
    relation: 'subsidiary',
    note: "AT&T Services, Inc. is AT&T Inc.'s services subsidiary",
  },
  {
    name: 'Amazon Web Services',
    ticker: 'AMZN',
    relation: 'subsidiary',
    note: 'Amazon Web Services, Inc. is owned by Amazon.com, Inc.',
  },
  {
    name: 'Amazon Corporate, LLC',
    ticker: 'AMZN',
    relation: 'subsidiary',
    note: 'Amazon Corporate LLC is owned by Amazon.com, Inc.',
  },
  {
    name: 'Amazon Prime Air',
    ticker: 'AMZN',
    relation: 'subsidiary',
    note: "Prime Air is Amazon's drone delivery unit",
  },
  {
    name: 'CVS Caremark',
    ticker: 'CVS',
    relation: 'alias',
    note: 'CVS Caremark Corporation renamed itself CVS Health Corporation in 2014',
  },
  {
    name: 'Chevron U.S.A., Inc.',
    ticker: 'CVX',
    relation: 'subsidiary',
    note: "Chevron U.S.A. Inc. is Chevron Corporation's US operating subsidiary",
  },
  {
    name: 'Citigroup Washington, Inc.',
    ticker: 'C',
    relation: 'subsidiary',
    note: "Citigroup's Washington government-relations subsidiary",
  },
  {
    name: 'Citigroup Washington, Inc. (CWI)',
    ticker: 'C',
    relation: 'subsidiary',
    note: "Citigroup's Washington government-relations subsidiary",
  },
  {
    name: 'Citigroup Global Markets Inc.',
    ticker: 'C',
    relation: 'subsidiary',
    note: "Citigroup's broker-dealer subsidiary",
  },
  {
    name: 'Citigroup Management Corp.',
    ticker: 'C',
    relation: 'subsidiary',
    note: 'a Citigroup Inc. subsidiary',
  },
  {
    name: 'General Electric Energy Financial Services',
    ticker: 'GE',
    relation: 'subsidiary',
    note: 'GE Energy Financial Services is a unit of General Electric',
  },
  {
    name: 'Johnson & Johnson Services, Inc.',
    ticker: 'JNJ',
    relation: 'subsidiary',
    note: 'Johnson & Johnson Services, Inc. is a J&J subsidiary',
  },
  {
    name: 'JPMorgan Chase Holdings LLC',
    ticker: 'JPM',
    relation: 'subsidiary',
    note: 'JPMorgan Chase Holdings LLC is the intermediate holding company of JPMorgan Chase & Co.',
  },
  {
    name: 'Lockheed Martin Aeronautic Sector',
    ticker: 'LMT',
    relation: 'subsidiary',
    note: 'Lockheed Martin Aeronautics is a business area of Lockheed Martin',
  },
  {
    name: 'Lockheed Martin Corpororation',
    ticker: 'LMT',
    relation: 'alias',
    note: 'misspelling of Lockheed Martin Corporation in an LD-2',
  },
  {
    name: 'Oracle America, Inc.',
    ticker: 'ORCL',
    relation: 'subsidiary',
    note: 'Oracle America, Inc. (formerly Sun Microsystems) is owned by Oracle Corporation',
  },
  {
    name: 'Verizon Government Relations',
    ticker: 'VZ',
    relation: 'alias',
    note: "Verizon Communications' government-relations office",
  },
  {
    name: 'Wells Fargo Advisors, LLC',
    ticker: 'WFC',
    relation: 'subsidiary',
    note: "Wells Fargo Advisors is Wells Fargo & Company's brokerage subsidiary",
  },
  {
    name: 'Northrop Grumman Systems Corporation',
    ticker: 'NOC',
    relation: 'subsidiary',
    note: "Northrop Grumman Systems Corporation is Northrop Grumman's main operating subsidiary",
  },
  {
    name: 'Electric Boat Corporation',
    ticker: 'GD',
    relation: 'subsidiary',
    note: 'Electric Boat is a General Dynamics subsidiary',
  },
  {
    name: 'Sikorsky Aircraft Corporation',
    ticker: 'LMT',
    relation: 'subsidiary',
    note: 'Lockheed Martin bought Sikorsky from United Technologies in November 2015',
  },
  {
    name: 'Orbital Sciences LLC',
    ticker: 'NOC',
    relation: 'subsidiary',
    note: 'Orbital Sciences (Orbital ATK) was bought by Northrop Grumman in 2018',
  },
  {
    name: 'Iron Mountain Information Management, LLC',
    ticker: 'IRM',
    relation: 'subsidiary',
    note: "Iron Mountain Incorporated's operating subsidiary",
  },
  {
    name: 'Teva Pharmaceuticals USA Inc',
    ticker: 'TEVA',
    relation: 'subsidiary',
    note: 'the US subsidiary of Teva Pharmaceutical Industries',
  },
  {
    name: 'McKesson Specialty Health',
    ticker: 'MCK',
    relation: 'subsidiary',
    note: 'a McKesson Corporation business unit',
  },
  {
    name: 'DME Corporation',
    ticker: 'ATRO',
    relation: 'subsidiary',
    note: 'DME Corporation is owned by Astronics Corporation (the filing names it)',
  },
  {
    name: 'Transocean Offshore Deepwater Drilling Inc.',
    ticker: 'RIG',
    relation: 'subsidiary',
    note: 'a Transocean Ltd. subsidiary',
  },
  {
    name: 'Humana Government Business',
    ticker: 'HUM',
    relation: 'subsidiary',
    note: "Humana Inc.'s government-contracts subsidiary",
  },
];

export const MANUAL_COMPANY_NAMES: ReadonlyMap<string, ManualCompanyName> = new Map(
  ENTRIES.flatMap((entry) => {
    const key = nameKey(entry.name)?.key;
    return key ? [[key, entry] as const] : [];
  }),
);
