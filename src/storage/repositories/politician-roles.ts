// Leadership roles of members (migration 0070-leadership-roles): written by the legislators import,
// read by the search documents of members.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface LeadershipRoleRow {
  bioguideId: string;
  title: string;
  chamber: string | null;
  startDate: string | null;
  endDate: string | null;
}

/**
 * Replaces the roles of every member the roster lists (those with roles and those without, so a
 * role the file no longer lists goes) with the file's. Members not in the roster keep theirs.
 * Touches the members whose roles changed (updated_at), so their search documents are worded again.
 */
export async function saveLeadershipRoles(
  db: Kysely<Database>,
  listed: readonly string[],
  roles: readonly LeadershipRoleRow[],
  stamp: string,
): Promise<number> {
  if (listed.length === 0) return 0;
  const ids = new Map<string, number>();
  for (let at = 0; at < listed.length; at += 500) {
    const rows = await db
      .selectFrom('politicians')
      .select(['id', 'bioguide_id'])
      .where('bioguide_id', 'in', listed.slice(at, at + 500))
      .execute();
    for (const row of rows) if (row.bioguide_id) ids.set(row.bioguide_id, row.id);
  }
  const wanted = new Map<number, string[]>();
  for (const role of roles) {
    const id = ids.get(role.bioguideId);
    if (id === undefined) continue;
    const key = [role.title, role.chamber, role.startDate, role.endDate].join('|');
    wanted.set(id, [...(wanted.get(id) ?? []), key]);
  }
  const held = await db
    .selectFrom('politician_roles')
    .select(['politician_id', 'title', 'chamber', 'start_date', 'end_date'])
    .execute();
  const had = new Map<number, string[]>();
  for (const row of held) {
    const key = [row.title, row.chamber, row.start_date, row.end_date].join('|');
    had.set(row.politician_id, [...(had.get(row.politician_id) ?? []), key]);
  }
  const changed = [...ids.values()].filter(
    (id) => (wanted.get(id) ?? []).sort().join('\n') !== (had.get(id) ?? []).sort().join('\n'),
  );
  for (let at = 0; at < changed.length; at += 500) {
    const chunk = changed.slice(at, at + 500);
    await db.deleteFrom('politician_roles').where('politician_id', 'in', chunk).execute();
    const rows = chunk.flatMap((id) =>
      (wanted.get(id) ?? []).map((key) => {
        const [title = '', chamber, start, end] = key.split('|');
        return {
          politician_id: id,
          title,
          chamber: chamber || null,
          start_date: start || null,
          end_date: end || null,
        };
      }),
    );
    if (rows.length > 0) await db.insertInto('politician_roles').values(rows).execute();
    await db.updateTable('politicians').set({ updated_at: stamp }).where('id', 'in', chunk).execute();
  }
  return changed.length;
}

export interface MemberRole {
  politician_id: number;
  title: string;
  start_date: string | null;
  end_date: string | null;
}

/** The leadership roles of these members, oldest first. */
export async function leadershipRolesOf(db: Kysely<Database>, ids: readonly number[]): Promise<MemberRole[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('politician_roles')
    .select(['politician_id', 'title', 'start_date', 'end_date'])
    .where('politician_id', 'in', [...ids])
    .orderBy('start_date')
    .orderBy('title')
    .orderBy('end_date')
    .execute();
}
