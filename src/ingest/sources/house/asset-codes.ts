// House asset type codes (fd.house.gov/reference/asset-type-codes.aspx) mapped to the asset type
// we serve. Names follow the Senate's asset types where the two mean the same thing, so that one
// `asset_type` filter works for both chambers.

const ASSET_TYPES: Record<string, string> = {
  '4K': '401K/Retirement Account',
  '5C': '529 College Savings Plan',
  '5F': '529 Portfolio',
  '5P': '529 Prepaid Tuition Plan',
  AB: 'Asset-Backed Security',
  BA: 'Bank Account',
  BK: 'Brokerage Account',
  CO: 'Collectibles',
  CS: 'Corporate Bond',
  CT: 'Cryptocurrency',
  DB: 'Defined Benefit Pension',
  DO: 'Debt Owed to Filer',
  DS: 'Delaware Statutory Trust',
  EF: 'ETF',
  EQ: 'Excepted/Qualified Blind Trust',
  ET: 'Exchange Traded Note',
  FA: 'Farm',
  FE: 'Foreign Currency',
  FN: 'Fixed Annuity',
  FU: 'Commodities/Futures Contract',
  GS: 'Government Security',
  HE: 'Hedge/Private Equity Fund',
  HN: 'Hedge/Private Equity Fund',
  IC: 'Investment Club',
  IH: 'IRA',
  IP: 'Intellectual Property',
  IR: 'IRA',
  MA: 'Managed Account',
  MF: 'Mutual Fund',
  MO: 'Mineral/Oil/Solar Energy Rights',
  OI: 'Ownership Interest',
  OL: 'Ownership Interest',
  OP: 'Option',
  OT: 'Other Securities',
  PE: 'Pension',
  PM: 'Precious Metals',
  PS: 'Non-Public Stock',
  RE: 'REIT',
  RP: 'Real Property',
  RS: 'Restricted Stock Units',
  SA: 'Stock Appreciation Right',
  ST: 'Stock',
  TR: 'Trust',
  VA: 'Variable Annuity',
  VI: 'Variable Insurance',
  WU: 'Whole/Universal Insurance',
};

/** The asset type for a House code; unknown codes are served as printed rather than guessed. */
export function houseAssetType(code: string | null, ticker: string): string | null {
  if (code === null) return ticker === 'N/A' ? null : 'Stock';
  return ASSET_TYPES[code] ?? code;
}
