// The guides of docs/ as HTML pages: Markdown rendered by marked, with the raw HTML a Markdown file
// may hold escaped (generated-region markers are dropped), links limited to safe schemes, links
// between the guides pointed at their /docs/guides pages, and headings given GitHub's anchors so
// `market-data.md#portfolios` lands where it does on GitHub.
import { Marked, type Tokens } from 'marked';

export const GUIDES_PATH = '/docs/guides';

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Guides kept at the repository root rather than in docs/, by the file name links use. */
const ROOT_GUIDES: Record<string, string> = {
  'ACCURACY.md': 'accuracy',
  'BENCHMARKS.md': 'benchmarks',
};

/**
 * Where a link of a guide points once rendered: another guide's page, an anchor, or an absolute
 * http(s)/mailto address; undefined for anything else (javascript:, data:, paths out of the docs).
 */
export function guideHref(href: string): string | undefined {
  const trimmed = href.trim();
  if (/^(https?:|mailto:)/i.test(trimmed) || trimmed.startsWith('#')) return trimmed;
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) || trimmed.startsWith('//')) return undefined;
  const [path = '', anchor] = trimmed.split('#', 2);
  const suffix = anchor === undefined ? '' : `#${anchor}`;
  const file = path.replace(/^(\.\/|docs\/)/, '');
  if (file === '../README.md' || file === 'README.md') return `${GUIDES_PATH}${suffix}`;
  const root = ROOT_GUIDES[file.replace(/^\.\.\//, '')];
  if (root) return `${GUIDES_PATH}/${root}${suffix}`;
  const guide = /^([a-z0-9-]+)\.md$/.exec(file);
  if (guide) return `${GUIDES_PATH}/${guide[1]}${suffix}`;
  return undefined;
}

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      // Comments are the generated-region markers; any other HTML is shown, not run.
      return /^\s*<!--[\s\S]*-->\s*$/.test(token.text) ? '' : escapeHtml(token.text);
    },
    link(token: Tokens.Link): string {
      const text = this.parser.parseInline(token.tokens);
      const href = guideHref(token.href);
      if (href === undefined) return text;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
      return `<a href="${escapeHtml(href)}"${title}>${text}</a>`;
    },
    image(token: Tokens.Image): string {
      return escapeHtml(token.text);
    },
    heading(token: Tokens.Heading): string {
      const text = this.parser.parseInline(token.tokens);
      return `<h${token.depth} id="${escapeHtml(headingSlug(token.text))}">${text}</h${token.depth}>\n`;
    },
  },
});

/** Markdown as HTML; a table scrolls inside a focusable region of its own on a narrow screen. */
export function renderMarkdown(markdown: string): string {
  return (marked.parse(markdown) as string)
    .replace(/<table>/g, '<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>')
    .replace(/<\/table>/g, '</table></div>');
}
