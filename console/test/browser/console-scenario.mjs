// The console's browser scenario, in Debian's Chromium driven by playwright-core (nothing downloads
// a browser). Run by the cli's ConsoleBrowserTest in three phases around the uploads it makes:
//   node console-scenario.mjs design  <console-url> <account> <datasource> <graph-id> <shots-dir>
//   node console-scenario.mjs watch   <console-url> <account> <datasource> <doc-id>   <shots-dir> <graph-id>
//   node console-scenario.mjs recover <console-url> <account> <datasource> <doc-id>   <shots-dir> <graph-id>
// design builds intake -> parser -> index-sink by dragging from the palette, sees the CEL violation
// on the second edge, fixes it and deploys; watch waits in the run viewer until the document
// reached SINK_REACHED, opens its journey, reads its trace and its modules' log lines, replays it
// and follows the replay to its counts, then deploys a version 2 whose condition fails at run time; recover sees the next upload dead-lettered
// on version 2, reprocesses its dead letter, reads the diff of the two versions and rolls back to
// version 1, every action from the keyboard by its label. Each phase exits non-zero naming the
// step that failed.
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [phase, url, account, datasource, subject, shots, graphId] = process.argv.slice(2);
// Type-checks (int() of a string) but fails on every title that is not a number: version 2's
// routing out of the parser fails at run time, so its documents dead-letter.
const FAILING_AT_RUN_TIME = 'int(document.search_metadata.title) > 0';
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
  else if (phase === 'recover') await recover(subject);
  else throw new Error(`phase must be design, watch or recover, was '${phase}'`);
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

  step('read its trace as a tree: intake the root, the hops under it, each with its duration');
  // Opened while it still ran: reload once it reached the sink, by keyboard as an operator would.
  await page.getByRole('button', { name: `Reload the trace of ${docId}` }).focus();
  await page.keyboard.press('Enter');
  const spans = page.getByRole('table', { name: 'Trace spans' });
  const root = spans.getByRole('row', { name: /^intake at level 1: / });
  await root.waitFor({ timeout: 30_000 });
  const hop = spans.getByRole('row', { name: /^prepare at level \d: .* takes \d+\.\d ms/ }).first();
  await hop.waitFor();
  await hop.focus();
  if (!(await hop.evaluate((el) => el === document.activeElement))) {
    throw new Error('a trace row is not keyboard-focusable');
  }
  const indent = async (row) => parseFloat(await row.locator('td').first().evaluate((td) => getComputedStyle(td).paddingLeft));
  if (!((await indent(hop)) > (await indent(root)))) {
    throw new Error('a hop span is not indented under intake');
  }

  step("read the sample modules' log lines of its hops, each with its time and level");
  // The gateway keeps a hop's log once its ack is settled, a moment after the run moves on:
  // until the sink's line is listed the operator reloads, by keyboard.
  const logs = page.locator('section[aria-label="Module logs"]');
  const quoted = docId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const sinkLine = logs.getByRole('row', { name: new RegExp(`^index-sink line \\d+, INFO at \\S+Z: indexed ${quoted} into `) });
  for (let attempt = 0; attempt < 30 && !(await sinkLine.count()); attempt += 1) {
    await page.getByRole('button', { name: `Reload the module logs of ${docId}` }).focus();
    await page.keyboard.press('Enter');
    await logs.getByText('loading…').waitFor({ state: 'detached' });
    if (!(await sinkLine.count())) await page.waitForTimeout(1000);
  }
  await sinkLine.first().waitFor();
  const parserLine = logs.getByRole('row', { name: /^parser line \d+, INFO at \S+Z: parsed .*: \d+ characters, language / }).first();
  await parserLine.waitFor();
  await logs.getByRole('region', { name: /^Module log of hop \d+: node parser, module / }).waitFor();
  await parserLine.focus();
  if (!(await parserLine.evaluate((el) => el === document.activeElement))) {
    throw new Error('a module log line is not keyboard-focusable');
  }
  await page.screenshot({ path: join(shots, 'run-viewer.png'), fullPage: true });

  step('replay it from its journey and follow the replay to its counts');
  await page.getByRole('button', { name: new RegExp(`^Replay ${docId} on `) }).first().click();
  await page.getByRole('heading', { name: 'Replay SUCCEEDED' }).waitFor({ timeout: 90_000 });
  await page.getByText('1 of 1 candidates').waitFor();

  step('deploy a version 2 whose condition fails at run time');
  await page.getByRole('tab', { name: 'Designer' }).click();
  await page.getByLabel('Open a stored graph').selectOption(graphId);
  await node('index-sink').waitFor();
  await page.locator('.vue-flow__edge[data-id="parser-index-sink"], .vue-flow__edge-parser-index-sink').first().click();
  await page.getByRole('heading', { name: 'Edge parser-index-sink' }).waitFor();
  await page.getByLabel('Edge condition (CEL)').fill(FAILING_AT_RUN_TIME);
  await page.locator('[data-testid="draft-valid"]').waitFor();
  await page.getByRole('button', { name: 'Deploy the graph (create and activate)' }).click();
  await page.getByRole('tab', { name: 'Run viewer', selected: true }).waitFor();
}

async function recover(docId) {
  step('see the upload dead-lettered on version 2');
  const open = page.getByRole('button', { name: `Open the journey of ${docId}` });
  const row = page.locator('tr', { has: open });
  await row.locator('.status.DEAD_LETTERED').first().waitFor({ timeout: 90_000 });
  await open.click();
  await page.getByRole('heading', { name: `Journey of ${docId}` }).waitFor();

  step('reprocess its dead letter from the keyboard');
  const reprocess = page.getByRole('button', { name: /^Reprocess the dead letter of / }).first();
  // The letter reaches its topic a moment after the run is seen dead-lettered: until it is
  // listed the console says so, and the operator presses again.
  const result = page.locator('.action-result');
  for (let attempt = 0; attempt < 30; attempt += 1) {
    await reprocess.focus();
    await page.keyboard.press('Enter');
    // The button says 'reprocessing…' until the answer is in.
    await page.waitForFunction(
      () => !['', 'reprocessing…'].includes(document.querySelector('.action-result').textContent.trim()),
    );
    if ((await result.textContent()).includes('REPROCESSED')) break;
    await page.waitForTimeout(1000);
  }
  await page.locator('.action-result', { hasText: 'REPROCESSED' }).waitFor();

  step('see each version with its running executions');
  await page.getByRole('button', { name: new RegExp(`^${graphId} v2`) }).click();
  await page.locator('[data-testid="running-executions"]').nth(1).waitFor();

  step('read the diff of version 1 and version 2');
  await page.getByRole('tab', { name: 'Designer' }).click();
  await page.getByLabel('Open a stored graph').selectOption(graphId);
  await page.getByRole('button', { name: 'Roll back to version 1' }).waitFor();
  await page.getByLabel('Diff from version').selectOption('1');
  await page.getByLabel('Diff to version').selectOption('2');
  const diff = page.getByRole('button', { name: 'Show what changed between the two versions' });
  await diff.focus();
  await page.keyboard.press('Enter');
  const shown = page.locator('[data-testid="version-diff"]');
  await shown.getByText('edge parser-index-sink').waitFor();
  await shown.getByText(FAILING_AT_RUN_TIME).waitFor();

  step('roll back to version 1, confirming from the keyboard');
  await page.getByRole('button', { name: 'Roll back to version 1' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('alertdialog').getByText('Activate version 1 instead of version 2?').waitFor();
  // The question takes the focus: Enter answers it.
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="designer-message"]', { hasText: 'version 1 is active' }).waitFor();
  await page.getByRole('button', { name: 'Roll back to version 2' }).waitFor();
  await page.screenshot({ path: join(shots, 'designer-versions.png') });
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
