// preinstall: refuses an install on a Node or npm that Arbiter does not run on, in one sentence, before
// npm starts fetching packages that would fail later with a stack of unrelated errors.
// Written in old JavaScript on purpose: it must run on the old Node it is refusing.
var pkg = require('../package.json');
// ARBITER_CHECK_NODE_VERSION lets the test try versions this machine does not have.
var nodeVersion = process.env.ARBITER_CHECK_NODE_VERSION || process.versions.node;
var node = nodeVersion.split('.').map(Number);
var agent = process.env.npm_config_user_agent || '';
var npmMatch = /npm\/(\d+)\./.exec(agent);
var npmMajor = npmMatch ? Number(npmMatch[1]) : undefined;
var problems = [];
if (node[0] !== 20 && node[0] !== 22) {
  problems.push(
    'Node ' +
      nodeVersion +
      ' is not supported: use Node 20 (20.19 or later) or Node 22 (22.12 or later) (engines: "' +
      pkg.engines.node +
      '").',
  );
} else if ((node[0] === 20 && node[1] < 19) || (node[0] === 22 && node[1] < 12)) {
  problems.push('Node ' + nodeVersion + ' is too old: use Node 20.19 or later, or 22.12 or later (engines: "' + pkg.engines.node + '").');
}
if (npmMajor !== undefined && npmMajor < 10) {
  problems.push('npm ' + npmMajor + ' is too old: use npm 10 or later (engines: "' + pkg.engines.npm + '").');
}
if (problems.length && process.env.ARBITER_SKIP_ENGINE_CHECK !== '1') {
  console.error('\nArbiter cannot be installed here:\n  ' + problems.join('\n  ') + '\n(Set ARBITER_SKIP_ENGINE_CHECK=1 to try anyway.)\n');
  process.exit(1);
}
