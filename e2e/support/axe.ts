import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

/**
 * The page's axe violations of the given impacts (serious and critical unless told), one line per rule with
 * up to four of its elements. axe is evaluated through the debugger protocol: the app's CSP rightly refuses
 * inline scripts.
 *
 * Colours are judged on a settled page: a toast sliding in or out is half transparent for a moment, and axe
 * measures the contrast it sees (a CI run caught an export notice's download button mid fade-in). So it waits
 * until no finite animation or transition runs and every toast, with its wrappers, is fully opaque — including one
 * rendered but not yet transitioning, which `getAnimations()` alone does not see.
 */
export async function axeViolations(page: Page, impacts: Impact[] = ['serious', 'critical']): Promise<string[]> {
  await page.waitForFunction(
    () => {
      // Endless loops (a loader, a live dot's pulse) never settle and carry no text: only finite ones are waited out.
      const settling = (a: Animation) => a.playState === 'running' && a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY;
      if (document.getAnimations().some(settling)) return false;
      for (const toast of document.querySelectorAll('.mantine-Notification-root')) {
        for (let el: Element | null = toast; el && el !== document.body; el = el.parentElement) {
          if (getComputedStyle(el).opacity !== '1') return false;
        }
      }
      return true;
    },
    undefined,
    { timeout: 5000, polling: 'raf' },
  );
  await page.evaluate(axeSource);
  return page.evaluate(async (wanted) => {
    const axe = (
      window as unknown as {
        axe: { run(o: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const r = await axe.run({ resultTypes: ['violations'] });
    return r.violations
      .filter((v) => wanted.includes(v.impact as Impact))
      .map(
        (v) =>
          `${v.id}: ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 4)
            .join(', ')}`,
      );
  }, impacts);
}
