// The resource shapes /openapi.json publishes by name (components/schemas/<Name>), so generated
// clients get `Trade`, `Politician`, `Filing`, `Error` ... as importable types. The one table of
// names: the document pass (openapi-document.ts) replaces every place a route, an error or a
// webhook payload uses one of these shapes with a $ref to it, whatever route the shape appears in.
import type { TSchema } from 'typebox';
import { BillDetailSchema, BillSummarySchema } from '../../resources/bill.js';
import { ContractSchema } from '../../resources/contract.js';
import { FilingSchema } from '../../resources/filing.js';
import { InsiderTradeSchema, OverlapTradeSchema } from '../../resources/insider.js';
import { LobbyingSchema, TickerMatchSchema } from '../../resources/lobbying.js';
import { PoliticianProfileSchema, PoliticianSummarySchema } from '../../resources/politician.js';
import { HoldingSchema, PortfolioSchema, PositionSchema } from '../../resources/portfolio.js';
import { SubscriptionSchema } from '../../resources/subscription.js';
import { TradeSchema } from '../../resources/trade.js';
import { MemberVoteSchema, VoteDetailSchema, VoteSummarySchema } from '../../resources/vote.js';
import { WhalePersonSchema, WhaleSchema } from '../../resources/whale.js';
import { ErrorBody } from '../schemas/common.js';

/** Component name -> the TypeBox schema the routes use (matched by structure, not identity). */
export const NAMED_SCHEMAS: Readonly<Record<string, TSchema>> = {
  Error: ErrorBody,
  Trade: TradeSchema,
  Politician: PoliticianSummarySchema,
  PoliticianProfile: PoliticianProfileSchema,
  Filing: FilingSchema,
  InsiderTrade: InsiderTradeSchema,
  OverlapTrade: OverlapTradeSchema,
  Whale: WhaleSchema,
  WhalePerson: WhalePersonSchema,
  Lobbying: LobbyingSchema,
  TickerMatch: TickerMatchSchema,
  Contract: ContractSchema,
  Bill: BillDetailSchema,
  BillSummary: BillSummarySchema,
  Vote: VoteDetailSchema,
  VoteSummary: VoteSummarySchema,
  MemberVote: MemberVoteSchema,
  Portfolio: PortfolioSchema,
  Holding: HoldingSchema,
  Position: PositionSchema,
  Subscription: SubscriptionSchema,
};
