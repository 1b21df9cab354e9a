// lobbying_filings.lobbyists stored under the keys the Lobbying resource serves (name,
// covered_position, is_new) instead of the LDA readers' (name, coveredPosition, isNew): GET
// /lobbying then passes the stored arrays through, as it passes the issues, instead of taking
// each filing's lobbyists apart and writing them again. Values as the page wrote them before: the
// name and the covered position as text or null, is_new true, false or null. The rows' content
// hashes stay as they are: the LDA store takes them over the filing as read (the readers' keys),
// so a re-ingest of an unchanged filing still writes nothing.
import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.js';

type Keys = { name: string; position: string; isNew: string };
const READ: Keys = { name: 'name', position: 'coveredPosition', isNew: 'isNew' };
const SERVED: Keys = { name: 'name', position: 'covered_position', isNew: 'is_new' };

async function rewriteLobbyists(db: Kysely<unknown>, from: Keys, to: Keys): Promise<void> {
  if (isSqlite(db)) {
    const path = (key: string) => sql.lit(`$.${key}`);
    await sql`update lobbying_filings set lobbyists = coalesce((
        select json_group_array(json_object(
          ${sql.lit(to.name)}, json_extract(e.value, ${path(from.name)}),
          ${sql.lit(to.position)}, json_extract(e.value, ${path(from.position)}),
          ${sql.lit(to.isNew)}, json(case json_type(e.value, ${path(from.isNew)})
            when 'true' then 'true' when 'false' then 'false' else 'null' end)
        ) order by e.key)
        from json_each(lobbying_filings.lobbyists) e), '[]')`.execute(db);
    return;
  }
  // row_to_json writes no space around a colon, as JSON.stringify does (json_build_object would).
  await sql`update lobbying_filings set lobbyists = coalesce((
      select '[' || string_agg((select row_to_json(o)::text from (select
          e ->> ${sql.lit(from.name)} as ${sql.id(to.name)},
          e ->> ${sql.lit(from.position)} as ${sql.id(to.position)},
          case json_typeof(e -> ${sql.lit(from.isNew)}) when 'boolean' then cast(e ->> ${sql.lit(from.isNew)} as boolean) end
            as ${sql.id(to.isNew)}) as o), ',' order by n) || ']'
      from json_array_elements(cast(lobbying_filings.lobbyists as json)) with ordinality as a(e, n)), '[]')`.execute(
    db,
  );
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rewriteLobbyists(db, READ, SERVED);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rewriteLobbyists(db, SERVED, READ);
}
