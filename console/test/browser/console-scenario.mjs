// The console's browser scenario, in Debian's Chromium driven by playwright-core (nothing downloads
// a browser). Run by the cli's ConsoleBrowserTest in two phases around the upload it makes:
//   node console-scenario.mjs design <console-url> <account> <datasource> <graph-id> <shots-dir>
//   node console-scenario.mjs watch  <console-url> <account> <datasource> <doc-id>   <shots-dir>
// design builds intake -> parser -> index-sink by dragging from the palette, sees the CEL violation
// on the second edge, fixes it and deploys; watch waits in the run viewer until the document
// reached SINK_REACHED, opens its journey, replays it and follows the replay to its counts. Each phase exits non-zero naming the step that failed.
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [phase, url, account, datasource, subject, shots] = process.argv.slice(2);
const STEP_TIMEOUT = 30_000;

function step(name) {
  console.log(`step: ${name}`);
  current = name;
}
let current = 'start';

const profile = mkdtempSync(join(tmpdir(), 'protomolt-console-chromium-'));
mkdirSync(shots, { recursive: true });
const context = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
  viewport: { width: 1400, height: 860 },
});
context.setDefaultTimeout(STEP_TIMEOUT);
const page = context.pages()[0] ?? (await context.newPage());
page.on('pageerror', (e) => console.log(`page error: ${e.message}`));

try {
  step('open the console');
  await page.goto(url);
  await page.getByLabel('Account id').fill(account);
  await page.getByLabel('Account id').dispatchEvent('change');
  await page.getByLabel('Datasource id').fill(datasource);
  await page.getByLabel('Datasource id').dispatchEvent('change');
  if (phase === 'design') await design(subject);
  else if (phase === 'watch') await watch(subject);
  else throw new Error(`phase must be design or watch, was '${phase}'`);
  console.log(`phase ${phase}: passed`);
} catch (e) {
  console.log(`phase ${phase}: failed at step '${current}': ${e.message}`);
  await page.screenshot({ path: join(shots, `failed-${phase}.png`) }).catch(() => {});
  process.exitCode = 1;
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}

async function design(graphId) {
  step('open the designer');
  await page.getByRole('tab', { name: 'Designer' }).click();
  await page.getByLabel('Graph id').fill(graphId);
  await page.locator('[data-palette="parser"]').waitFor();

  step('drag three nodes from the palette');
  const canvas = page.locator('[data-testid="canvas"]');
  await page.dragAndDrop('[data-palette="intake"]', '[data-testid="canvas"]', { targetPosition: { x: 80, y: 200 } });
  await page.dragAndDrop('[data-palette="parser"]', '[data-testid="canvas"]', { targetPosition: { x: 360, y: 200 } });
  await page.dragAndDrop('[data-palette="index-sink"]', '[data-testid="canvas"]', { targetPosition: { x: 640, y: 200 } });
  await canvas.locator('.vue-flow__node').nth(2).waitFor();

  step('name the sink its index plan');
  await node('index-sink').click();
  await page.getByLabel('Index plans').fill('protomolt-sample');

  step('connect the nodes by dragging between their handles');
  await connect('intake', 'parser');
  await connect('parser', 'index-sink');
  await page.getByRole('heading', { name: 'Edge parser-index-sink' }).waitFor();

  step('see the CEL violation on the edge');
  await page.getByLabel('Edge condition (CEL)').fill('document.title ==');
  await page.locator('[data-testid="edge-violation"]').first().waitFor();
  await page.locator('.vue-flow__edge-text', { hasText: '⚠' }).first().waitFor();
  await page.screenshot({ path: join(shots, 'designer.png') });

  step('fix the CEL and see the draft valid');
  await page.getByLabel('Edge condition (CEL)').fill('true');
  await page.locator('[data-testid="edge-violation"]').waitFor({ state: 'detached' });
  await page.locator('[data-testid="draft-valid"]').waitFor();

  step('deploy');
  await page.getByRole('button', { name: 'Deploy the graph (create and activate)' }).click();
  await page.getByRole('tab', { name: 'Run viewer', selected: true }).waitFor();
}

async function watch(docId) {
  step('see the document reach SINK_REACHED in the run viewer');
  await page.getByRole('button', { name: `Open the journey of ${docId}` }).click({ timeout: 60_000 });
  const row = page.locator('tr', { has: page.getByRole('button', { name: `Open the journey of ${docId}` }) });
  await row.locator('.status.disposition', { hasText: 'SINK_REACHED' }).waitFor({ timeout: 90_000 });

  step('open its journey');
  await page.getByRole('heading', { name: `Journey of ${docId}` }).waitFor();
  await page.getByRole('table', { name: 'Manifest parts' }).first().waitFor();
  await page.screenshot({ path: join(shots, 'run-viewer.png'), fullPage: true });

  step('replay it from its journey and follow the replay to its counts');
  await page.getByRole('button', { name: new RegExp(`^Replay ${docId} on `) }).first().click();
  await page.getByRole('heading', { name: 'Replay SUCCEEDED' }).waitFor({ timeout: 90_000 });
  await page.getByText('1 of 1 candidates').waitFor();
}

function node(id) {
  return page.locator(`.vue-flow__node[data-id="${id}"]`);
}

async function connect(from, to) {
  const source = await node(from).locator('.vue-flow__handle.source').boundingBox();
  const target = await node(to).locator('.vue-flow__handle.target').boundingBox();
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 12 });
  await page.mouse.up();
  await page.locator(`.vue-flow__edge[data-id="${from}-${to}"], .vue-flow__edge-${from}-${to}`).first().waitFor({ state: 'attached' });
}
