// The tables of legislation and campaign finance: bills and their parts, sponsors, committees,
// actions, subjects and recorded votes; roll-call votes and positions; FEC candidates, committees
// and totals linked to members.

export interface BillsTable {
  /** "hr21-117": type, number, congress. */
  id: string;
  congress: number;
  bill_type: string;
  number: number;
  title: string;
  short_title: string | null;
  introduced_date: string | null;
  sponsor_bioguide_id: string | null;
  policy_area: string | null;
  latest_action_date: string | null;
  latest_action_text: string | null;
  url: string | null;
  updated_at: string;
}

/** Legislation and campaign finance (migration 0010). */
export interface BillPartsTable {
  bill_id: string;
  /** sponsors | committees | actions | subjects | related | votes */
  part: string;
  content_hash: string;
  updated_at: string;
}

export interface BillSponsorsTable {
  bill_id: string;
  bioguide_id: string;
  role: 'sponsor' | 'cosponsor';
  full_name: string | null;
  party: string | null;
  state: string | null;
  sponsorship_date: string | null;
  is_original: number | null;
  withdrawn_date: string | null;
}

export interface BillCommitteeActivitiesTable {
  bill_id: string;
  seq: number;
  committee_id: string;
  system_code: string;
  committee_name: string;
  chamber: string | null;
  activity: string;
  activity_date: string | null;
}

export interface BillActionsTable {
  bill_id: string;
  seq: number;
  action_date: string;
  action_time: string | null;
  action_code: string | null;
  action_type: string | null;
  source_system: string | null;
  text: string;
  committee_ids: string | null;
}

export interface BillSubjectsTable {
  bill_id: string;
  subject: string;
}

export interface BillRelatedTable {
  bill_id: string;
  related_bill_id: string;
  relationship: string;
  identified_by: string | null;
  title: string | null;
}

export interface BillRecordedVotesTable {
  bill_id: string;
  seq: number;
  chamber: string;
  congress: number;
  session: number | null;
  clerk_roll_number: number;
  vote_date: string | null;
  action_name: string | null;
  url: string | null;
}

export interface VotesTable {
  id: string;
  congress: number;
  chamber: string;
  roll_number: number;
  clerk_roll_number: number | null;
  session: number | null;
  vote_date: string;
  bill_id: string | null;
  measure: string | null;
  question: string | null;
  result: string | null;
  description: string | null;
  yea_count: number | null;
  nay_count: number | null;
  source: string;
  updated_at: string;
}

export interface VotePositionsTable {
  id: string;
  vote_id: string;
  icpsr: number;
  bioguide_id: string | null;
  member_name: string | null;
  position: string;
  cast_code: number;
}

export interface PoliticianFecIdsTable {
  fec_id: string;
  bioguide_id: string;
}

export interface FecCandidatesTable {
  id: string;
  name: string;
  party: string | null;
  election_year: number | null;
  office_state: string | null;
  office: string | null;
  district: string | null;
  incumbent_challenger: string | null;
  status: string | null;
  principal_committee_id: string | null;
}

export interface FecCommitteesTable {
  id: string;
  name: string;
  designation: string | null;
  type: string | null;
  party: string | null;
  connected_org_name: string | null;
  connected_org_key: string | null;
  candidate_id: string | null;
}

export interface FecLinkagesTable {
  id: string;
  candidate_id: string;
  candidate_election_year: number | null;
  cycle: number | null;
  committee_id: string;
  committee_type: string | null;
  designation: string | null;
}

export interface FecCommitteeContributionsTable {
  id: string;
  committee_id: string;
  candidate_id: string;
  recipient_committee_id: string | null;
  transaction_type: string | null;
  entity_type: string | null;
  name: string | null;
  contribution_date: string | null;
  cycle: number | null;
  amount: number;
  memo: number;
  /** When the import last inserted or changed the row (migration 0022); null: stored before. */
  updated_at: string | null;
}

export interface FecEmployerTotalsTable {
  id: string;
  origin: string;
  committee_id: string;
  cycle: number;
  employer_key: string;
  employer_name: string;
  amount: number;
  contributions: number;
}

export interface FecCandidateTotalsTable {
  id: string;
  candidate_id: string;
  cycle: number;
  name: string;
  party: string | null;
  receipts: number;
  disbursements: number;
  cash_on_hand: number;
  debts: number;
  individual_contributions: number;
  pac_contributions: number;
  party_contributions: number;
  candidate_contributions: number;
  coverage_end_date: string | null;
}

/** This area's tables by name (the `Database` interface is every area's together). */
export interface LegislationTables {
  bills: BillsTable;
  bill_parts: BillPartsTable;
  bill_sponsors: BillSponsorsTable;
  bill_committee_activities: BillCommitteeActivitiesTable;
  bill_actions: BillActionsTable;
  bill_subjects: BillSubjectsTable;
  bill_related: BillRelatedTable;
  bill_recorded_votes: BillRecordedVotesTable;
  votes: VotesTable;
  vote_positions: VotePositionsTable;
  politician_fec_ids: PoliticianFecIdsTable;
  fec_candidates: FecCandidatesTable;
  fec_committees: FecCommitteesTable;
  fec_linkages: FecLinkagesTable;
  fec_committee_contributions: FecCommitteeContributionsTable;
  fec_employer_totals: FecEmployerTotalsTable;
  fec_candidate_totals: FecCandidateTotalsTable;
}
