// The field's phrases for kinds of companies, each pointing to the data's own taxonomy: GICS
// sectors and sub-industries (the S&P 500 list), Nasdaq's sectors and industries (Nasdaq names its
// industries by SIC description: "Biotechnology: Biological Products (No Diagnostic Substances)" is
// SIC 2836). Never to a hand-picked list of tickers: a phrase reaches the companies of its codes,
// ranked by how much members traded them (search/entities.ts). Reviewed by hand and versioned:
// bump CONCEPT_VOCABULARY_VERSION when an entry changes, and docs/search.md says how to extend it.
export const CONCEPT_VOCABULARY_VERSION = 2;

export interface Concept {
  /** A stable name, reported in the answer's `concepts`. */
  id: string;
  /** What people type (matched on whole words, singular or plural, case-insensitive). */
  phrases: readonly string[];
  /** Taxonomy names, matched exactly (case-insensitive) against a company's codes. */
  gicsSectors?: readonly string[];
  gicsSubIndustries?: readonly string[];
  /** Nasdaq industries (SIC descriptions) and sectors. */
  sicIndustries?: readonly string[];
  nasdaqSectors?: readonly string[];
  /**
   * The GICS sectors the concept's companies carry on their trades (read from the company
   * directory when the entry was written). The assistant narrows /trades to them, then keeps the
   * trades whose industry is one of the concept's codes; search does not read it.
   */
  tradeSectors?: readonly string[];
  /** Codes that leave a company out although another code put it in. */
  excludeSubIndustries?: readonly string[];
}

export const CONCEPTS: readonly Concept[] = [
  {
    id: 'semiconductors',
    phrases: ['chip maker', 'chipmaker', 'chip stock', 'chip company', 'semiconductor', 'semis', 'chips'],
    gicsSubIndustries: ['Semiconductors', 'Semiconductor Materials & Equipment'],
    sicIndustries: ['Semiconductors'],
    tradeSectors: ['Information Technology'],
  },
  {
    id: 'defense',
    phrases: [
      'defense contractor',
      'defense company',
      'defense stock',
      'defence contractor',
      'weapons maker',
      'arms maker',
      'military contractor',
      'aerospace',
    ],
    gicsSubIndustries: ['Aerospace & Defense'],
    sicIndustries: ['Military/Government/Technical', 'Ordnance And Accessories', 'Aerospace'],
    tradeSectors: ['Industrials', 'Consumer Discretionary'],
  },
  {
    id: 'big-banks',
    phrases: [
      'big bank',
      'major bank',
      'megabank',
      'wall street bank',
      'bank stock',
      'banks',
      'investment bank',
    ],
    gicsSubIndustries: ['Diversified Banks', 'Investment Banking & Brokerage'],
    sicIndustries: ['Major Banks'],
    tradeSectors: ['Financials'],
  },
  {
    id: 'regional-banks',
    phrases: ['regional bank', 'community bank', 'small bank'],
    gicsSubIndustries: ['Regional Banks'],
    sicIndustries: ['Commercial Banks', 'Savings Institutions', 'Banks'],
    tradeSectors: ['Financials'],
  },
  {
    id: 'oil-gas',
    phrases: [
      'oil and gas',
      'oil & gas',
      'oil company',
      'oil stock',
      'oil',
      'fossil fuel',
      'big oil',
      'drillers',
      'natural gas',
    ],
    gicsSubIndustries: [
      'Integrated Oil & Gas',
      'Oil & Gas Exploration & Production',
      'Oil & Gas Refining & Marketing',
      'Oil & Gas Equipment & Services',
      'Oil & Gas Storage & Transportation',
    ],
    sicIndustries: [
      'Integrated oil Companies',
      'Oil & Gas Production',
      'Oilfield Services/Equipment',
      'Oil Refining/Marketing',
    ],
    tradeSectors: ['Energy', 'Utilities', 'Consumer Discretionary'],
  },
  {
    id: 'energy',
    phrases: ['energy stock', 'energy company', 'energy sector', 'energy producer'],
    gicsSectors: ['Energy'],
  },
  {
    id: 'airlines',
    phrases: ['airline', 'air line', 'air carrier', 'carrier stock', 'air travel'],
    gicsSubIndustries: ['Passenger Airlines'],
    sicIndustries: ['Air Freight/Delivery Services'],
    excludeSubIndustries: ['Air Freight & Logistics'],
    tradeSectors: ['Industrials', 'Consumer Discretionary'],
  },
  {
    id: 'railroads',
    phrases: ['railroad', 'railway', 'rail company', 'freight rail'],
    gicsSubIndustries: ['Rail Transportation'],
    sicIndustries: ['Railroads'],
    tradeSectors: ['Industrials'],
  },
  {
    id: 'cruise-lines',
    phrases: ['cruise line', 'cruise company', 'cruise stock', 'cruise ship'],
    gicsSubIndustries: ['Hotels, Resorts & Cruise Lines'],
    sicIndustries: ['Marine Transportation'],
    excludeSubIndustries: ['Aerospace & Defense'],
    tradeSectors: ['Consumer Discretionary', 'Industrials'],
  },
  {
    id: 'vaccines',
    phrases: ['vaccine maker', 'vaccine company', 'vaccine stock', 'vaccines', 'covid vaccine'],
    gicsSubIndustries: ['Pharmaceuticals', 'Biotechnology'],
    sicIndustries: ['Biotechnology: Biological Products (No Diagnostic Substances)'],
    tradeSectors: ['Health Care'],
  },
  {
    id: 'pharma',
    phrases: ['drugmaker', 'drug maker', 'drug company', 'pharmaceutical', 'pharma', 'big pharma'],
    gicsSubIndustries: ['Pharmaceuticals'],
    sicIndustries: ['Biotechnology: Pharmaceutical Preparations'],
    tradeSectors: ['Health Care'],
  },
  {
    id: 'biotech',
    phrases: ['biotech', 'biotechnology'],
    gicsSubIndustries: ['Biotechnology'],
    sicIndustries: [
      'Biotechnology: Biological Products (No Diagnostic Substances)',
      'Biotechnology: In Vitro & In Vivo Diagnostic Substances',
      'Biotechnology: Commercial Physical & Biological Resarch',
    ],
    tradeSectors: ['Health Care'],
  },
  {
    id: 'wireless',
    phrases: [
      'wireless carrier',
      'cell carrier',
      'cellphone carrier',
      'mobile carrier',
      'telecom',
      'phone company',
      'wireless',
    ],
    gicsSubIndustries: ['Wireless Telecommunication Services', 'Integrated Telecommunication Services'],
    tradeSectors: ['Communication Services'],
  },
  {
    id: 'tobacco',
    phrases: ['tobacco', 'cigarette', 'cigarette maker', 'smoking'],
    gicsSubIndustries: ['Tobacco'],
    sicIndustries: ['Tobacco', 'Medicinal Chemicals and Botanical Products'],
    excludeSubIndustries: ['Pharmaceuticals', 'Biotechnology'],
    tradeSectors: ['Consumer Staples', 'Health Care', 'Consumer Discretionary'],
  },
  {
    id: 'ev',
    phrases: [
      'ev maker',
      'ev company',
      'ev stock',
      'electric vehicle',
      'electric car',
      'carmaker',
      'automaker',
      'auto maker',
    ],
    gicsSubIndustries: ['Automobile Manufacturers'],
    sicIndustries: ['Auto Manufacturing'],
    tradeSectors: ['Consumer Discretionary', 'Industrials'],
  },
  {
    id: 'social-media',
    phrases: ['social media', 'social network', 'internet media'],
    gicsSubIndustries: ['Interactive Media & Services'],
    sicIndustries: ['Computer Software: Programming Data Processing'],
    tradeSectors: [
      'Communication Services',
      'Information Technology',
      'Financials',
      'Consumer Discretionary',
    ],
  },
  {
    id: 'payments',
    phrases: ['payment processor', 'payment company', 'payments', 'credit card company', 'fintech'],
    gicsSubIndustries: ['Transaction & Payment Processing Services', 'Consumer Finance'],
    tradeSectors: ['Financials'],
  },
  {
    id: 'health-insurers',
    phrases: ['health insurer', 'health insurance', 'managed care', 'hmo'],
    gicsSubIndustries: ['Managed Health Care', 'Health Care Services'],
    tradeSectors: ['Health Care'],
  },
  {
    id: 'homebuilders',
    phrases: ['homebuilder', 'home builder', 'housing stock', 'home construction'],
    gicsSubIndustries: ['Homebuilding'],
    sicIndustries: ['Homebuilding'],
    tradeSectors: ['Consumer Discretionary', 'Real Estate', 'Industrials'],
  },
  {
    id: 'casinos',
    phrases: ['casino', 'gambling', 'gaming company', 'sports betting'],
    gicsSubIndustries: ['Casinos & Gaming'],
    sicIndustries: ['Hotels/Resorts'],
    tradeSectors: ['Consumer Discretionary'],
  },
  {
    id: 'cybersecurity',
    phrases: ['cybersecurity', 'cyber security', 'security software'],
    gicsSubIndustries: ['Systems Software'],
    sicIndustries: ['Computer peripheral equipment'],
    tradeSectors: ['Information Technology'],
  },
  {
    id: 'gold',
    phrases: ['gold miner', 'gold mining', 'gold stock', 'precious metal', 'silver miner'],
    gicsSubIndustries: ['Gold'],
    sicIndustries: ['Precious Metals'],
    tradeSectors: ['Materials', 'Industrials'],
  },
  {
    id: 'streaming',
    phrases: ['streaming', 'streaming service', 'media company', 'entertainment company'],
    gicsSubIndustries: ['Movies & Entertainment', 'Cable & Satellite'],
    tradeSectors: ['Communication Services'],
  },
  {
    id: 'software',
    phrases: ['software company', 'software stock', 'cloud software', 'saas'],
    gicsSubIndustries: ['Application Software', 'Systems Software'],
    sicIndustries: ['Computer Software: Prepackaged Software'],
    tradeSectors: ['Information Technology', 'Communication Services', 'Health Care', 'Financials'],
  },
  {
    id: 'tech',
    phrases: [
      'tech stock',
      'tech company',
      'technology stock',
      'technology company',
      'tech sector',
      'technology sector',
      'big tech',
      'information technology',
    ],
    gicsSectors: ['Information Technology', 'Communication Services'],
  },
  {
    id: 'utilities',
    phrases: ['utility', 'utilities', 'power company', 'electric utility'],
    gicsSectors: ['Utilities'],
    sicIndustries: [
      'Electric Utilities: Central',
      'Power Generation',
      'Water Supply',
      'Natural Gas Distribution',
    ],
    tradeSectors: ['Utilities', 'Energy'],
  },
  {
    id: 'retail',
    phrases: ['retailer', 'retail stock', 'department store'],
    gicsSubIndustries: [
      'Broadline Retail',
      'Consumer Staples Merchandise Retail',
      'Home Improvement Retail',
      'Apparel Retail',
      'Other Specialty Retail',
    ],
    tradeSectors: ['Consumer Discretionary', 'Consumer Staples'],
  },
  {
    id: 'restaurants',
    phrases: ['restaurant', 'fast food', 'restaurant chain'],
    gicsSubIndustries: ['Restaurants'],
    sicIndustries: ['Restaurants'],
    tradeSectors: ['Consumer Discretionary'],
  },
  {
    id: 'insurers',
    phrases: ['insurer', 'insurance company', 'insurance stock'],
    gicsSubIndustries: [
      'Property & Casualty Insurance',
      'Life & Health Insurance',
      'Multi-line Insurance',
      'Reinsurance',
      'Insurance Brokers',
    ],
    sicIndustries: [
      'Property-Casualty Insurers',
      'Life Insurance',
      'Specialty Insurers',
      'Accident &Health Insurance',
    ],
    tradeSectors: ['Financials'],
  },
  {
    id: 'reits',
    phrases: ['reit', 'real estate investment trust', 'real estate stock'],
    gicsSectors: ['Real Estate'],
    sicIndustries: ['Real Estate Investment Trusts'],
  },
  {
    id: 'health-care',
    phrases: [
      'health care stock',
      'healthcare stock',
      'healthcare company',
      'health care company',
      'health care sector',
      'healthcare sector',
      'medical device',
      'hospital',
    ],
    gicsSectors: ['Health Care'],
  },
  {
    id: 'beverages',
    phrases: ['soda', 'soft drink', 'beverage company', 'beverage'],
    gicsSubIndustries: ['Soft Drinks & Non-alcoholic Beverages', 'Brewers', 'Distillers & Vintners'],
    sicIndustries: ['Beverages (Production/Distribution)'],
    tradeSectors: ['Consumer Staples'],
  },
  // The GICS sectors by the names the market gives them, plural nouns of adjectives ("financials").
  {
    id: 'financials',
    phrases: ['financials', 'financial stock', 'financial company', 'financial sector', 'financial firm'],
    gicsSectors: ['Financials'],
  },
  {
    id: 'industrials',
    phrases: ['industrials', 'industrial stock', 'industrial company', 'industrial sector'],
    gicsSectors: ['Industrials'],
  },
  {
    id: 'materials',
    phrases: ['materials stock', 'materials company', 'materials sector', 'basic materials'],
    gicsSectors: ['Materials'],
  },
  {
    id: 'consumer-staples',
    phrases: ['consumer staples', 'consumer staple', 'staples stock', 'staples sector'],
    gicsSectors: ['Consumer Staples'],
  },
  {
    id: 'consumer-discretionary',
    phrases: ['consumer discretionary', 'discretionary stock', 'discretionary sector'],
    gicsSectors: ['Consumer Discretionary'],
  },
  {
    id: 'communication-services',
    phrases: ['communication services', 'communications stock', 'communication services sector'],
    gicsSectors: ['Communication Services'],
  },
  {
    id: 'delivery',
    phrases: ['shipping company', 'package delivery', 'logistics company', 'freight'],
    gicsSubIndustries: ['Air Freight & Logistics', 'Cargo Ground Transportation'],
    sicIndustries: ['Trucking Freight/Courier Services'],
    tradeSectors: ['Industrials'],
  },
];
