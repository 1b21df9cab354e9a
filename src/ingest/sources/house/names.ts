// House filer names as printed on PTRs and in the yearly index: "Hon. Donald Sternoff Beyer Jr".

const HONORIFIC = /^(hon\.?|honorable|mr\.?|mrs\.?|ms\.?|dr\.?)\s+/i;

/** The name without its honorific ("Hon. Nancy Pelosi" -> "Nancy Pelosi"). */
export function houseFilerName(raw: string): string {
  let name = raw.replace(/\s+/g, ' ').trim();
  while (HONORIFIC.test(name)) name = name.replace(HONORIFIC, '');
  return name;
}
