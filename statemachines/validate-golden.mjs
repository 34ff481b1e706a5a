// Runs the pinned asl-validator over every committed golden definition
// (golden/<case>/expected.asl.json). Definition substitutions are replaced first by placeholder
// ARNs of the right shape (${...FunctionArn} -> a Lambda ARN, ${StateMachineVersionArn} -> a state
// machine version ARN), written under target/asl-validate/. Any other ${...} fails, and so does
// an empty golden folder, so a skipped step cannot pass.
import { readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const goldenDir = 'golden';
const outDir = join('target', 'asl-validate');
const cases = readdirSync(goldenDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(goldenDir, d.name, 'expected.asl.json')))
  .map((d) => d.name)
  .sort();
if (cases.length === 0) {
  console.error(`validate-golden: no golden/<case>/expected.asl.json to validate`);
  process.exit(1);
}
mkdirSync(outDir, { recursive: true });
const args = [join('node_modules', 'asl-validator', 'dist', 'bin', 'asl-validator.js')];
for (const name of cases) {
  const text = readFileSync(join(goldenDir, name, 'expected.asl.json'), 'utf8').replace(/\$\{([^}]*)\}/g, (token, key) => {
    if (key === 'StateMachineVersionArn') {
      return 'arn:aws:states:eu-west-1:123456789012:stateMachine:protomolt-golden:1';
    }
    if (/^[A-Z][A-Za-z]*FunctionArn$/.test(key)) {
      return `arn:aws:lambda:eu-west-1:123456789012:function:protomolt-${key.replace('FunctionArn', '').toLowerCase()}`;
    }
    console.error(`validate-golden: ${name} uses unknown substitution ${token}`);
    process.exit(1);
  });
  const file = join(outDir, `${name}.asl.json`);
  writeFileSync(file, text);
  args.push('--json-path', file);
}
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
