// The tiny test harness the Node tests share: named tests that report ok / FAIL and go on,
// and the exit status at the end.
let passed = 0, failed = 0;

// Throws `what` unless `cond` holds.
function check(cond, what) {
  if (!cond) throw new Error(what);
}

// Runs `fn`, printing "ok NAME" or "FAIL NAME: why"; a failure does not stop the others.
async function test(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${(e && e.stack) || e}`);
  }
}

// Prints the counts and exits 0 only when every test ran and passed.
function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
}

module.exports = { check, test, finish };
