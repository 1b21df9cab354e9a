// GET /credits/balance
import { Type } from 'typebox';
import { addMonths, PLAN_TERMS } from '../../../accounts/plans.js';
import { currentCaller } from '../../plugins/metering.js';
import { Nullable } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const Balance = Type.Object(
  {
    account_id: Type.Integer(),
    plan: Type.String({ description: 'none, core, pro or max (the plan in force)' }),
    trial_ends_at: Nullable(Type.String({ description: 'When the free trial ends, if on one' })),
    balance: Type.Integer({ description: 'Credits available now: allowance_remaining + credits' }),
    allowance_remaining: Type.Integer({ description: "This period's plan credits left (spent first)" }),
    monthly_allowance: Type.Integer(),
    credits: Type.Integer({
      description: 'Sign-up, granted and bought credits (spent after the allowance; never expire)',
    }),
    period_start: Type.String(),
    period_end: Type.String({ description: 'When the allowance renews' }),
    spent_today: Type.Integer({ description: "This key's spend since midnight UTC" }),
    daily_cap: Type.Integer({ description: "This key's daily spend cap" }),
    rate_limit: Type.Object({
      limit: Type.Integer({ description: 'Requests per minute for the account' }),
    }),
  },
  {
    examples: [
      {
        account_id: 7,
        plan: 'core',
        trial_ends_at: null,
        balance: 24310,
        allowance_remaining: 23560,
        monthly_allowance: 25000,
        credits: 750,
        period_start: '2026-11-01T09:00:00.000Z',
        period_end: '2026-12-01T09:00:00.000Z',
        spent_today: 690,
        daily_cap: 25000,
        rate_limit: { limit: 120 },
      },
    ],
  },
);

export function balanceRoute(app: App, deps: AppDeps): void {
  app.get(
    '/credits/balance',
    {
      schema: {
        operationId: 'creditsBalance',
        tags: ['credits'],
        summary: "The calling key's account balance, plan, allowance, daily spend and rate limit",
        response: { 200: Balance },
      },
    },
    async (request) => {
      const caller = await currentCaller(deps, request);
      return {
        account_id: caller.accountId,
        plan: caller.plan,
        trial_ends_at: caller.trialEndsAt,
        balance: caller.allowance + caller.credits,
        allowance_remaining: caller.allowance,
        monthly_allowance: PLAN_TERMS[caller.plan].monthlyCredits,
        credits: caller.credits,
        period_start: caller.periodStart,
        period_end: addMonths(caller.periodStart, 1),
        spent_today: caller.spentToday,
        daily_cap: caller.dailyCap,
        rate_limit: { limit: caller.requestsPerMinute },
      };
    },
  );
}
