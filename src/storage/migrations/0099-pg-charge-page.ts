// PostgreSQL: the charge a page's statement takes (charges/with-page.ts), as a function of its own.
// The page statement called `charge_batch` with a batch of one, which paid for what only a batch
// needs: the charge packed into JSONB and unpacked again, and a subtransaction (the block with an
// exception handler that lets one failing charge of a batch undo only itself). A subtransaction
// that writes takes its own transaction id, listed in the commit record, and starts and ends while
// the key and account rows are locked, so every other call of the account waits for it too.
// A page's charge is alone in its statement: a failure (a request id charged before) fails the
// statement, which writes nothing and charges nothing, so the handler bought nothing there.
//
// The decision is `charge_batch`'s, on the same rows in the same order: the key and account rows
// locked FOR UPDATE (key first, as every charge and refund locks them) until the statement
// commits; refused, writing nothing, when the key is revoked or unknown, past its daily cap, or
// when the balance cannot cover the cost; otherwise the key's spend, the debit (allowance first),
// the ledger row (when the call costs anything) and the request-log row. It answers the columns of
// `charge_batch`, `error_state` and `error_message` always null, so both are read alike.
// Nothing on SQLite, whose page charges are taken in groups after the page (charges/sqlite-groups.ts).
import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`create or replace function charge_page(v_account integer, v_key integer, v_cost integer,
      v_request text, v_route text, v_day text, v_now text, v_method text, v_status integer)
    returns table (spent_today integer, allowance integer, credits integer, refused text,
      error_state text, error_message text)
    language plpgsql as $$
    declare
      k_revoked boolean; k_spent integer; k_cap integer; a_allowance integer; a_credits integer;
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
            values (v_account, v_key, 'charge', -v_cost, v_request, v_route, null, v_now);
        end if;
        insert into request_log (account_id, key_id, request_id, method, route, status, charge, created_at)
          values (v_account, v_key, v_request, v_method, v_route, v_status, v_cost, v_now);
      end if;
      return next;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop function if exists charge_page(integer, integer, integer, text, text, text, text, text, integer)`.execute(
    db,
  );
}
