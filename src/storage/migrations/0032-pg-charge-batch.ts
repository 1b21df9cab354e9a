// Issue 17, PostgreSQL: the charges a process takes while another batch of its charges is at the
// server go together, as one call of `charge_batch` (charges/postgres-batches.ts, chargeInNextBatch):
// one statement, one commit, and no two charges of one process waiting on each other's row
// locks. Ten concurrent one-statement charges on one account cost the server 0.46 ms of CPU each,
// mostly lock waits and wake-ups; taken one after another, 0.17 ms; ten to a batch, ~0.11 ms
// (BENCHMARKS.md's notes).
//
// Each charge decides as the one-statement charge does, on the key and account rows as the
// charges before it left them (locked FOR UPDATE until the batch commits): refused when the key
// is revoked or unknown, past its daily cap, or when the balance cannot cover the cost. Each runs
// in its own block with an exception handler (a subtransaction), so a charge that fails (a
// request id charged before) undoes only its own writes and reports its SQLSTATE and message;
// the others commit. Nothing on SQLite, whose charges group in one transaction of savepoints.
import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`create or replace function charge_batch(charges jsonb) returns table (
      spent_today integer, allowance integer, credits integer, refused text,
      error_state text, error_message text
    ) language plpgsql as $$
    declare
      c jsonb;
      v_key integer; v_account integer; v_cost integer; v_day text; v_now text;
      k_revoked boolean; k_spent integer; k_cap integer; a_allowance integer; a_credits integer;
    begin
      for c in select value from jsonb_array_elements(charges) loop
        v_key := (c->>'keyId')::integer;
        v_account := (c->>'accountId')::integer;
        v_cost := (c->>'cost')::integer;
        v_day := c->>'day';
        v_now := c->>'now';
        spent_today := null; allowance := null; credits := null; refused := null;
        error_state := null; error_message := null;
        begin
          select k.revoked_at is not null,
              case when k.spent_day = v_day then k.spent_today else 0 end, k.daily_cap,
              a.allowance, a.credits
            into k_revoked, k_spent, k_cap, a_allowance, a_credits
            from api_keys k join accounts a on a.id = k.account_id
            where k.id = v_key and a.id = v_account
            for update of k, a;
          if not found or k_revoked then
            refused := 'revoked';
          elsif k_spent + v_cost > k_cap then
            refused := 'daily_cap';
          elsif a_allowance + a_credits < v_cost then
            refused := 'balance';
          else
            update api_keys set spent_today = k_spent + v_cost, spent_day = v_day, last_used_at = v_now
              where id = v_key;
            update accounts set
                allowance = case when accounts.allowance >= v_cost
                  then accounts.allowance - v_cost else 0 end,
                credits = case when accounts.allowance >= v_cost
                  then accounts.credits else accounts.credits - (v_cost - accounts.allowance) end,
                updated_at = v_now
              where id = v_account
              returning accounts.allowance, accounts.credits into allowance, credits;
            spent_today := k_spent + v_cost;
            if v_cost > 0 then
              insert into credit_ledger (account_id, key_id, kind, amount, request_id, route, note, created_at)
                values (v_account, v_key, 'charge', -v_cost, c->>'requestId', c->>'route', null, v_now);
            end if;
            if (c->>'withUsage')::boolean then
              insert into request_log (account_id, key_id, request_id, method, route, status, charge, created_at)
                values (v_account, v_key, c->>'requestId', c->>'method', c->>'route',
                  (c->>'status')::integer, v_cost, v_now);
            end if;
          end if;
        exception when others then
          spent_today := null; allowance := null; credits := null; refused := null;
          error_state := sqlstate; error_message := sqlerrm;
        end;
        return next;
      end loop;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop function if exists charge_batch(jsonb)`.execute(db);
}
