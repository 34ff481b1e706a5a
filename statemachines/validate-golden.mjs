// Runs the pinned asl-validator over every golden definition the tests prepared under
// target/asl-validate (the committed expected.asl.json with ${...} substitutions replaced by
// placeholder ARNs). Fails when there is nothing to validate, so a skipped step cannot pass.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const dir = join('target', 'asl-validate');
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.asl.json')).sort() : [];
if (files.length === 0) {
  console.error(`validate-golden: no definitions in ${dir}; GoldenGraphTest writes them during the test phase`);
  process.exit(1);
}
const cli = join('node_modules', 'asl-validator', 'dist', 'bin', 'asl-validator.js');
const args = [cli];
for (const f of files) {
  args.push('--json-path', join(dir, f));
}
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
