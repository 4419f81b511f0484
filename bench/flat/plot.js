// A small SVG line chart, written by hand (no dependency): one line per operation, its cost as a
// ratio to its cost at the smallest size, against the database size on a log axis.

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];
const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * series: [{ label, ratios: [number|null per size] }]; sizes: [10_000, ...]; goal: the ratio line drawn dashed.
 * Returns the SVG text.
 */
export function ratioPlot({ title, sizes, series, goal }) {
  const width = 980;
  const height = 420;
  const left = 60;
  const right = 400;
  const top = 40;
  const bottom = 50;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const finite = series.flatMap((s) => s.ratios).filter((r) => typeof r === 'number' && Number.isFinite(r));
  const maxRatio = Math.max(goal * 1.2, 2, ...finite.map((r) => Math.min(r, 40)));
  // A log y axis once the curve leaves the goal far behind, so both 1.1x and 30x stay readable.
  const logY = maxRatio > 8;
  const yOf = (r) => {
    const clamped = Math.max(0.5, Math.min(r, maxRatio));
    const f = logY ? Math.log(clamped / 0.5) / Math.log(maxRatio / 0.5) : (clamped - 0.5) / (maxRatio - 0.5);
    return top + plotH - f * plotH;
  };
  const logMin = Math.log10(sizes[0]);
  const logMax = Math.log10(sizes.at(-1));
  const xOf = (size) => left + ((Math.log10(size) - logMin) / Math.max(1e-9, logMax - logMin)) * plotW;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${left}" y="22" font-size="14" font-weight="bold">${escape(title)}</text>`,
    `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="black"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="black"/>`,
  ];
  const ticks = logY
    ? [0.5, 1, 2, 5, 10, 20, 40].filter((t) => t <= maxRatio)
    : Array.from({ length: Math.floor(maxRatio / 0.5) }, (_, i) => 0.5 + i * 0.5);
  for (const t of ticks) {
    const y = yOf(t);
    out.push(
      `<line x1="${left - 4}" y1="${y}" x2="${left + plotW}" y2="${y}" stroke="#eee"/>`,
      `<text x="${left - 8}" y="${y + 4}" text-anchor="end">${t}x</text>`,
    );
  }
  for (const size of sizes) {
    const x = xOf(size);
    out.push(
      `<line x1="${x}" y1="${top + plotH}" x2="${x}" y2="${top + plotH + 4}" stroke="black"/>`,
      `<text x="${x}" y="${top + plotH + 18}" text-anchor="middle">10^${Math.round(Math.log10(size))}</text>`,
    );
  }
  out.push(`<text x="${left + plotW / 2}" y="${height - 10}" text-anchor="middle">rows per table already in the database</text>`);
  out.push(
    `<text x="14" y="${top + plotH / 2}" transform="rotate(-90 14 ${top + plotH / 2})" text-anchor="middle">cost / cost at 10^${Math.round(logMin)}</text>`,
  );
  const gy = yOf(goal);
  out.push(
    `<line x1="${left}" y1="${gy}" x2="${left + plotW}" y2="${gy}" stroke="#d00" stroke-dasharray="6 4"/>`,
    `<text x="${left + plotW - 4}" y="${gy - 5}" text-anchor="end" fill="#d00">goal ${goal}x</text>`,
  );
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const points = s.ratios.map((r, j) => (typeof r === 'number' && Number.isFinite(r) ? [xOf(sizes[j]), yOf(r)] : null)).filter(Boolean);
    if (points.length > 1)
      out.push(
        `<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')}"/>`,
      );
    for (const [x, y] of points) out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="3" fill="${color}"/>`);
    const ly = top + 10 + i * 18;
    const last = s.ratios.at(-1);
    out.push(
      `<rect x="${left + plotW + 16}" y="${ly - 9}" width="12" height="12" fill="${color}"/>`,
      `<text x="${left + plotW + 34}" y="${ly + 1}">${escape(s.label)}${typeof last === 'number' ? ` (${last.toFixed(2)}x)` : ''}</text>`,
    );
  });
  out.push('</svg>', '');
  return out.join('\n');
}
