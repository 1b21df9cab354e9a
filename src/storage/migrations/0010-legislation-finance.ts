// Legislation and campaign finance: a bill's sponsors, committee activity, actions, subjects,
// related bills and recorded votes; roll-call votes with every member's position; committee seats
// with their start and end (so a question can be asked "at the time of the trade"); and the FEC's
// candidates, committees, PAC-to-candidate contributions, individual contributions summed by
// employer, and candidate cycle totals. Every table is keyed on the source's own ids, so a second
// import of the same files changes nothing.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One hash per bill and part (sponsors, committees, actions, subjects, related, votes): a part is
  // replaced only when a document brings a different one, and a document that lacks it keeps the old.
  await db.schema
    .createTable('bill_parts')
    .addColumn('bill_id', 'text', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('bill_parts_pk', ['bill_id', 'part'])
    .execute();

  await db.schema
    .createTable('bill_sponsors')
    .addColumn('bill_id', 'text', (c) => c.notNull())
    .addColumn('bioguide_id', 'text', (c) => c.notNull())
    /** sponsor | cosponsor */
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('full_name', 'text')
    .addColumn('party', 'text')
    .addColumn('state', 'text')
    .addColumn('sponsorship_date', 'text')
    .addColumn('is_original', 'integer')
    .addColumn('withdrawn_date', 'text')
    .addPrimaryKeyConstraint('bill_sponsors_pk', ['bill_id', 'role', 'bioguide_id'])
    .execute();
  await db.schema
    .createIndex('bill_sponsors_bioguide_idx')
    .on('bill_sponsors')
    .column('bioguide_id')
    .execute();

  await db.schema
    .createTable('bill_committee_activities')
    .addColumn('bill_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    /** thomas id, as committees.id ("HSGO", "HSJU03"). */
    .addColumn('committee_id', 'text', (c) => c.notNull())
    .addColumn('system_code', 'text', (c) => c.notNull())
    .addColumn('committee_name', 'text', (c) => c.notNull())
    .addColumn('chamber', 'text')
    /** "Referred to", "Markup by", "Reported by", "Discharged from"... */
    .addColumn('activity', 'text', (c) => c.notNull())
    .addColumn('activity_date', 'text')
    .addPrimaryKeyConstraint('bill_committee_activities_pk', ['bill_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('bill_committee_activities_committee_idx')
    .on('bill_committee_activities')
    .columns(['committee_id', 'activity_date'])
    .execute();

  await db.schema
    .createTable('bill_actions')
    .addColumn('bill_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('action_date', 'text', (c) => c.notNull())
    .addColumn('action_time', 'text')
    .addColumn('action_code', 'text')
    .addColumn('action_type', 'text')
    .addColumn('source_system', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    /** Comma list of the committees (thomas ids) the action names. */
    .addColumn('committee_ids', 'text')
    .addPrimaryKeyConstraint('bill_actions_pk', ['bill_id', 'seq'])
    .execute();

  await db.schema
    .createTable('bill_subjects')
    .addColumn('bill_id', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('bill_subjects_pk', ['bill_id', 'subject'])
    .execute();
  await db.schema.createIndex('bill_subjects_subject_idx').on('bill_subjects').column('subject').execute();

  await db.schema
    .createTable('bill_related')
    .addColumn('bill_id', 'text', (c) => c.notNull())
    .addColumn('related_bill_id', 'text', (c) => c.notNull())
    .addColumn('relationship', 'text', (c) => c.notNull())
    .addColumn('identified_by', 'text')
    .addColumn('title', 'text')
    .addPrimaryKeyConstraint('bill_related_pk', ['bill_id', 'related_bill_id', 'relationship'])
    .execute();

  await db.schema
    .createTable('bill_recorded_votes')
    .addColumn('bill_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('chamber', 'text', (c) => c.notNull())
    .addColumn('congress', 'integer', (c) => c.notNull())
    .addColumn('session', 'integer')
    /** The clerk's roll number (House Clerk or Senate LIS), as votes.clerk_roll_number. */
    .addColumn('clerk_roll_number', 'integer', (c) => c.notNull())
    .addColumn('vote_date', 'text')
    .addColumn('action_name', 'text')
    .addColumn('url', 'text')
    .addPrimaryKeyConstraint('bill_recorded_votes_pk', ['bill_id', 'seq'])
    .execute();

  await db.schema
    .createTable('votes')
    /** "h119-2": chamber letter, congress, Voteview roll number. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('congress', 'integer', (c) => c.notNull())
    .addColumn('chamber', 'text', (c) => c.notNull())
    .addColumn('roll_number', 'integer', (c) => c.notNull())
    .addColumn('clerk_roll_number', 'integer')
    .addColumn('session', 'integer')
    .addColumn('vote_date', 'text', (c) => c.notNull())
    /** The bill or resolution voted on ("hres5-119"); null for nominations and procedure. */
    .addColumn('bill_id', 'text')
    .addColumn('measure', 'text')
    .addColumn('question', 'text')
    .addColumn('result', 'text')
    .addColumn('description', 'text')
    .addColumn('yea_count', 'integer')
    .addColumn('nay_count', 'integer')
    /** voteview */
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('votes_bill_idx').on('votes').column('bill_id').execute();
  await db.schema.createIndex('votes_date_idx').on('votes').column('vote_date').execute();
  await db.schema
    .createIndex('votes_clerk_idx')
    .on('votes')
    .columns(['chamber', 'congress', 'clerk_roll_number'])
    .execute();

  await db.schema
    .createTable('vote_positions')
    /** "h119-2:15448": vote id and the member's ICPSR number. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('vote_id', 'text', (c) => c.notNull())
    .addColumn('icpsr', 'integer', (c) => c.notNull())
    .addColumn('bioguide_id', 'text')
    .addColumn('member_name', 'text')
    /** yea | nay | present | not_voting */
    .addColumn('position', 'text', (c) => c.notNull())
    .addColumn('cast_code', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vote_positions_vote_idx').on('vote_positions').column('vote_id').execute();
  await db.schema
    .createIndex('vote_positions_bioguide_idx')
    .on('vote_positions')
    .column('bioguide_id')
    .execute();

  // A seat on a committee from when it was first known to when it was last seen. congress-legislators
  // publishes only today's rosters, so history accumulates from one import to the next.
  await db.schema
    .createTable('committee_seats')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('committee_id', 'text', (c) => c.notNull())
    .addColumn('bioguide_id', 'text', (c) => c.notNull())
    .addColumn('side', 'text')
    .addColumn('title', 'text')
    .addColumn('rank', 'integer')
    .addColumn('start_date', 'text', (c) => c.notNull())
    /** congress_start | term_start | observed: what start_date rests on. */
    .addColumn('start_basis', 'text', (c) => c.notNull())
    /** The day the seat was first missing from the roster; null while it is held. */
    .addColumn('end_date', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('committee_seats_committee_idx')
    .on('committee_seats')
    .columns(['committee_id', 'start_date'])
    .execute();
  await db.schema
    .createIndex('committee_seats_bioguide_idx')
    .on('committee_seats')
    .column('bioguide_id')
    .execute();

  await db.schema
    .createTable('politician_fec_ids')
    .addColumn('fec_id', 'text', (c) => c.primaryKey())
    .addColumn('bioguide_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('politician_fec_ids_bioguide_idx')
    .on('politician_fec_ids')
    .column('bioguide_id')
    .execute();

  await db.schema
    .createTable('fec_candidates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('party', 'text')
    .addColumn('election_year', 'integer')
    .addColumn('office_state', 'text')
    .addColumn('office', 'text')
    .addColumn('district', 'text')
    .addColumn('incumbent_challenger', 'text')
    .addColumn('status', 'text')
    .addColumn('principal_committee_id', 'text')
    .execute();

  await db.schema
    .createTable('fec_committees')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('designation', 'text')
    .addColumn('type', 'text')
    .addColumn('party', 'text')
    .addColumn('connected_org_name', 'text')
    /** The connected organization's name key (company_links.identifier_value for kind "name"). */
    .addColumn('connected_org_key', 'text')
    .addColumn('candidate_id', 'text')
    .execute();
  await db.schema
    .createIndex('fec_committees_org_idx')
    .on('fec_committees')
    .column('connected_org_key')
    .execute();

  await db.schema
    .createTable('fec_linkages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('candidate_id', 'text', (c) => c.notNull())
    .addColumn('candidate_election_year', 'integer')
    .addColumn('cycle', 'integer')
    .addColumn('committee_id', 'text', (c) => c.notNull())
    .addColumn('committee_type', 'text')
    .addColumn('designation', 'text')
    .execute();
  await db.schema
    .createIndex('fec_linkages_candidate_idx')
    .on('fec_linkages')
    .column('candidate_id')
    .execute();

  await db.schema
    .createTable('fec_committee_contributions')
    /** The FEC's SUB_ID. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('committee_id', 'text', (c) => c.notNull())
    .addColumn('candidate_id', 'text', (c) => c.notNull())
    .addColumn('recipient_committee_id', 'text')
    .addColumn('transaction_type', 'text')
    .addColumn('entity_type', 'text')
    .addColumn('name', 'text')
    .addColumn('contribution_date', 'text')
    .addColumn('cycle', 'integer')
    .addColumn('amount', 'double precision', (c) => c.notNull())
    .addColumn('memo', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fec_committee_contributions_candidate_idx')
    .on('fec_committee_contributions')
    .columns(['candidate_id', 'cycle'])
    .execute();

  await db.schema
    .createTable('fec_employer_totals')
    /** origin|committee|cycle|employer key. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** The contributions file the sums come from; re-importing it replaces its sums. */
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('committee_id', 'text', (c) => c.notNull())
    .addColumn('cycle', 'integer', (c) => c.notNull())
    /** The employer's name key (company_links.identifier_value for kind "name"). */
    .addColumn('employer_key', 'text', (c) => c.notNull())
    .addColumn('employer_name', 'text', (c) => c.notNull())
    .addColumn('amount', 'double precision', (c) => c.notNull())
    .addColumn('contributions', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fec_employer_totals_committee_idx')
    .on('fec_employer_totals')
    .columns(['committee_id', 'cycle'])
    .execute();

  await db.schema
    .createTable('fec_candidate_totals')
    /** candidate id:cycle. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('candidate_id', 'text', (c) => c.notNull())
    .addColumn('cycle', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('party', 'text')
    .addColumn('receipts', 'double precision', (c) => c.notNull())
    .addColumn('disbursements', 'double precision', (c) => c.notNull())
    .addColumn('cash_on_hand', 'double precision', (c) => c.notNull())
    .addColumn('debts', 'double precision', (c) => c.notNull())
    .addColumn('individual_contributions', 'double precision', (c) => c.notNull())
    .addColumn('pac_contributions', 'double precision', (c) => c.notNull())
    .addColumn('party_contributions', 'double precision', (c) => c.notNull())
    .addColumn('candidate_contributions', 'double precision', (c) => c.notNull())
    .addColumn('coverage_end_date', 'text')
    .execute();
  await db.schema
    .createIndex('fec_candidate_totals_candidate_idx')
    .on('fec_candidate_totals')
    .column('candidate_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'fec_candidate_totals',
    'fec_employer_totals',
    'fec_committee_contributions',
    'fec_linkages',
    'fec_committees',
    'fec_candidates',
    'politician_fec_ids',
    'committee_seats',
    'vote_positions',
    'votes',
    'bill_recorded_votes',
    'bill_related',
    'bill_subjects',
    'bill_actions',
    'bill_committee_activities',
    'bill_sponsors',
    'bill_parts',
  ])
    await db.schema.dropTable(table).ifExists().execute();
}
